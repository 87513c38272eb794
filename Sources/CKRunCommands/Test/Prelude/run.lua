-- ckrun test: how the runner runs a piece of user code and keeps what it left (busted's
-- core.lua `safe`, `fail`, `pending`), and the element tree the other chunks share.
-- The preludes split busted's spec language by purpose: this chunk (running code, results),
-- events.lua (busted's mediator), order.lua (busted's run order), language.lua (what a spec
-- file calls, its environments and filters), file.lua (a file's run and settings),
-- coverage.lua (--coverage). They share `T` (the sixth argument of each chunk, no global) and
-- `T.S`, the run's mutable state: `ctx` (the element whose function is running), `skip_all`
-- (--fail-fast stopped the run), `own_names` (names a test or hook defines for itself).
local pristine = select(7, ...)
-- Every free name reads the standard library as it was at start (the seventh argument): a spec
-- may set `_G.math = nil` or `string.format = nil` before the runner's code below runs
-- (check-layout refuses a shipped Lua file without this line). `_G` in it is the live table.
local _ENV = pristine or _G
-- The whole debug library (the third argument): under --sandbox the test sees only part of it.
local debug = select(3, ...) or debug
local T = select(6, ...)
local type, select, tostring = type, select, tostring
-- String functions are called as these locals, never as methods: a test may replace string.find
-- or the string metatable's __index, and the runner's own code must not run it.
local find, gsub, match, sub = string.find, string.gsub, string.match, string.sub
local xpcall, pcall, error, setmetatable = xpcall, pcall, error, setmetatable
local dgetmetatable, traceback = debug.getmetatable, debug.traceback
local concat = table.concat

T.opts = { filters = {}, filter_out = {}, tags = {}, exclude_tags = {}, helper_arguments = {}, statements = {}, command_line = {}, timeout = nil }
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

-- busted's pending object shows its message through __tostring, which Lua refuses for anything
-- but a string or number: there pending(), pending({...}) end the test as an error, not pending.
function T.raise_pending(msg)
  local kind = type(msg)
  if kind ~= "string" and kind ~= "number" then
    error("pending inside a test takes a string message (got " .. kind .. "): busted reports '__tostring' must return a string", 2)
  end
  error(setmetatable({ message = msg }, pending_mt))
end

local function errortype(obj)
  local mt = dgetmetatable(obj)
  if mt == failure_mt or mt == failure_mt_nostring then return "failure" end
  if mt == pending_mt then return "pending" end
  return "error"
end

-- Elements that hold no others (tests and hooks) get no `children` table.
local no_children = { it = true, pending = true, before_each = true, after_each = true, lazy_setup = true,
                      lazy_teardown = true, strict_setup = true, strict_teardown = true, finally = true }
T.no_children = no_children

-- The element tree: a file's root, its blocks, tests and hooks.
local function element(descriptor, name, fn, parent, line)
  return { descriptor = descriptor, name = name, run = fn, parent = parent,
           children = not no_children[descriptor] and {} or nil, line = line or 0 }
end
T.element = element
local S = { ctx = nil, skip_all = false, own_names = {}, coverage_hook = nil }
T.S = S

-- The names from the outermost block in, joined by spaces, built in one concat from the names
-- up the chain. A test or hook keeps its own (asked for again as it is reported); of the blocks
-- only the one named last is kept, which its children's names start from: every block keeping
-- its own held text quadratic in the nesting depth.
local last_block, last_block_name
local function full_name(el)
  local full = el.full_name
  if full ~= nil then return full end
  local names, n, at = {}, 0, el
  while true do
    if at == last_block then n = n + 1; names[n] = last_block_name break end
    local name = at.name or at.descriptor
    -- A name that is no string or number (an insulate's table) is shown by its type: never an
    -- error here, where it would stop the runner.
    local kind = type(name)
    n = n + 1; names[n] = kind == "string" and name or kind == "number" and concat({ name }) or "(" .. kind .. ")"
    local parent = at.parent
    if not (parent and parent.descriptor ~= "file") then break end
    at = parent
  end
  for i = 1, n // 2 do names[i], names[n + 1 - i] = names[n + 1 - i], names[i] end
  full = concat(names, " ")
  if el.children then last_block, last_block_name = el, full else el.full_name = full end
  return full
end
T.full_name = full_name

-- user_frame(level, true): short_src, line, what, linedefined, lastlinedefined and source of the
-- first frame from `level` up (getinfo's levels, seen from the caller) outside the runner and
-- luassert: where the user's code is.
local user_frame = select(4, ...)
local handler_line = T.handler_line

-- Runs user code `fn` as `el`, under the per-call time limit. Returns the status
-- (success, failure, pending, error) and, unless success, the message and traceback.
-- `turn` (ckrunner.c) and `keep` are taken when the run starts (T.take_powers), before any of
-- its code runs. Every piece of code runs under a time limit: user code under --timeout and
-- --memory-limit (turn(timeout)), the runner's own between two pieces of it under --timeout
-- and a memory reserve (turn(timeout, true)), so a finalizer that runs there cannot hang the
-- run and a test that leaves its state at the memory limit cannot stop the bookkeeping.
local turn, keep, check_deadline
local function user_turn() turn(opts.timeout) end
local function runner_turn()
  turn(opts.timeout, true)
  -- A limit that expired put its own hook in place of --coverage's line hook: back it goes.
  local coverage_hook = S.coverage_hook
  if coverage_hook and debug.gethook() ~= coverage_hook then debug.sethook(coverage_hook, "l") end
end
T.runner_turn = runner_turn

-- The runner's own powers, in locals only from now on (once per state: the first file's run);
-- its settings too (the table the Swift side holds is found through the registry without
-- --sandbox: no setting changes through it). Returns check_deadline for --coverage's hook.
function T.take_powers()
  if not turn then
    turn, T.turn = T.turn, nil
    keep, T.keep = T.keep, nil
    check_deadline, T.check_deadline = T.check_deadline, nil
    if not T.exposed then T.set, T.opts = nil, nil end
  end
  return check_deadline
end

-- The handler keeps its findings in upvalues: no closure per call. An error object's
-- __tostring (and luassert's formatters) are user code: they run under a limit of their own
-- (the test's may have expired), and one that fails or never returns cannot hold the run.
local h_status, h_message, h_trace, h_src, h_line, h_what, h_defined, h_last, h_source
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
  h_src, h_line, h_what, h_defined, h_last, h_source = user_frame(2, true)
  h_status = errortype(err)
  user_turn()
  local ok, msg = pcall(describe_error, err)
  runner_turn()
  if not ok or type(msg) ~= "string" then
    msg = "an error object (" .. type(err) .. ") whose conversion to text failed: " .. (type(msg) == "string" and msg or type(msg))
  end
  h_message = located(msg)
  -- A handler's error that a send passed on as it was (SPEC §6.3): the report names the handler.
  -- Its traceback is the one taken where the handler raised (this one has none of its frames).
  local line, inner
  if h_status == "error" then
    line, inner = handler_line(msg)
    if line then h_message = line .. "\n" .. h_message end
  end
  -- An error that carries the traceback of where it was raised ([buildFailed], [callbackFailed])
  -- reports that one, without its runner frames, rather than inside its message.
  local at = find(h_message, "\nstack traceback:\n", 1, true)
  if at then
    local carried = sub(h_message, at + 1)
    local again = find(carried, "\nstack traceback:\n", 1, true)
    h_message, inner = sub(h_message, 1, at - 1), inner or (again and sub(carried, 1, again - 1) or carried)
  end
  h_trace = inner or (gsub(traceback("", 2), "^\n", ""))
  return err
end

-- Lua calls no message handler for an error of memory (nor for one raised in the handler): the
-- message of such an error, in the test's words, with the test's line where the limit struck
-- (ckalloc.c notes it), not the runner's.
local function unhandled(err)
  if type(err) ~= "string" then return "an error the runner could not describe (" .. type(err) .. ")" end
  if err == "not enough memory" or find(err, "^%[memoryLimit%] %(ckrun test") then
    local place = T.memory_place and T.memory_place() or ""
    local message = T.memory_message or err
    if place == "" or not find(message, "^%[memoryLimit%] ") then return message end
    return "[memoryLimit] " .. place .. sub(message, 15)
  end
  local where = match(err, "^%[memoryLimit%] ([^\n]-:%d+: )the script used more than its memory limit")
  if where and T.memory_message and find(T.memory_message, "^%[memoryLimit%] ") then
    return "[memoryLimit] " .. where .. sub(T.memory_message, 15)
  end
  return err
end

-- Where each failure that is yet to be recorded was raised (busted's getTrace, -o json's
-- `trace`), by its traceback: "line:linedefined:lastlinedefined:what:kind\0short_src\0source",
-- kind "failure" for luassert's error (busted's trace.message is then its table). A source that
-- is a chunk's text (load("…")) is given as its short_src: a record holds no script's code.
local raised_at = {}
local function note_raised(trace, kind)
  if not (trace and h_line and h_line > 0) then return end
  local source = h_source
  if type(source) ~= "string" or not find(source, "^[@=]") then source = h_src end
  rawset(raised_at, trace, concat({ h_line, ":", h_defined or 0, ":", h_last or 0, ":", tostring(h_what), ":", kind,
                                    "\0", tostring(h_src), "\0", tostring(source) }))
end
function T.forget_raised() for k in pairs(raised_at) do raised_at[k] = nil end end

local function safe(descriptor, fn, el)
  local outer = S.ctx
  S.ctx = el
  h_status, h_message, h_trace, h_src, h_line, h_what, h_defined, h_last, h_source = "success", nil, nil, nil, nil, nil, nil, nil, nil
  T.exit_called = nil
  user_turn()
  local ok, err = xpcall(fn, handler)
  runner_turn()
  S.ctx = outer
  if ok then
    local exited = T.exit_called   -- os.exit called where its error was swallowed (output.lua)
    if exited == nil then return "success" end
    T.exit_called = nil
    return "error", exited, nil
  end
  local status, message, trace = h_status, h_message or unhandled(err), h_trace
  S.error_src, S.error_line = h_src, h_line
  note_raised(trace, status == "failure" and "failure" or "error")
  h_message, h_trace, h_src, h_line, h_what, h_defined, h_last, h_source = nil, nil, nil, nil, nil, nil, nil, nil
  if status == "success" then status = "error" end
  if status == "failure" and descriptor ~= "it" then status = "error" end
  -- busted's safe publishes {status, descriptor} (`failure.it`, `error.before_each`, …) to
  -- subscribers; only once something subscribed, and not for a subscriber's own error.
  if S.subscribed and not S.publishing_status then
    S.publishing_status = true
    T.announce(el.descriptor, el, { status, el.descriptor }, el, el.parent, message, trace)
    S.publishing_status = false
  end
  return status, message, trace
end

-- `el`: the element reported (busted's JSON names it by its own name and descriptor). The
-- result goes at once where no Lua code reaches it (`keep`, ckrunner.c): nothing a later test
-- does can rewrite it. `output` is a test's output buffer, joined there.
local tointeger = math.tointeger
-- The descriptor goes with every result but a test's (reports set errors outside tests apart:
-- JUnit's bare <error>); the element's own name only for busted's JSON.
-- Then the seed that shuffled the element's block (busted's `randomseed`, which its reports
-- print with a failure) and `source`, the file `line` is in when it is not the spec file.
-- `amends`: the result belongs to the test recorded last (ResultRecords: a twelfth field).
local function record(name, line, status, message, trace, output, seconds, el, amends, source)
  local own, descriptor, seed
  if el then
    local parent = el.parent
    seed = parent and parent.randomseed
    -- A file's own error: the seed that shuffled the files (busted's root block's randomseed).
    if not parent and el.descriptor == "file" and opts.shuffle_files then seed = opts.run_seed end
    if seed ~= nil then seed = tostring(seed) end
    source = source or el.source
    descriptor = el.descriptor
    if descriptor == "it" then descriptor = nil end
    if opts.element_names then
      own = el.name or el.descriptor
      if own == name then own = nil end
    end
  end
  local raised = trace and rawget(raised_at, trace)
  if raised then rawset(raised_at, trace, nil) end
  if amends then
    keep(name, tointeger(line) or 0, status, output or "", seconds or 0, message, trace, own, descriptor, seed, source, raised, "amends")
  else
    keep(name, tointeger(line) or 0, status, output or "", seconds or 0, message, trace, own, descriptor, seed, source, raised)
  end
  if opts.fail_fast and (status == "failed" or status == "errored") then S.skip_all = true end
end

local statuses = { success = "passed", failure = "failed", error = "errored", pending = "skipped" }

-- An error outside a test (a hook, a block's body): reported under the element's full name. The
-- file's own is busted's `suite FILE`, at the place the error was raised (safe's, from the
-- stack, never read out of the message's text): a module the file required that raised is that
-- module's line, not the spec file's.
local function outside_error(el, status, message, trace)
  local name, line, source = full_name(el), el.line, nil
  if el.descriptor == "file" then
    name = "suite " .. name
    local file, at = S.error_src, S.error_line
    if file and at and at > 0 then
      line = at
      if file ~= el.name and file ~= T.file_short_src then source = file end
    end
  end
  S.error_src, S.error_line = nil, nil
  record(name, line, statuses[status] == "skipped" and "skipped" or "errored", message, trace, nil, nil, el, nil, source)
end
T.safe, T.record, T.statuses, T.outside_error = safe, record, statuses, outside_error

-- One buffer for every test's output: record hands it on whole, end_test empties it.
local test_output = {}
T.test_output = test_output
function T.begin_test() T.sink = test_output end

function T.end_test()
  T.sink = T.file_output
  T.clear(test_output)
end
