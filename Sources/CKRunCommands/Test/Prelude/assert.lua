-- ckrun test: luassert (loaded by luassert.lua) as the global `assert`, `spy`, `stub`, `mock`
-- and `match`, and `require "busted"` for spec files.
local pristine = select(7, ...)
-- Every free name reads the standard library as it was at start (the seventh argument): a spec
-- may set `_G.math = nil` or `string.format = nil` before the runner's code below runs
-- (check-layout refuses a shipped Lua file without this line). `_G` in it is the live table.
local _ENV = pristine or _G
-- The whole debug library (the third argument): under --sandbox the test sees only part of it.
local debug = select(3, ...) or debug
local T = select(6, ...)
local G = _G
local luassert, spy, stub, mock, match = table.unpack(T.luassert_modules)
T.luassert_modules = nil

-- busted.bindfenv: luassert's failures raise through `fail`, so they count as failures, not errors.
local getupvalue, setupvalue, upvaluejoin = debug.getupvalue, debug.setupvalue, debug.upvaluejoin
local function env_slot(f)
  local up = 0
  repeat
    up = up + 1
    local name = getupvalue(f, up)
    if name == "_ENV" then return up end
  until name == nil
end
local function bindfenv(callable, var, value)
  local f = (debug.getmetatable(callable) or {}).__call or callable
  local up = env_slot(f)
  if not up then return end
  local _, outer = getupvalue(f, up)
  local env = setmetatable({ [var] = value }, { __index = outer or G })
  local holder = env
  upvaluejoin(f, up, function() return holder end, 1)
  setupvalue(f, up, env)
end
if getupvalue and setupvalue and upvaluejoin then
  bindfenv(luassert, "error", T.fail)
  bindfenv(luassert.is_true, "error", T.fail)
end

-- Component and controller classes are userdata, and luassert's stub and mock take tables: a
-- class goes to them as a stand-in whose reads and writes are the class's (a spy or stub
-- written there becomes the method sends call). mock(Class) spies on (stubs) each method.
local pack, unpack = table.pack, table.unpack
local class_methods = T.class_methods
T.class_methods = nil
local function methods_of(object)
  local names = pack(class_methods(object))
  if not names[1] then return nil end
  return { unpack(names, 2, names.n) }
end
local function stand_in(object)
  if type(object) ~= "userdata" or not methods_of(object) then return object end
  return setmetatable({}, { __index = object, __newindex = object })
end
local stub_new, mock_new, mock_revert, mock_clear = stub.new, mock.new, mock.revert, mock.clear
function stub.new(object, ...) return stub_new(stand_in(object), ...) end
function mock.new(object, dostub, func, ...)
  local names = type(object) == "userdata" and methods_of(object)
  if not names then return mock_new(object, dostub, func, ...) end
  local proxy = stand_in(object)
  for _, name in ipairs(names) do
    if dostub then stub_new(proxy, name, func) else spy.on(proxy, name) end
  end
  return object
end
local function each_spy(action, fallback)
  return function(object)
    local names = type(object) == "userdata" and methods_of(object)
    if not names then return fallback(object) end
    for _, name in ipairs(names) do
      local s = object[name]
      if spy.is_spy(s) then s[action](s) end
    end
    return object
  end
end
mock.revert, mock.clear = each_spy("revert", mock_revert), each_spy("clear", mock_clear)

-- Spec code sees these through its environment (language.lua); modules keep Lua's own assert.
local exports = T.exports
exports.assert, exports.spy, exports.stub, exports.mock, exports.match = luassert, spy, stub, mock, match

