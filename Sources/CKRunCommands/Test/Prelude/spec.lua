-- ckrun test: busted's spec language and its run order, in each test file's fresh state.
-- Mirrors busted 2.1.1 (busted/init.lua, block.lua, core.lua): a block's body runs when the
-- run reaches the block, then its strict setup, its children in order (nested blocks' bodies
-- run only then), its lazy and strict teardowns. A test runs its ancestors' lazy_setup once,
-- before_each outer to inner, the body, `finally`, after_each inner to outer. Filters act
-- when a test or block registers, as busted's do. The Swift side calls `run` once per file.
-- The whole debug library (the third argument): under --sandbox the test sees only part of it.
-- The runner's table (the sixth) is no global: the Swift side hands it to each prelude chunk.
local debug = select(3, ...) or debug
local T = select(6, ...)
local insert, ipairs, pairs, type, select, tostring = table.insert, ipairs, pairs, type, select, tostring
-- String functions are called as these locals, never as methods: a test may replace string.find
-- or the string metatable's __index, and the runner's own code must not run it.
local find, byte, format, gsub, sub = string.find, string.byte, string.format, string.gsub, string.sub
local sort, remove = table.sort, table.remove
local xpcall, pcall, error, setmetatable, rawget, rawset, next = xpcall, pcall, error, setmetatable, rawget, rawset, next
local dgetmetatable, getinfo, traceback = debug.getmetatable, debug.getinfo, debug.traceback
local clock, concat = os.clock, table.concat -- clock: T.clock once run_file starts
local G = _G

T.opts = { filters = {}, filter_out = {}, tags = {}, exclude_tags = {}, helper_arguments = {}, statements = {}, timeout = nil }
local opts = T.opts

-- Failures and pendings are tables with these metatables, as busted's `fail` and `pending` make.
local failure_mt = { __index = {}, __tostring = function(e) return tostring(e.message) end, __type = "failure" }
local failure_mt_nostring = { __index = {}, __type = "failure" }
local pending_mt = { __index = {}, __tostring = function(p) return p.message end, __type = "pending" }

local function has_tostring(o) return type(o) == "string" or (dgetmetatable(o) or {}).__tostring end

function T.fail(msg, level)
  local rawlevel = (type(level) ~= "number" or level <= 0) and level
  level = level or 1
  local _, emsg = pcall(error, msg, rawlevel or level + 2)
  error(setmetatable({ message = emsg }, has_tostring(msg) and failure_mt or failure_mt_nostring), rawlevel or level + 1)
end

function T.raise_pending(msg) error(setmetatable({ message = msg }, pending_mt)) end

local function errortype(obj)
  local mt = dgetmetatable(obj)
  if mt == failure_mt or mt == failure_mt_nostring then return "failure" end
  if mt == pending_mt then return "pending" end
  return "error"
end

-- Elements that hold no others (tests and hooks) get no `children` table.
local no_children = { it = true, pending = true, before_each = true, after_each = true, lazy_setup = true,
                      lazy_teardown = true, strict_setup = true, strict_teardown = true, finally = true }

-- The element tree. `ctx` is the element whose function is running.
local function element(descriptor, name, fn, parent, line)
  return { descriptor = descriptor, name = name, run = fn, parent = parent,
           children = not no_children[descriptor] and {} or nil, line = line or 0 }
end
local root = element("file", nil, nil, nil, 0)
T.root = root
local ctx = root
-- Names a test or hook defines for itself, shadowing its parents' (busted's block.rejectAll and
-- init.lua's `it` put them in the element's env before each run), by descriptor; a test's
-- while its body runs and while its finally runs. Filled in with the environments below.
local own_names, in_test, in_finally = {}, nil, nil
local skip_all = false

-- The names from the outermost block in, joined by spaces (each element keeps its own).
local function full_name(el)
  local full = el.full_name
  if full == nil then
    local parent, name = el.parent, el.name or el.descriptor
    if parent and parent.descriptor ~= "file" then
      full = type(name) == "string" and full_name(parent) .. " " .. name or concat({ full_name(parent), name }, " ")
    else
      full = type(name) == "string" and name or concat({ name })
    end
    el.full_name = full
  end
  return full
end

