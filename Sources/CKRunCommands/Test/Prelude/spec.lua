-- ckrun test: describe, it, pending, the hooks and the runner's operations.
-- busted's spec language: describe/it/pending and the hooks. Loading a file builds a tree;
-- the Swift runner then drives each phase through `dispatch`, one protected call at a time,
-- so each phase gets its own time limit and its own traceback.
local T = _ENV["(ckrun test)"]
local insert, ipairs, type = table.insert, ipairs, type

local function new_block(name, full_name, line, parent)
  return { kind = "block", name = name, full_name = full_name, line = line, parent = parent, children = {},
           setup = {}, teardown = {}, before_each = {}, after_each = {} }
end

local root = new_block("", "", 0, nil)
root.id = 0
local blocks, tests = { [0] = root }, {}
local current = root
T.collecting = true
T.running = nil
T.filters, T.excludes, T.tags, T.exclude_tags = {}, {}, {}, {}

local function join(prefix, name)
  if prefix == "" then return name end
  return prefix .. " " .. name
end

local function check_loading(what)
  if not T.collecting then
    error(what .. "() can only be called while the test file loads, not inside a test or hook", 3)
  end
end

local function check_name(name, what)
  if type(name) ~= "string" then
    error(what .. "() expects a name (a string) as its first argument, got " .. type(name), 3)
  end
end

-- The line of the user's call (the first frame outside the runner's chunks).
local function caller_line()
  local where = T.where()
  return where and tonumber(where:match(":(%d+)$")) or 0
end

function describe(name, fn)
  check_loading("describe")
  check_name(name, "describe")
  if type(fn) ~= "function" then error("describe(\"" .. name .. "\") expects a function as its second argument", 2) end
  local block = new_block(name, join(current.full_name, name), caller_line(), current)
  block.id = #blocks + 1
  blocks[block.id] = block
  insert(current.children, block)
  local outer = current
  current = block
  fn()
  current = outer
end
context = describe

local function add_test(name, fn, what)
  local test = { kind = "test", name = name, full_name = join(current.full_name, name), line = caller_line(),
                 fn = fn, pending = fn == nil, block = current }
  test.id = #tests + 1
  tests[test.id] = test
  insert(current.children, test)
end

function it(name, fn)
  check_loading("it")
  check_name(name, "it")
  if fn ~= nil and type(fn) ~= "function" then
    error("it(\"" .. name .. "\") expects a function as its second argument (or none, for a pending test)", 2)
  end
  add_test(name, fn)
end

-- pending("name") declares a skipped test; pending("reason") inside a running test skips it.
function pending(name)
  if T.running then
    T.last_pending = "pending: " .. tostring(name or "")
    error(T.last_pending, 0)
  end
  check_loading("pending")
  check_name(name, "pending")
  add_test(name, nil)
end

local function hook(kind)
  return function(fn)
    check_loading(kind)
    if type(fn) ~= "function" then error(kind .. "() expects a function", 2) end
    insert(current[kind], fn)
  end
end
before_each, after_each = hook("before_each"), hook("after_each")
setup, teardown = hook("setup"), hook("teardown")
lazy_setup, strict_setup, lazy_teardown, strict_teardown = setup, setup, teardown, teardown

-- finally(fn) inside a test: runs after the test, whatever its outcome.
function finally(fn)
  if not T.running then error("finally() can only be called inside a running test", 2) end
  if type(fn) ~= "function" then error("finally() expects a function", 2) end
  insert(T.finalizers, fn)
end

-- Selection: exclusions win; --filter patterns and --tags each select when any matches.
local function tags_of(full_name)
  local set = {}
  for tag in full_name:gmatch("#([%w_%-%.]+)") do set[tag] = true end
  return set
end

local function any(list, predicate)
  for _, item in ipairs(list) do
    if predicate(item) then return true end
  end
  return false
end

local function is_selected(test)
  local name, tags = test.full_name, tags_of(test.full_name)
  local function matches(pattern) return name:find(pattern) ~= nil end
  local function tagged(tag) return tags[tag] == true end
  if any(T.excludes, matches) or any(T.exclude_tags, tagged) then return false end
  if #T.filters > 0 and not any(T.filters, matches) then return false end
  if #T.tags > 0 and not any(T.tags, tagged) then return false end
  return true
end

-- The tree as JSON, for the Swift runner to plan from.
local escapes = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }
local function json_string(s)
  return '"' .. (s:gsub('[%c"\\]', function(c) return escapes[c] or string.format("\\u%04x", c:byte()) end)) .. '"'
end

local function encode(node)
  if node.kind == "test" then
    return string.format('{"kind":"test","id":%d,"name":%s,"fullName":%s,"line":%d,"pending":%s,"selected":%s}',
      node.id, json_string(node.name), json_string(node.full_name), node.line, tostring(node.pending),
      tostring(is_selected(node)))
  end
  local children = {}
  for i, child in ipairs(node.children) do children[i] = encode(child) end
  return string.format('{"kind":"block","id":%d,"name":%s,"fullName":%s,"line":%d,"children":[%s]}',
    node.id, json_string(node.name), json_string(node.full_name), node.line, table.concat(children, ","))
end

-- Tail calls, so tracebacks name a hook by its line rather than as "local 'fn'".
local function call(fn) return fn() end
local function run_all(list)
  for _, fn in ipairs(list) do call(fn) end
end

local ops = {}
function ops.add_filter(kind, value) insert(T[kind], value) end
function ops.seed(n) math.randomseed(tonumber(n)) end
function ops.tree()
  T.collecting = false
  return encode(root)
end
function ops.setup(id) run_all(blocks[tonumber(id)].setup) end
function ops.teardown(id) run_all(blocks[tonumber(id)].teardown) end
function ops.before_each(id) run_all(blocks[tonumber(id)].before_each) end
function ops.after_each(id) run_all(blocks[tonumber(id)].after_each) end
function ops.begin(id)
  T.running = tests[tonumber(id)]
  T.finalizers, T.reverts = {}, {}
  T.last_failure, T.last_pending = nil, nil
  T.test_output = {}
  T.sink = T.test_output
end
function ops.body(id) return tests[tonumber(id)].fn() end -- a tail call: tracebacks show the function by its line
function ops.finally()
  local list = T.finalizers
  T.finalizers = {}
  run_all(list)
end
-- Ends the running test: reverts its spies and returns what it printed.
function ops.finish()
  for i = #T.reverts, 1, -1 do pcall(T.reverts[i]) end
  T.running, T.reverts = nil, {}
  T.sink = T.file_output
  return T.take(T.test_output)
end
function ops.classify(message)
  if message == T.last_failure then return "failure" end
  if message == T.last_pending then return "pending" end
  return "error"
end
function ops.file_output() return T.take(T.file_output) end

-- The Swift runner calls `_ENV["(ckrun test)"](op, ...)` with string arguments.
setmetatable(T, { __call = function(_, op, ...) return ops[op](...) end })