-- `require "busted"`: busted's API table, as a spec file sees it.
local api = T.api
api.assert, api.spy, api.stub, api.mock, api.match = luassert, spy, stub, mock, match
api.fail = T.fail
api.version = "2.1.1"
-- busted's clock functions are luasystem's (Debian's lua-system), loaded when first called;
-- without it (or under --sandbox) os.time, the runner's clock and a busy wait stand in.
local system -- luasystem, false once it did not load
local function system_function(name, fallback)
  return function(...)
    if system == nil then
      local ok, loaded = pcall(require, "system")
      system = ok and type(loaded) == "table" and loaded or false
    end
    return (system and system[name] or fallback)(...)
  end
end
local function clock() return (T.clock or os.clock)() end
api.gettime = system_function("gettime", os.time)
api.monotime = system_function("monotime", clock)
api.sleep = system_function("sleep", function(seconds)
  local deadline = clock() + (tonumber(seconds) or 0)
  repeat until clock() >= deadline
end)
-- Under --sandbox the spec code does not get a function that sets upvalues.
api.bindfenv = rawequal(debug, G.debug) and bindfenv or function() end
api.parent = function(el) return el and el.parent end
api.children = function(el) return el and el.children or {} end
package.loaded.busted = setmetatable({}, {
  __index = api,
  __newindex = function() error("Attempt to modify busted") end,
})
-- A spec file that calls require "busted.runner"() to run standalone is already running.
package.preload["busted.runner"] = function() return function() end end

local util, astate = require "luassert.util", require "luassert.state"
-- luassert's util.errorlevel in C (ckframes.c): the same levels without a debug.getinfo table
-- per frame (a third of an assert.are.equal's instructions went to those tables).
util.errorlevel = select(5, ...)

-- ck's props and state views (read-only values that read through to a table) compare and print by their
-- contents: luassert walks tables with `next`, which does not see through a view.
local deepcompare, getmetatable, pairs = util.deepcompare, getmetatable, pairs
local function contents(v)
  local kind = getmetatable(v)
  if kind ~= "read-only props" and kind ~= "read-only state" then return nil end
  local copy = {}
  for k, x in pairs(v) do copy[k] = x end
  return copy
end
function util.deepcompare(t1, t2, ...)
  return deepcompare(contents(t1) or t1, contents(t2) or t2, ...)
end
-- assert.same compares tables only when both are tables (a view is not): a view given to it is
-- compared by its contents, and shown as itself when the assertion fails.
local same = require("luassert.namespaces").assertion.same
local same_callback = same.callback
same.callback = function(state, arguments, level)
  local a, b = contents(arguments[1]), contents(arguments[2])
  if not (a or b) then return same_callback(state, arguments, (level or 1) + 1) end
  a, b = a or arguments[1], b or arguments[2]
  local result = type(a) == "table" and type(b) == "table" and util.deepcompare(a, b, true)
  util.tinsert(arguments, 1, util.tremove(arguments, 2))
  if arguments[3] ~= nil then state.failure_message = arguments[3] end
  return result
end
-- match.same (the matcher form, in called_with and returned_with) compares a view by its
-- contents too, on either side.
local same_matcher = require("luassert.namespaces").matcher.same
local same_matcher_callback = same_matcher.callback
same_matcher.callback = function(state, arguments, level)
  local expected = arguments[1]
  local matches = same_matcher_callback(state, arguments, (level or 1) + 1)
  if not contents(expected) then return function(value) return matches(contents(value) or value) end end
  return function(value)
    local a, b = contents(value) or value, contents(expected)
    return type(a) == "table" and util.deepcompare(a, b, true) or rawequal(value, expected)
  end
end
-- A table holding a view anywhere inside it is shown with each view as a copy of its contents:
-- luassert prints a nested userdata by its tostring, an address that differs every run.
local function holds_view(t, seen)
  if seen[t] then return false end
  seen[t] = true
  for _, x in next, t do
    if contents(x) or (type(x) == "table" and holds_view(x, seen)) then return true end
  end
  return false
end
local function see_through(v, copies)
  if copies[v] then return copies[v] end
  local source = contents(v) or v
  if type(source) ~= "table" then return v end
  local copy = {}
  copies[v] = copy
  for k, x in next, source do copy[k] = see_through(x, copies) end
  return copy
end
luassert:add_formatter(function(v, fmtargs)
  local copy = contents(v)
  if not copy and type(v) == "table" and holds_view(v, {}) then
    return astate.format_argument(see_through(v, {}), nil, fmtargs)
  end
  local text = copy and astate.format_argument(see_through(copy, {}), nil, fmtargs)
  return text and string.gsub(text, "^%(table[^)]*%) ", "(" .. getmetatable(v) .. ") ", 1)
end)

-- ckrun's errors read "[id] file:line: what". luassert's error assertions drop everything up
-- to the first "file:line: ", which would drop the id too: for those errors the id is moved
-- after the location first, so `assert.error_matches(f, "^%[badArgument%]")` works. Other
-- errors reach luassert unchanged.
local namespaces = require "luassert.namespaces"
local function keep_id(f)
  return function(...)
    local results = pack(pcall(f, ...))
    if results[1] then return unpack(results, 2, results.n) end
    local err = results[2]
    if type(err) == "string" then
      local id, location, rest = string.match(err, "^(%[%a+%]) ([^\n]-:%d+: )(.*)$")
      if id then err = location .. id .. " " .. rest
      -- No location on the id's line: a location there keeps luassert from dropping the
      -- id's line up to one further down (a build error's own "file:line: ").
      elseif string.find(err, "^%[%a+%] ") then err = "(ckrun test):0: " .. err end
    end
    error(err, 0)
  end
end
for _, name in ipairs({ "error", "errors", "has_error", "error_matches", "error_match", "matches_error" }) do
  local assertion = namespaces.assertion[name]
  if assertion then
    local callback = assertion.callback
    assertion.callback = function(state, arguments, level)
      local f = arguments[1]
      if type(f) == "function" then arguments[1] = keep_id(f) end
      return callback(state, arguments, level)
    end
  end
end

-- assert.tree_snapshot(host [, name]): compares `host:dump()` (or a string) with the test's
-- entry in __snapshots__/<file>.snap beside the test file. The first run, or a run with
-- --update-snapshots, writes the entry; later runs fail with a line diff when the tree changed.
-- The file: "== <key>" then the text, each text line starting "==" or "\" escaped with "\". A
-- key is one line: its "\", line feeds and carriage returns are written "\\", "\n" and "\r" (a
-- name with a line break must find its entry again, not start a new one each run).
-- Lines before the first entry (a note, a merge marker) are kept as they are and written back
-- first: a rewrite loses no line of the file.
local snapshot = { entries = nil, order = {}, changed = {}, counts = {}, owners = {}, preamble = {} }
local key_escapes, key_unescapes = { ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r" }, { ["\\"] = "\\", n = "\n", r = "\r" }
-- The run's settings, held here (the runner's table drops them when the file starts).
local runner_opts = T.opts
-- The file is read and written by the runner in Swift (SnapshotFiles): from the directory the
-- run started in, under --sandbox too, locked and merged, never through a test's io.
local snapshot_read, snapshot_lock, snapshot_replace, snapshot_unlock = T.snapshot_read, T.snapshot_lock, T.snapshot_replace, T.snapshot_unlock
local gsub, sfind, gmatch, concat, pcall_, error_ = string.gsub, string.find, string.gmatch, table.concat, pcall, error
local tostring_ = tostring
local function escape_key(key) return (gsub(key, "[\\\n\r]", key_escapes)) end
local function unescape_key(text) return (gsub(text, "\\(.)", function(c) return key_unescapes[c] or "\\" .. c end)) end
local function snapshot_path()
  local dir, base = string.match(T.file, "^(.-)([^/]+)$")
  return dir .. "__snapshots__/" .. string.gsub(base, "%.lua$", "") .. ".snap", dir .. "__snapshots__"