-- user_frame(level, true): short_src and line of the first frame from `level` up (getinfo's
-- levels, seen from the caller) outside the runner and luassert: where the user's code is.
local user_frame = select(4, ...)

-- Insulation, as busted's context.lua: an insulated block restores globals and package.loaded.
local function save()
  local g = {}
  for k in next, G do g[k] = rawget(G, k) end
  local loaded = {}
  for k, v in pairs(package.loaded) do loaded[k] = v end
  return { gmt = dgetmetatable(G), g = g, loaded = loaded }
end
local function restore(state)
  setmetatable(G, state.gmt)
  for k in next, G do rawset(G, k, state.g[k]) end
  for k, v in next, state.g do if rawget(G, k) == nil then rawset(G, k, v) end end
  for k in pairs(package.loaded) do package.loaded[k] = state.loaded[k] end
end
local states = {}

-- Runs user code `fn` as `el`, under the per-call time limit. Returns the status
-- (success, failure, pending, error) and, unless success, the message and traceback.
-- `turn` (ckrunner.c) and `keep` are taken when the file starts (run_file), before any of its
-- code runs. Every piece of code runs under a time limit: user code under --timeout and
-- --memory-limit (turn(timeout)), the runner's own between two pieces of it under --timeout
-- and a memory reserve (turn(timeout, true)), so a finalizer that runs there cannot hang the
-- run and a test that leaves its state at the memory limit cannot stop the bookkeeping.
local turn, keep, check_deadline, coverage_hook
local function user_turn() turn(opts.timeout) end
local function runner_turn()
  turn(opts.timeout, true)
  -- A limit that expired put its own hook in place of --coverage's line hook: back it goes.
  if coverage_hook and debug.gethook() ~= coverage_hook then debug.sethook(coverage_hook, "l") end
