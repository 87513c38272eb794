-- ckrun test: busted 2.1.1's run order (busted/init.lua, block.lua): a block's body runs when the
-- run reaches the block, then its strict setup, its children in order (nested blocks' bodies run
-- only then), its lazy and strict teardowns. A test runs its ancestors' lazy_setup once,
-- before_each outer to inner, the body, `finally`, after_each inner to outer.
local pristine = select(7, ...)
-- Every free name reads the standard library as it was at start (the seventh argument): a spec
-- may set `_G.math = nil` or `string.format = nil` before the runner's code below runs
-- (check-layout refuses a shipped Lua file without this line). `_G` in it is the live table.
local _ENV = pristine or _G
local T = select(6, ...)
local S, opts, safe, record, statuses = T.S, T.opts, T.safe, T.record, T.statuses
local outside_error, full_name, announce, own_names = T.outside_error, T.full_name, T.announce, T.S.own_names
local insert, remove, sort, ipairs, pairs, next, select = table.insert, table.remove, table.sort, ipairs, pairs, next, select
local tonumber, error, setmetatable, rawget, rawset = tonumber, error, setmetatable, rawget, rawset
local dgetmetatable = (select(3, ...) or debug).getmetatable
local G = _G
-- os.clock until the run starts; then the runner's monotonic clock (T.use_clock).
local clock = os.clock
function T.use_clock(c) clock = c or clock end
local TEST_START, TEST_END = { "test", "start" }, { "test", "end" }

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
local function exec(descriptor, el)
  if opts.list then return true end
  local status, message, trace = safe(descriptor, el.run, el)
  if status ~= "success" then outside_error(el, status, message, trace) return false end
  return true
end

-- The timers a block's setups set (and what those re-arm) are the block's: cancelled when it
-- ends, after its teardowns (docs/testing.md). `T.block_timers()`: the newest timer's id.
local block_timers
local setups = { strict_setup = true, lazy_setup = true }
local function exec_setup(descriptor, el, block)
  if opts.list or not block_timers or not setups[descriptor] then return exec(descriptor, el) end
  local after = block_timers()
  local ok = exec(descriptor, el)
  local spans = block.setup_timers or {}
  block.setup_timers = spans
  insert(spans, { after, block_timers() })
  return ok
end
local function end_block_timers(block)
  local spans = block.setup_timers
  if not spans then return end
  block.setup_timers = nil
  for _, span in ipairs(spans) do block_timers(span[1], span[2]) end
end

local function exec_all_once(descriptor, current)
  if current.parent and not exec_all_once(descriptor, current.parent) then return false end
  local list = current[descriptor]
  if not list then list = {}; current[descriptor] = list end
  if list.success ~= nil then return list.success end
  local success = true
  for i = 1, #list do
    if not exec_setup(descriptor, list[i], current) then success = false end
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
    if S.skip_all then break end
    if not exec_setup(descriptor, list[i], current) then success = nil end
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
    if S.skip_all then break end
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

-- busted's context.children(block): its tests and blocks with its hooks where each registered
-- (busted shuffles and sorts them all, so a hook moves the others); `el.children` without hooks.
local function with_hooks(el)
  local slots, children = el.hook_slots, el.children
  if not slots then return children end
  local all, next_child = {}, 1
  for i = 1, #children + el.hook_count do
    local hook = slots[i]
    if hook then all[i] = hook else all[i] = children[next_child]; next_child = next_child + 1 end
  end
  return all
end
local function keep_order_without_hooks(el, all)
  local hooks, children, n = {}, el.children, 0
  for _, hook in pairs(el.hook_slots) do hooks[hook] = true end
  for _, child in ipairs(all) do if not hooks[child] then n = n + 1; children[n] = child end end
end

-- busted's sort or shuffle of a block's children (with its hooks) after its body ran.
local function order_children(el, seed)
  local all = with_hooks(el)
  if opts.sort then sort_by_name(all)
  else
    el.randomseed = seed   -- busted's: its reports print it with each failure of the block's
    T.shuffle(all, seed)
  end
  if all ~= el.children then keep_order_without_hooks(el, all) end
end