end
-- The file's text as its preamble (lines before the first entry), its keys in order, and their texts.
local function parse_snapshots(text)
  local parsed = { preamble = {}, order = {}, entries = {} }
  if not text then return parsed end
  if text ~= "" and not sfind(text, "\n$") then text = text .. "\n" end
  local key, lines
  for line in gmatch(text, "(.-)\n") do
    local name = string.match(line, "^== (.*)$")
    if name then
      name = unescape_key(name)
      if key then parsed.entries[key] = concat(lines, "\n") end
      key, lines = name, {}
      parsed.order[#parsed.order + 1] = name
    elseif key then
      lines[#lines + 1] = gsub(line, "^\\", "")
    else
      parsed.preamble[#parsed.preamble + 1] = line
    end
  end
  if key then parsed.entries[key] = concat(lines, "\n") end
  return parsed
end
local function serialize_snapshots(parsed)
  local out = {}
  for _, line in ipairs(parsed.preamble) do out[#out + 1] = line .. "\n" end
  for _, key in ipairs(parsed.order) do
    out[#out + 1] = "== " .. escape_key(key) .. "\n"
    for line in gmatch(parsed.entries[key] .. "\n", "(.-)\n") do
      if sfind(line, "^==") or sfind(line, "^\\") then line = "\\" .. line end
      out[#out + 1] = line .. "\n"
    end
  end
  return concat(out)
end
local function read_snapshots()
  if snapshot.entries then return snapshot.entries end
  T.note_loaded((snapshot_path()))   -- a hand-edited snapshot re-runs its file under --watch
  local parsed = parse_snapshots(snapshot_read((snapshot_path())))
  snapshot.entries, snapshot.order, snapshot.preamble = parsed.entries, parsed.order, parsed.preamble
  return snapshot.entries
end
-- A state shared by several files (auto-insulate = false) starts each file's snapshots afresh.
function T.reset_snapshots()
  snapshot.entries, snapshot.order, snapshot.changed, snapshot.counts, snapshot.owners = nil, {}, {}, {}, {}
end
-- Where the file's tests named `name` are (`file:line`), walking the tests declared so far: two
-- share the automatic keys `<name> #<n>`, numbered in the order they run, which --shuffle
-- changes (atk-safety4 04). --filter, --tags and --shard read full names: they keep both or neither.
local function same_named_tests(name)
  local places = {}
  local stack = { T.file_root }
  while stack[1] do
    local el = stack[#stack]
    stack[#stack] = nil
    local children = el and el.children
    if children then
      for i = #children, 1, -1 do stack[#stack + 1] = children[i] end
    elseif el and el.descriptor == "it" and T.full_name(el) == name then
      places[#places + 1] = { tostring(el.source or T.file), tonumber(el.line) or 0 }
    end
  end
  -- In the file's order, whatever order --shuffle put the blocks in.
  table.sort(places, function(a, b) if a[1] ~= b[1] then return a[1] < b[1] end return a[2] < b[2] end)
  for i, place in ipairs(places) do places[i] = place[1] .. ":" .. place[2] end
  return places
end

local function refuse_same_named(name, places, where)
  error(string.format("[badArgument] %s%d tests are named %q (%s): their snapshots' automatic keys (\"%s #1\", …) "
    .. "would follow the order they run (--shuffle swaps them), so none is compared or recorded; rename one, "
    .. "or name each snapshot (assert.tree_snapshot(host, \"name\"))", where, #places, name,
    table.concat(places, ", "), name), 0)
end

-- The entries this file recorded or updated, merged into the file as it is now (another run
-- may have written it since it was read), under the directory's lock; the file is replaced
-- only when written whole. Lines before the first entry are kept as they are.
function T.write_snapshots()
  -- A test named like one declared after its snapshot was taken (in a later block) records
  -- nothing: its entries would depend on the order the two ran.
  local kept, dropped = {}, nil
  for _, key in ipairs(snapshot.changed) do
    local owner = snapshot.owners[key]
    local places = owner and not owner.explicit and same_named_tests(owner.test)
    if places and #places > 1 then dropped = dropped or { owner.test, places } else kept[#kept + 1] = key end
  end
  snapshot.changed = kept
  if dropped then
    local ok, err = pcall(T.write_snapshots)
    if not ok then error(err, 0) end
    refuse_same_named(dropped[1], dropped[2], "")
  end
  if not snapshot.changed[1] then return end
  local path, dir = snapshot_path()
  local function cannot(why)
    error_("[cannotWrite] cannot write the snapshot file " .. path .. ": " .. tostring_(why) .. "; run again once that is fixed (the file is left as it was)", 0)
  end
  local locked, why = snapshot_lock(dir)
  if not locked then cannot(why) end
  local ok, err = pcall_(function()
    local now = parse_snapshots(snapshot_read(path))
    for _, key in ipairs(snapshot.changed) do
      if now.entries[key] == nil then now.order[#now.order + 1] = key end
      now.entries[key] = snapshot.entries[key]
    end
    local written, reason = snapshot_replace(path, serialize_snapshots(now))
    if not written then cannot(reason) end
  end)
  snapshot_unlock()
  if not ok then error_(err, 0) end
end
-- The snapshot diff: the shortest edit script between the snapshot's lines and the current
-- ones (Myers' O((n+m)·D) search, after setting the common head and tail aside, so one inserted
-- line is one `+`). A change prints its `-` lines then its `+` lines; up to DIFF_CONTEXT
-- unchanged lines are shown around each change, and "..." stands for the others.
local DIFF_CONTEXT = 2
-- Past this many edits the search's saved rounds (O(D²)) grow large, and the diff is past
-- reading line by line anyway: the differing middle is then shown as all removed, all added.
local DIFF_MAX_EDITS = 1000

local function split_lines(text)
  local lines = {}
  for l in string.gmatch(text .. "\n", "(.-)\n") do lines[#lines + 1] = l end
  return lines
end

-- The lines of both texts; a final newline both share is not a line of its own.
local function diff_lines(old, new)
  local a, b = split_lines(old), split_lines(new)
  if a[#a] == "" and b[#b] == "" and #a > 1 and #b > 1 then a[#a], b[#b] = nil, nil end
  return a, b
end

-- Whether diagonal k of round d is reached from diagonal k + 1 (a step down: an insertion)
-- rather than from k - 1 (a step right: a deletion).
local function from_above(v, k, d) return k == -d or (k ~= d and v[k - 1] < v[k + 1]) end

-- Myers' forward search over a[lo+1 .. lo+n] and b[lo+1 .. lo+m]: the furthest x reached on
-- each diagonal k = x - y, saved before each round d for the walk back. Returns the saved
-- rounds and the number of edits, or nil past DIFF_MAX_EDITS.
local function myers_rounds(a, b, lo, n, m)
  local v, rounds = { [1] = 0 }, {}
  for d = 0, math.min(n + m, DIFF_MAX_EDITS) do
    local saved = {}
    for k = -d - 1, d + 1 do saved[k] = v[k] end
    rounds[d] = saved
    for k = -d, d, 2 do
      local x = from_above(v, k, d) and v[k + 1] or v[k - 1] + 1
      local y = x - k
      while x < n and y < m and a[lo + x + 1] == b[lo + y + 1] do x, y = x + 1, y + 1 end
      v[k] = x
      if x >= n and y >= m then return rounds, d end
    end
  end
  return nil
end

-- Walks the saved rounds back from (n, m): the edit script, last operation first.
local function myers_walk_back(a, b, lo, n, m, rounds, edits)
  local reversed, x, y = {}, n, m
  for d = edits, 0, -1 do
    local v, k = rounds[d], x - y
    local prev_k = from_above(v, k, d) and k + 1 or k - 1
    local prev_x = v[prev_k]
    local prev_y = prev_x - prev_k
    while x > prev_x and y > prev_y do
      reversed[#reversed + 1] = { " ", a[lo + x] }
      x, y = x - 1, y - 1
    end
    if d > 0 then
      reversed[#reversed + 1] = x == prev_x and { "+", b[lo + y] } or { "-", a[lo + x] }
    end
    x, y = prev_x, prev_y
  end
  return reversed
end

-- The edit script of the lines between the common head (lo lines) and tail.
local function middle_ops(a, b, lo, n, m, ops)
  local rounds, edits = myers_rounds(a, b, lo, n, m)
  if not rounds then
    for i = 1, n do ops[#ops + 1] = { "-", a[lo + i] } end
    for i = 1, m do ops[#ops + 1] = { "+", b[lo + i] } end
    return
  end
  local reversed = myers_walk_back(a, b, lo, n, m, rounds, edits)
  for i = #reversed, 1, -1 do ops[#ops + 1] = reversed[i] end
end

-- Each run of changes as its removed lines, then its added lines.
local function group_changes(ops)
  local out, removed, added = {}, {}, {}
  local function flush()
    table.move(removed, 1, #removed, #out + 1, out)
    table.move(added, 1, #added, #out + 1, out)
    removed, added = {}, {}
  end
  for _, op in ipairs(ops) do
    if op[1] == "-" then removed[#removed + 1] = op
    elseif op[1] == "+" then added[#added + 1] = op
    else flush(); out[#out + 1] = op end
  end
  flush()
  return out
end

-- `op` lines: "  " unchanged, "- " snapshot, "+ " now; an unchanged line further than
-- DIFF_CONTEXT from every change is left out, a run of them shown as "..." (a run of one
-- line is shown: it is no longer than its "...").
local function render_ops(ops)
  local shown = { [0] = true, [#ops + 1] = true }
  local function show_around(i)
    for j = math.max(i - DIFF_CONTEXT, 1), math.min(i + DIFF_CONTEXT, #ops) do shown[j] = true end
  end
  for i, op in ipairs(ops) do
    if op[1] ~= " " then show_around(i) end
  end
  local out = {}
  for i, op in ipairs(ops) do
    if shown[i] or (shown[i - 1] and shown[i + 1]) then
      out[#out + 1] = op[1] .. " " .. op[2]
    elseif shown[i - 1] then
      out[#out + 1] = "..."
    end
  end
  return table.concat(out, "\n")
end

local function line_diff(old, new)
  local a, b = diff_lines(old, new)
  local head, tail = 0, 0
  while head < #a and head < #b and a[head + 1] == b[head + 1] do head = head + 1 end
  while tail < #a - head and tail < #b - head and a[#a - tail] == b[#b - tail] do tail = tail + 1 end
  local ops = {}
  for i = 1, head do ops[#ops + 1] = { " ", a[i] } end
  middle_ops(a, b, head, #a - head - tail, #b - head - tail, ops)
  for i = #a - tail + 1, #a do ops[#ops + 1] = { " ", a[i] } end
  return render_ops(group_changes(ops))
end
-- "file:line: " of the spec's line: the first frame past luassert's and the runner's own.
local function spec_line()
  local level, where = 2, nil
  repeat
    where = debug.getinfo(level, "Sl")
    level = level + 1
  until not where or (where.currentline > 0 and not string.find(where.source, "luassert", 1, true)
    and string.sub(where.source, 1, 12) ~= "=(ckrun test")
  return where and (where.short_src .. ":" .. where.currentline .. ": ") or ""
end

-- A key is an explicit name or a test's automatic "<test> #<n>", never both: a name equal to
-- another test's automatic key shared its entry, each test failing against the other's tree
-- (atk-safety3 03). Raises naming both tests.
local function claim_key(key, test, explicit)
  local owner = snapshot.owners[key]
  if owner == nil then
    snapshot.owners[key] = { test = test, explicit = explicit }
  elseif owner.explicit ~= explicit then
    local named, automatic = test, owner.test
    if not explicit then named, automatic = owner.test, test end
    error(string.format("[badArgument] %sthe snapshot name %q (test %q) is also the automatic key of test %q's snapshot; "
      .. "give it a name not of the form \"<test name> #<n>\"", spec_line(), key, named, automatic), 0)
  end
end

luassert:register("assertion", "tree_snapshot", function(state, arguments)
  local subject = arguments[1]
  local ok, text = true, subject
  if type(subject) ~= "string" then ok, text = pcall(function() return subject:dump() end) end
  if not ok or type(text) ~= "string" then
    local at = spec_line()
    error("[badArgument] " .. at .. "assert.tree_snapshot takes a host (its :dump() is compared) or a string, got "
      .. (type(subject) == "userdata" and tostring(subject) or type(subject)), 0)
  end
  local test = T.current_test_name and T.current_test_name() or "?"
  local count = (snapshot.counts[test] or 0) + 1
  snapshot.counts[test] = count
  local explicit = arguments[2] ~= nil
  if not explicit then
    local places = same_named_tests(test)
    if #places > 1 then refuse_same_named(test, places, spec_line()) end
  end
  local key = explicit and tostring(arguments[2]) or (test .. " #" .. count)
  claim_key(key, test, explicit)
  local entries = read_snapshots()
  local old = entries[key]
  if old == nil or (runner_opts.update_snapshots and old ~= text) then
    if old == nil then snapshot.order[#snapshot.order + 1] = key end
    entries[key] = text
    snapshot.changed[#snapshot.changed + 1] = key
    return true
  end
  if old == text then return true end
  arguments[1] = "\n" .. line_diff(old, text) .. "\n(- snapshot, + now; run with --update-snapshots to accept)"
  arguments.n = 1
  arguments.nofmt = { true }
  return false
end, "assertion.tree_snapshot.positive", "assertion.tree_snapshot.negative")
require("say"):set("assertion.tree_snapshot.positive", "Expected the tree to match its snapshot:%s")
require("say"):set("assertion.tree_snapshot.negative", "Expected the tree not to match its snapshot")