end
-- The handler keeps its findings in upvalues: no closure per call. An error object's
-- __tostring (and luassert's formatters) are user code: they run under a limit of their own
-- (the test's may have expired), and one that fails or never returns cannot hold the run.
local h_status, h_message, h_trace
local function describe_error(err)
  if has_tostring(err) then return tostring(err) end
  if err == nil then return "Nil error" end
  return T.pretty and T.pretty(err) or tostring(err)
end
-- A message as the runner reports it: the memory limit's own words, and where, when it has no place.
local function located(msg)
  if msg == "not enough memory" then msg = T.memory_message or msg end
  if not find(msg, "^[^\n]-:%d+: ") and not find(msg, "^%[%a+%]") then
    local src, line = user_frame(3, true)
    if src then msg = src .. ":" .. line .. ": " .. msg end
  end
  return msg
end
-- The handler runs as the runner (the failing code's memory is still held), but for
-- describe_error, which is user code.
local function handler(err)
  runner_turn()
  h_status = errortype(err)
  user_turn()
  local ok, msg = pcall(describe_error, err)
  runner_turn()
  if not ok or type(msg) ~= "string" then
    msg = "an error object (" .. type(err) .. ") whose conversion to text failed: " .. (type(msg) == "string" and msg or type(msg))
  end
  h_message = located(msg)
  h_trace = (gsub(traceback("", 2), "^\n", ""))
  return err
end

-- Lua calls no message handler for an error of memory (nor for one raised in the handler): the
-- message of such an error. The guarded xpcall (ckguards.c) names the runner's line, not the test's.
local function unhandled(err)
  if type(err) ~= "string" then return "an error the runner could not describe (" .. type(err) .. ")" end
  if err == "not enough memory" or find(err, "^%[memoryLimit%] %(ckrun test") then return T.memory_message or err end
  return err
end

local function safe(descriptor, fn, el)
  local outer = ctx
  ctx = el
  h_status, h_message, h_trace = "success", nil, nil
  user_turn()
  local ok, err = xpcall(fn, handler)
  runner_turn()
  ctx = outer
  if ok then return "success" end
  local status, message, trace = h_status, h_message or unhandled(err), h_trace
  h_message, h_trace = nil, nil
  if status == "success" then status = "error" end
  if status == "failure" and descriptor ~= "it" then status = "error" end
  return status, message, trace
end

-- `el`: the element reported (busted's JSON names it by its own name and descriptor). The
-- result goes at once where no Lua code reaches it (`keep`, ckrunner.c): nothing a later test
-- does can rewrite it. `output` is a test's output buffer, joined there.
local tointeger = math.tointeger
local function record(name, line, status, message, trace, output, seconds, el)
  local own, descriptor
  if opts.element_names and el then
    own, descriptor = el.name or el.descriptor, el.descriptor
    if own == name then own = nil end
    if descriptor == "it" then descriptor = nil end
  end
  keep(name, tointeger(line) or 0, status, output or "", seconds or 0, message, trace, own, descriptor)
  if opts.fail_fast and (status == "failed" or status == "errored") then skip_all = true end
end

local statuses = { success = "passed", failure = "failed", error = "errored", pending = "skipped" }

-- An error outside a test (a hook, a block's body): reported under the element's full name.
local function outside_error(el, status, message, trace)
  record(full_name(el), el.line, statuses[status] == "skipped" and "skipped" or "errored", message, trace, nil, nil, el)
end

-- busted's mediator (mediator_lua, which busted/core.lua hands out), compiled when a file first
-- uses it (most never do; its functions would be loaded into every file's state). Channels are
-- named by lists of names; a publish calls the channel's subscribers in order, then its parent
-- channel's, for as long as each returns a second value; the results are the first values.
-- Only what busted's subscribe/publish/unsubscribe reach is here.
local mediator_source = [==[
local insert, remove, pairs, tostring, tonumber = ...

local function update(sub, options)
  if options then
    sub.fn = options.fn or sub.fn
    sub.options = options.options or sub.options
  end
end

local function new_subscriber(fn, options)
  local sub = { options = options or {}, fn = fn, channel = nil, update = update }
  sub.id = tonumber(tostring(sub):match(":%s*[0xX]*(%x+)"), 16)
  return sub
end

local function new_channel(namespace, parent)
  return { stopped = false, namespace = namespace, callbacks = {}, channels = {}, parent = parent }
end

local function add_subscriber(channel, fn, options)
  local sub = new_subscriber(fn, options)
  local priority = #channel.callbacks + 1
  options = options or {}
  if options.priority and options.priority >= 0 and options.priority < priority then priority = options.priority end
  insert(channel.callbacks, priority, sub)
  return sub
end

local function find_subscriber(channel, id)
  for i = 1, #channel.callbacks do
    if channel.callbacks[i].id == id then return { index = i, value = channel.callbacks[i] } end
  end
  for _, child in pairs(channel.channels) do
    local found = find_subscriber(child, id)
    if found then return found end
  end
end

-- (As mediator_lua: a subscriber found in a sub-channel is removed from this one's list by index.)
local function remove_subscriber(channel, id)
  local found = find_subscriber(channel, id)
  if found and found.value then
    for _, child in pairs(channel.channels) do remove_subscriber(child, id) end
    return remove(channel.callbacks, found.index)
  end
end

local function publish(channel, result, ...)
  for i = 1, #channel.callbacks do
    local sub = channel.callbacks[i]
    if not sub.options.predicate or sub.options.predicate(...) then
      local value, continue = sub.fn(...)
      if value then insert(result, value) end
      if not continue then return result end
    end
  end
  if channel.parent then return publish(channel.parent, result, ...) end
  return result
end

local root = new_channel("root")
local function channel_of(namespace)
  local channel = root
  for i = 1, #namespace do
    local name = namespace[i]
    local child = channel.channels[name]
    if not child then
      child = new_channel(name, channel)
      channel.channels[name] = child
    end
    channel = child
  end
  return channel
end

return {
  subscribe = function(namespace, fn, options) return add_subscriber(channel_of(namespace), fn, options) end,
  publish = function(namespace, ...) return publish(channel_of(namespace), {}, ...) end,
  unsubscribe = function(id, namespace) return remove_subscriber(channel_of(namespace), id) end,
}
]==]
local load = load
local compiled_mediator
local function the_mediator()
  if not compiled_mediator then
    compiled_mediator = load(mediator_source, "=(ckrun test: mediator)", "t")(insert, remove, pairs, tostring, tonumber)
  end
  return compiled_mediator
end
-- The run's events are published once something subscribed (nothing to do per test before).
local subscribed = false
local mediator = {
  publish = function(namespace, ...) return the_mediator().publish(namespace, ...) end,
  unsubscribe = function(id, namespace) return the_mediator().unsubscribe(id, namespace) end,
  subscribe = function(namespace, fn, options)
    subscribed = true
    return the_mediator().subscribe(namespace, fn, options)
  end,
}

-- busted's safe_publish: the run's own events reach subscribers as user code of `el`.
local pack, unpack = table.pack, table.unpack
local function announce(descriptor, el, namespace, ...)
  local args = pack(...)
  return safe(descriptor, function() mediator.publish(namespace, unpack(args, 1, args.n)) end, el)
end
local TEST_START, TEST_END = { "test", "start" }, { "test", "end" }

local function exec(descriptor, el)
  if opts.list then return true end
  local status, message, trace = safe(descriptor, el.run, el)
  if status ~= "success" then outside_error(el, status, message, trace) return false end
  return true
end

local function exec_all_once(descriptor, current)
  if current.parent and not exec_all_once(descriptor, current.parent) then return false end
  local list = current[descriptor]
  if not list then list = {}; current[descriptor] = list end
  if list.success ~= nil then return list.success end
  local success = true
  for i = 1, #list do
    if not exec(descriptor, list[i]) then success = false end
  end
  list.success = success
  return success
end

local none = setmetatable({}, { __newindex = function() error("read-only") end })

local function exec_all(descriptor, current, propagate)
  if propagate and current.parent then
    local success, ancestor = exec_all(descriptor, current.parent, propagate)
    if not success then return success, ancestor end
  end
  local success, list = true, current[descriptor] or none
  for i = 1, #list do
    if skip_all then break end
    if not exec(descriptor, list[i]) then success = nil end
  end
  return success, current
end

local function dexec_all(descriptor, current, propagate)
  local success, list = true, current[descriptor] or none
  for i = 1, #list do
    if not exec(descriptor, list[i]) then success = nil end
  end
  if propagate and current.parent then
    if not dexec_all(descriptor, current.parent, propagate) then success = nil end
  end
  return success
end

local executors = {}

local function execute_children(el)
  for _, child in ipairs(el.children) do
    if skip_all then break end
    local executor = executors[child.descriptor]
    if executor then executor(child) end
  end
end

local function sort_by_name(list)
  sort(list, function(a, b)
    if a.name and b.name then return a.name < b.name end
    return b.name ~= nil
  end)
end

-- busted's block.execute: the block's body, then its setups, children and teardowns.
local function execute_block(el)
  local randomize, seed = opts.randomize, opts.seed
  el.env = { randomize = function(...)
    randomize = (select("#", ...) == 0 or ...)
    if randomize then seed = tonumber(({ ... })[1]) or tonumber(({ ... })[2]) or seed end
  end }
  local status, message, trace = safe(el.descriptor, el.run, el)
  if status ~= "success" then return outside_error(el, status, message, trace) end
  if opts.sort then sort_by_name(el.children)
  elseif randomize then T.shuffle(el.children, seed) end
  if exec_all("strict_setup", el) then execute_children(el) end
  local lazy = el.lazy_setup
  if lazy and lazy.success ~= nil then
    dexec_all("lazy_teardown", el)
    lazy.success = nil
  end
  dexec_all("strict_teardown", el)
end

-- An event of `el` for subscribers; one that fails is an error of `el`.
local function announce_block(el, namespace, ...)
  local status, message, trace = announce(el.descriptor, el, namespace, ...)
  if status == "success" then return true end
  outside_error(el, status, message, trace)
end

-- A file or describe block, between its start and end events (their arguments: `...`), in
-- its insulation.
local function run_block(el, ...)
  local state = el.envmode == "insulate" and save() or false
  insert(states, state)
  local kind = el.descriptor
  if not subscribed or announce_block(el, { kind, "start" }, ...) then execute_block(el) end
  if subscribed then announce_block(el, { kind, "end" }, ...) end
  -- busted's pop_state: an expose block hands what it did to the enclosing insulate's restore.
  state = remove(states)
  if el.envmode == "expose" and states[#states] then states[#states] = save() end
  if state then restore(state) end
end
function executors.describe(el) return run_block(el, el, el.parent) end
function executors.file(el) return run_block(el, el) end

-- A test's body and its finally: the status, and unless success the message and traceback.
-- When both fail, busted records both (each when it is raised, its status the body's): the
-- finally's status, message and traceback follow.
local function run_test(el)
  if opts.list then return "success" end
  local status, message, trace = safe("it", el.run, el)
  if el.finally then
    own_names.it = in_finally
    local s, m, t = safe("finally", el.finally, el)
    own_names.it = in_test
    if s ~= "success" and (status == "failure" or status == "error") then return status, message, trace, s, m, t end
    if status == "success" or (status == "pending" and s ~= "success") then
      status, message, trace = s, m, t
    end
  end
  return status, message, trace
end

-- A test's end event for subscribers; one that fails is an error of the test.
local function announce_end(descriptor, el, status)
  local s, m, t = announce(descriptor, el, TEST_END, el, el.parent, status)
  if s ~= "success" then outside_error(el, s, m, t) end
end

function executors.it(el)
  local parent = el.parent
  if not exec_all_once("lazy_setup", parent) then return end
  local pass, ancestor = exec_all("before_each", parent, true)
  if pass then
    local start = clock()
    T.current = el
    T.begin_test()
    local status, message, trace, finally_status, finally_message, finally_trace
    if subscribed then status, message, trace = announce("test", el, TEST_START, el, parent) end
    if status == nil or status == "success" then
      status, message, trace, finally_status, finally_message, finally_trace = run_test(el)
    end
    if status == "pending" then trace = nil end
    local name, seconds = full_name(el), clock() - start
    record(name, el.line, statuses[status], message, trace, T.test_output, seconds, el)
    if finally_status then record(name, el.line, statuses[finally_status], finally_message, finally_trace, "", 0, el) end
    T.end_test()
    if subscribed then announce_end("test", el, status) end
  end
  dexec_all("after_each", ancestor, true)
end

function executors.pending(el)
  local status, message, trace = "pending", el.message or "pending", nil
  if subscribed then
    local s, m, t = announce("it", el, TEST_START, el, el.parent)
    if s ~= "success" then status, message, trace = s, m, t end
  end
  record(full_name(el), el.line, statuses[status], message, trace, nil, nil, el)
  if subscribed then announce_end("it", el, status) end
end

-- Registration, with busted's filters.
local function has_tag(name, tag) return find(name, "#" .. tag) ~= nil end

-- --shard's key: a hash of the test's full name (FNV-1a, 32 bits), the same in every process
-- whatever order the file registers its tests in (a file may register them from pairs()).
local function name_hash(name)
  local h = 2166136261
  for i = 1, #name do h = ((h ~ byte(name, i)) * 16777619) & 0xffffffff end
  return h
end
-- The full name a block or test registered now would have (full_name's, before it exists).
local function prospective_name(name)
  if ctx.descriptor == "file" then return concat({ name }) end
  return concat({ full_name(ctx), name }, " ")
end

local function rejected(descriptor, name)
  local is_test = descriptor == "it" or descriptor == "pending"
  local is_block = descriptor == "describe"
  if not (is_test or is_block) then return false end
  if #opts.filters == 0 and #opts.filter_out == 0 and #opts.tags == 0 and #opts.exclude_tags == 0
    and not opts.shard_count then
    return false
  end
  local full = prospective_name(name)
  if is_test and #opts.filters > 0 then
    local any = false
    for _, f in ipairs(opts.filters) do if find(full, f) then any = true break end end
    if not any then return true end
  end
  for _, f in ipairs(opts.filter_out) do if find(full, f) then return true end end
  if is_test and #opts.tags > 0 then
    local any = false
    for _, tag in ipairs(opts.tags) do if has_tag(full, tag) then any = true break end end
    if not any then return true end
  end
  for _, tag in ipairs(opts.exclude_tags) do if has_tag(tostring(name), tag) then return true end end
  if is_test and opts.shard_count and (opts.file_index + name_hash(full)) % opts.shard_count ~= opts.shard_index - 1 then
    return true
  end
  return false
end

local hook_kinds = { before_each = true, after_each = true, lazy_setup = true, lazy_teardown = true,
                     strict_setup = true, strict_teardown = true }

local function register(descriptor, alias, envmode, default_fn)
  local function publish(name, f)
    -- Inside a test or hook the names are rejected (lookup). One reached some other way busted
    -- registers under the test or hook, which never runs it: here it is dropped.
    if no_children[ctx.descriptor] then return end
    if skip_all or rejected(descriptor, name) then return end
    local _, line = user_frame(2, true)
    local el = element(descriptor, name, f, ctx, line)
    el.envmode = envmode
    if hook_kinds[descriptor] then
      local list = ctx[descriptor]
      if not list then list = {}; ctx[descriptor] = list end
      list[#list + 1] = el
    else
      local children = ctx.children
      children[#children + 1] = el
    end
  end
  return function(name, fn)
    if not fn and type(name) == "function" then fn, name = name, alias
    elseif not fn then fn = default_fn end
    if fn then publish(name, fn) else return function(f) publish(name, f) end end
  end
end

-- One buffer for every test's output: record hands it on whole, end_test empties it.
local test_output = {}
T.test_output = test_output
function T.begin_test() T.sink = test_output end

function T.end_test()
  T.sink = T.file_output
  for i = #test_output, 1, -1 do test_output[i] = nil end
end

local api = {}
T.api = api
-- The suite's environment (busted's root context): what busted exports lives here, not in _G,
-- so a module the tests require sees Lua's own `assert` and no `describe` or `it`.
local exports = setmetatable({}, { __index = G })
T.exports = exports
local function export(name, fn) api[name] = fn; exports[name] = fn end

-- busted's environments (busted/environment.lua, context.lua): each block (the file, a
-- describe, a test, a hook) has its own `env`, made when first written. Spec code's one _ENV
-- reads from the running block's env, then its parents', the suite's, then _G (busted's `or`
-- chain: a false value reads as the next one out); it writes to the running block's env, a
-- hook's to its block's and an expose's to its grandparent's (busted's `unwrap`).
local suite = { descriptor = "suite", env = exports }

local function parent_of(el) return el.parent or (el ~= suite and suite or nil) end

local setupvalue, getupvalue = debug.setupvalue, debug.getupvalue
local spec_env

-- busted's getfenv(fn): the value of its _ENV upvalue, or _G when it names no global.
local function fenv(fn)
  if type(fn) ~= "function" then return G end
  local up = 1
  repeat
    local name, value = getupvalue(fn, up)
    if name == "_ENV" then return value end
    up = up + 1
  until name == nil
  return G
end

-- Whether busted's rejectAll rejects the block function `name` in a test or hook running `fn`:
-- it asks the function's own environment for the name, so a function naming no global (its
-- environment then taken to be _G) gets only randomize rejected.
local function rejects(fn, name)
  local env = fenv(fn)
  if env == spec_env then return true end
  if env == G or type(env) ~= "table" then return rawget(G, name) ~= nil end
  return env[name]
end

-- busted's block.reject: what a rejected name holds.
local function rejection(name)
  return function() error("'" .. name .. "' not supported inside current context block", 2) end
end
-- Every block function busted registers (busted.executors but the hidden `file`).
local block_rejections = {}
for _, name in ipairs({ "describe", "context", "insulate", "expose", "it", "spec", "test", "pending",
                        "setup", "teardown", "before_each", "after_each", "lazy_setup", "lazy_teardown",
                        "strict_setup", "strict_teardown" }) do
  block_rejections[name] = rejection(name)
end
local in_hook = { randomize = rejection("randomize") }
for kind in pairs(hook_kinds) do own_names[kind] = in_hook end
-- init.lua's `it`: a test's `pending` stops it as pending; `finally(fn)` (only in a test) runs fn
-- after the test body, whatever its outcome (the last one given).
own_names.it = { randomize = in_hook.randomize, pending = T.raise_pending,
                 finally = function(fn) ctx.finally = fn end }
-- While a test's finally runs, its `pending` is rejected (busted's block.reject before it).
in_test, in_finally = own_names.it, { randomize = in_hook.randomize, pending = rejection("pending"),
                                     finally = own_names.it.finally }

local function lookup(_, key)
  local el = ctx
  local env, v = el.env, nil
  if env then v = env[key] if v then return v end end
  local own = own_names[el.descriptor]
  if own then
    v = own[key] if v then return v end
    v = block_rejections[key] if v and rejects(el.run, key) then return v end
  end
  el = el.parent
  while el do
    env = el.env
    if env then v = env[key] if v then return v end end
    el = el.parent
  end
  return exports[key] or G[key]
end

-- How many blocks up a write in `el` lands: busted's unwrap, on hooks and expose blocks.
local function unwrap_levels(el)
  if hook_kinds[el.descriptor] then return 1 end
  if el.envmode == "expose" then return 2 end
end

local function assign(_, key, value)
  local el = ctx
  while true do
    local env = el.env
    local levels = not (env and rawget(env, key) ~= nil) and unwrap_levels(el)
    if not levels then
      if env then env[key] = value else el.env = { [key] = value } end
      return
    end
    for _ = 1, levels do
      el = parent_of(el)
      if not el then G[key] = value return end
    end
  end
end

-- Spec code's _ENV, one for the whole file as busted's: it reads and writes through the
-- running block.
spec_env = setmetatable({}, { __index = lookup, __newindex = assign })

-- Gives `chunk` the spec environment; without the debug library to do it, the exports go to _G.
local function environment_for(chunk)
  if setupvalue and getupvalue and getupvalue(chunk, 1) == "_ENV" then
    setupvalue(chunk, 1, spec_env)
  else
    for k, v in pairs(exports) do rawset(G, k, v) end
  end
end
export("describe", register("describe", nil))
export("context", register("describe", "context"))
export("insulate", register("describe", "insulate", "insulate"))
export("expose", register("describe", "expose", "expose"))
export("it", register("it", nil))
export("spec", register("it", "spec"))
export("test", register("it", "test"))
for _, kind in ipairs({ "before_each", "after_each", "lazy_setup", "lazy_teardown", "strict_setup", "strict_teardown" }) do
  export(kind, register(kind, nil))
end
-- busted's --lazy makes setup and teardown lazy (runner.lua registers them again, as aliases
-- of lazy_setup and lazy_teardown).
local function alias_setup(lazy)
  export("setup", register(lazy and "lazy_setup" or "strict_setup", "setup"))
  export("teardown", register(lazy and "lazy_teardown" or "strict_teardown", "teardown"))
end
alias_setup(false)
local register_pending = register("pending", nil, nil, function() end)
-- pending("name") declares a pending test; inside a running test it stops the test as pending.
export("pending", function(name, ...)
  if ctx.descriptor == "it" then return T.raise_pending(name) end
  return register_pending(name, ...)
end)
api.publish, api.subscribe, api.unsubscribe = mediator.publish, mediator.subscribe, mediator.unsubscribe

-- A piece of the file's set-up (a -e statement, the helper), run as a block of the file; false
-- when it failed (the failure is recorded: the file's tests do not run).
local function set_up(name, fn)
  local el = element("helper", name, fn, root, 0)
  local status, message, trace = safe("helper", el.run, el)
  if status == "success" then return true end
  outside_error(el, status, message, trace)
  return false
end

-- As busted's helper loader: in _G, not in the spec environment (busted runs it with dofile); a
-- `.lua` file is run, another name required; the -Xhelper options are `arg` meanwhile.
local function run_helper()
  local saved_arg = G.arg
  G.arg = opts.helper_arguments
  local ok, err = pcall(function()
    if find(opts.helper, "%.lua$") then assert(loadfile(opts.helper, "t"))() else require(opts.helper) end
  end)
  G.arg = saved_arg
  if not ok then error(err, 0) end
end

-- Runs the file: `chunk` is its loaded main function; `file` its path. Its results are kept as
-- they come (`keep`); it ends in a runner's turn (the Swift side's calls after it run under it).
function T.run_file(chunk, file)
  -- The runner's own powers, in locals only from now on; its settings too (the table the Swift
  -- side holds is found through the registry without --sandbox: no setting changes through it).
  turn, T.turn = T.turn, nil
  keep, T.keep = T.keep, nil
  check_deadline, T.check_deadline = T.check_deadline, nil
  if not T.exposed then T.set, T.opts = nil, nil end
  clock = T.clock or clock
  runner_turn()
  T.file = file
  root.run = chunk
  root.name = file
  environment_for(chunk)
  -- Only --watch needs the files a run loads: a normal run keeps Lua's own dofile and loadfile.
  if opts.record_loads then T.record_loads() end
  if opts.lpath and opts.lpath ~= "" then package.path = opts.lpath .. ";" .. package.path end
  -- Under --sandbox no C module loads: package.cpath stays empty.
  if opts.cpath and opts.cpath ~= "" and rawequal(debug, G.debug) then package.cpath = opts.cpath .. ";" .. package.cpath end
  if opts.coverage then T.start_coverage() end
  -- busted's -e statements, in _G once the paths are set, before the helper (its runner.lua's order).
  for _, statement in ipairs(opts.statements) do
    if not set_up(statement, function() assert(load(statement, statement, "t"))() end) then return end
  end
  if opts.helper and opts.helper ~= "" and not set_up(opts.helper, run_helper) then return end
  executors.file(root)
  if T.write_snapshots then
    local ok, err = pcall(T.write_snapshots)
    runner_turn()
    if not ok then record(T.file, 0, "errored", "[testFailure] cannot write the snapshot file: " .. tostring(err)) end
  end
end

function T.current_test_name() return T.current and full_name(T.current) or "?" end

-- Settings from the Swift side, as strings: lists grow, numbers convert, "true" is true.
local lists = { filters = true, filter_out = true, tags = true, exclude_tags = true, helper_arguments = true, statements = true }
function T.set(key, value)
  if lists[key] then insert(opts[key], value)
  elseif value == "true" then opts[key] = true
  else opts[key] = tonumber(value) or value end
  if key == "lazy" then alias_setup(opts.lazy == true) end
end

-- busted/utils.lua's shuffle, so a seed gives busted's order: it reseeds math.random (without a
-- seed it goes on from math.random's state).
-- (math.random as captured here: the same generator, which a test cannot replace.)
local random, randomseed = math.random, math.randomseed
function T.shuffle(list, seed)
  if seed then randomseed(seed) end
  for n = #list, 2, -1 do
    local k = random(n)
    list[n], list[k] = list[k], list[n]
  end
end

-- Coverage's counts as JSON for the Swift side (chunk names are any bytes: all escaped).
local escapes = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }
local function json_string(s)
  if not find(s, '[%c"\\]') then return '"' .. s .. '"' end
  return '"' .. (gsub(s, '[%c"\\]', function(c) return escapes[c] or format("\\u%04x", byte(c)) end)) .. '"'
end

function T.take_file_output() return T.take(T.file_output) end
function T.seed_random(n) math.randomseed(tonumber(n)) end

-- --coverage: counts the executed lines of the code under test, as luacov does: not the test
-- file itself, not ckrun's preludes or other chunks without a file, not the system's Lua
-- libraries. The time limit needs no hook of its own until it expires (see deadline).
function T.start_coverage()
  local counts, skip = {}, {}
  T.coverage = counts
  local own = "@" .. tostring(T.file)
  local check = check_deadline or function() end
  coverage_hook = function(_, line)
    -- On a coroutine this hook stands in for the time limit's: each line checks it (a loop
    -- makes a line event each time round). Count events would not do: one that falls while
    -- a hook runs is dropped, and a loop's period can drop every one.
    check()
    local source = getinfo(2, "S").source
    local c = counts[source]
    if c == nil then
      if skip[source] then return end
      if byte(source, 1) ~= 64 or find(source, "^@/usr/share/lua/") or source == own then
        skip[source] = true
        return
      end
      c = {}
      counts[source] = c
    end
    c[line] = (c[line] or 0) + 1
  end
  debug.sethook(coverage_hook, "l")
  -- luacov's coroutine wrapper: coroutines made from now on count their lines too (ckwatchdog.c).
  debug.getregistry()["ckrun.on_coroutine"] = function(co) debug.sethook(co, coverage_hook, "l") end
end

function T.coverage_json()
  if not T.coverage then return "{}" end
  debug.sethook()
  local files = {}
  for source, lines in pairs(T.coverage) do
    local parts = {}
    for line, hits in pairs(lines) do parts[#parts + 1] = '"' .. line .. '":' .. hits end
    files[#files + 1] = json_string((gsub(sub(source, 2), "^%./", ""))) .. ":{" .. concat(parts, ",") .. "}"
  end
  return "{" .. concat(files, ",") .. "}"
end