-- busted's block.execute: the block's body, then its setups, children and teardowns.
local function execute_block(el)
  S.running_block = el   -- for T.running_place: S.ctx is the file's between two bodies
  -- busted.randomseed: the run's seed (--seed, or drawn when it shuffles), else the file's.
  local randomize, seed = opts.randomize, opts.run_seed or opts.seed
  el.env = { randomize = function(...)
    randomize = (select("#", ...) == 0 or ...)
    if randomize then seed = tonumber(({ ... })[1]) or tonumber(({ ... })[2]) or seed end
  end }
  local status, message, trace = safe(el.descriptor, el.run, el)
  if status ~= "success" then
    S.running_block = el.parent
    return outside_error(el, status, message, trace)
  end
  if opts.sort or randomize then
    -- A seed no integer stands for (randomize(1.5)) or names --sort cannot compare: busted's
    -- error of this block, whose children then do not run; the rest of the file goes on.
    local ordered, problem = pcall(order_children, el, seed)
    if not ordered then
      S.running_block = el.parent
      return outside_error(el, "error", tostring(problem))
    end
  end
  if exec_all("strict_setup", el) then execute_children(el) end
  local lazy = el.lazy_setup
  if lazy and lazy.success ~= nil then
    dexec_all("lazy_teardown", el)
    lazy.success = nil
  end
  dexec_all("strict_teardown", el)
  end_block_timers(el)
  S.running_block = el.parent
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
  if not S.subscribed or announce_block(el, { kind, "start" }, ...) then execute_block(el) end
  if S.subscribed then announce_block(el, { kind, "end" }, ...) end
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
    own_names.it = S.in_finally
    local s, m, t = safe("finally", el.finally, el)
    own_names.it = S.in_test
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

-- Each test starts with the virtual clock at 0; the hosts it made (its before_each hooks
-- too) and did not destroy are destroyed after its after_each hooks, and its timers cancelled
-- (SPEC §9). A failure there is an error of the test.
local begin_isolated, end_isolated
-- Taken with the runner's other powers (file.lua), before any of the file's code runs.
function T.take_isolation()
  if not begin_isolated then
    begin_isolated, end_isolated, T.begin_isolated, T.end_isolated = T.begin_isolated, T.end_isolated, nil, nil
    block_timers, T.block_timers = T.block_timers, nil
  end
end
local function end_test(el)
  local status, message, trace = safe("it", end_isolated, el)
  if status == "success" then return end
  message = message .. "\n(raised while ckrun test destroyed the hosts the test left: destroy them in the test, or see docs/testing.md)"
  record(full_name(el), el.line, "errored", message, trace, "", 0, el, true)   -- one result for the test
end

function executors.it(el)
  local parent = el.parent
  if not exec_all_once("lazy_setup", parent) then return end
  begin_isolated()
  local pass, ancestor = exec_all("before_each", parent, true)
  if pass then
    local start = clock(full_name(el))   -- the name a crash's line gives (ckcrash.c)
    T.current = el
    T.begin_test()
    local status, message, trace, finally_status, finally_message, finally_trace
    if S.subscribed then status, message, trace = announce("test", el, TEST_START, el, parent) end
    if status == nil or status == "success" then
      status, message, trace, finally_status, finally_message, finally_trace = run_test(el)
    end
    if status == "pending" then trace = nil end
    local name, seconds = full_name(el), clock() - start
    record(name, el.line, statuses[status], message, trace, T.test_output, seconds, el)
    if finally_status then record(name, el.line, statuses[finally_status], finally_message, finally_trace, "", 0, el) end
    T.end_test()
    if S.subscribed then announce_end("test", el, status) end
  end
  dexec_all("after_each", ancestor, true)
  end_test(el)
end

function executors.pending(el)
  local status, message, trace = "pending", el.message or "pending", nil
  if S.subscribed then
    local s, m, t = announce("it", el, TEST_START, el, el.parent)
    if s ~= "success" then status, message, trace = s, m, t end
  end
  record(full_name(el), el.line, statuses[status], message, trace, nil, nil, el)
  if S.subscribed then announce_end("it", el, status) end
end
T.executors = executors
