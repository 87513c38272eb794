-- A seeded fuzzer for the ck API: random call sequences, generated as Lua source lines so a
-- failure prints a script that reproduces it. Every error must be catalogued ("[id] ...") or
-- the fuzzer's own "fuzz boom"; the runtime's invariants are checked after every step.
-- Runs cycle through hostile environments (hostile.lua): a strict _G, replaced standard
-- functions, metatables on _G and strings, memory at the limit (run it under --memory-limit),
-- coroutines, deep structures, huge/NaN/inf numbers and many arguments; "plain" runs are the
-- original fuzzer. The harness uses only locals captured here, so the environments cannot
-- break it.
-- ckrun [--memory-limit MB] Tests/fuzz/api_fuzz.lua [SEED] [STEPS] [RUNS] [MODE|hostile|all]
-- (MODE: one environment; hostile: every one but plain, in turn; all, the default: every one)
local seed, steps, runs = tonumber(arg[1]) or 1, tonumber(arg[2]) or 400, tonumber(arg[3]) or 1
local only = arg[4]
local hostile = dofile((arg[0]:match("^(.*/)") or "./") .. "hostile.lua")
local pcall, load, tostring, print, setmetatable, ipairs, assert, type, error =
  pcall, load, tostring, print, setmetatable, ipairs, assert, type, error
local find, format, concat, exit, collectgarbage = string.find, string.format, table.concat, os.exit, collectgarbage
local host, after, cancel, stats = ck.host, ck.after, ck.cancel, ck.stats
local function destroy(h) h:destroy() end
local G = _G

local function rng(s)
  local state = s
  return function(n)
    state = (state * 1103515245 + 12345) % 2147483648
    return state % n + 1
  end
end

local values = {"nil", "0", "1.5", "-7", "'x'", "''", "'a\\0b'", "{}", "{1, 2}", "true", "false",
                "function() end", "ck", "string.rep('z', 10000)", "H", "C", "A", "V", "math.huge", "0/0"}
local selectors = {"'tap'", "'save'", "'missing'", "'boom'", "'bump'"}
local types = {"nil", "{'int'}", "{'number', 'string'}", "{'Event'}", "{'any', 'bool'}", "{'Nope'}", "'table'", "{'P'}"}
local queries = {"'Item'", "'Item#1'", "'Root Item'", "'Root > Stack > Item'", "'Button'", "'*'", "'>>'", "''", "'#k2'"}

local function pick(r, t) return t[r(#t)] end

-- CKRUN_FUZZ_SKIP="a|b": leave out generated lines containing a or b (to look past a known crash).
local skip = {}
for word in (os.getenv("CKRUN_FUZZ_SKIP") or ""):gmatch("[^|]+") do skip[#skip + 1] = word end
local function skipped(line)
  for _, word in ipairs(skip) do if find(line, word, 1, true) then return true end end
  return false
end

local step1
local function step(r, mode)
  local line
  repeat line = step1(r, mode) until not skipped(line)
  return line
end

step1 = function(r, mode)
  if mode ~= "plain" and r(3) == 1 then return pick(r, hostile.ops)(r) end
  local v = function() return mode ~= "plain" and r(4) == 1 and pick(r, hostile.values) or pick(r, values) end
  local ops = {
    function() return "H = ck.host(Root, {model = " .. v() .. "})" end,
    function() return "H = ck.host(function(m) return Item{i = " .. v() .. "} end)" end,
    function() return "H:mount()" end,
    function() return "H:unmount()" end,
    function() return "H:update(" .. v() .. ")" end,
    function() return "H:flush()" end,
    function() return "ck.flush()" end,
    function() return "H:appear()" end,
    function() return "H:disappear()" end,
    function() return "if r(20) == 1 then H:destroy() end" end,
    function() return "H:tap(" .. pick(r, queries) .. ")" end,
    function() return "H:controlEvent(" .. pick(r, queries) .. ", 'valueChanged')" end,
    function() return "C = H:find(" .. pick(r, queries) .. ") or C" end,
    function() return "C:updateState(" .. v() .. ", " .. pick(r, {"'sync'", "'async'", "nil", "'bad'"}) .. ")" end,
    function() return "C:updateState(function(s) return (tonumber(s) or 0) + 1 end, 'sync')" end,
    function() return "A = C:action(" .. pick(r, selectors) .. ", " .. pick(r, types) .. ")" end,
    function() return "A = ck.action(" .. pick(r, selectors) .. ", " .. pick(r, types) .. ")" end,
    function() return "A = ck.action(C, " .. pick(r, selectors) .. ", " .. pick(r, types) .. ")" end,
    function() return "A = ck.action(function(s, ...) return ... end, " .. pick(r, types) .. ")" end,
    function() return "A:send(C, " .. v() .. ", " .. v() .. ")" end,
    function() return "A:send(" .. v() .. ")" end,
    function() return "A = A:demoted(" .. pick(r, types) .. ")" end,
    function() return "A = A:withBehavior(" .. pick(r, {"'startAtSender'", "'startAtSenderNextResponder'", "'x'"}) .. ")" end,
    function() return "ck.actionSend(" .. pick(r, selectors) .. ", C, " .. v() .. ")" end,
    function() return "V = ck.responderChain(C)[" .. r(6) .. "] or V" end,
    function() return "ck.nextResponder(" .. v() .. ")" end,
    function() return "ck.targetForAction(C, " .. pick(r, selectors) .. ")" end,
    function() return "ck.trace(function() A:send(C) end)" end,
    function() return "ck.after(" .. r(3) .. ", function() C:updateState(" .. v() .. ") end)" end,
    function() return "ck.advance(" .. r(4) .. ")" end,
    function() return "Item{i = " .. v() .. "}" end,
    function() return "ck.Button{action = A}" end,
    function() return "ck.onControl(A, " .. pick(r, {"'valueChanged'", "{'a', 'b'}", "5"}) .. ")" end,
    function() return "ck.component(" .. pick(r, {"'Item'", "'Other'", "5"}) .. ", {render = function() error('fuzz boom') end})" end,
    function() return "ck.config.unhandledAction = " .. pick(r, {"'error'", "'warn'", "'ignore'", "'loud'"}) end,
    function() return "collectgarbage()" end,
    function() return "H:dump()" end,
    function() return "C.props." .. pick(r, {"i", "x", "key"}) .. " = " .. v() end,
    function() return "for k, x in pairs(C.props) do local _ = #C.props end" end,
    function() return "H = ck.host(function() return Item(C.props) end)" end,
  }
  return pick(r, ops)()
end

local prelude = [[
ck.config.onWarning = function() end
ck.struct("P", {x = "int"})
ck.controller("ItemController", {didMount = function(self) self.n = (self.n or 0) + 1 end,
  save = function(self, sender, a) end})
Item = ck.component("Item", {scope = function(p) return p.i end, initialState = 0,
  render = function(self, p, s) return ck.Button{title = tostring(s), key = "k" .. tostring(p.i), action = self:action("tap")} end,
  tap = function(self) end, bump = function(self) self:updateState(function(n) return (tonumber(n) or 0) + 1 end, "sync") end,
  boom = function() error("fuzz boom") end})
Root = ck.component("Root", {scope = true, render = function(self, p)
  local n = type(p) == "table" and math.type(p[1]) == "integer" and p[1] % 5 or 2
  local c = {} for i = 1, n do c[i] = Item{i = i} end
  return ck.Stack{children = c} end})
H = ck.host(Root)
C = H.root
A = ck.action("tap")
V = H.view
]]

local ck = ck
local function invariants(h)
  if type(h) == "userdata" and not h.isDestroyed and h.isMounted and h.root then
    for _, c in ipairs(h:findAll("*")) do
      assert(c.isMounted, "a component of a mounted host is not mounted: " .. tostring(c))
      if c.view then assert(ck.componentOf(c.view) == c, "view and component disagree") end
    end
  end
end

-- A catalogued error, or one that coroutine.wrap prefixed with the position it was raised at.
local function acceptable(text)
  return find(text, "^%[%a+%]") or find(text, "^[^%s%[]+:%d+: %[%a+%]") or find(text, "fuzz boom", 1, true) or find(text, "attempt to ", 1, true)
    or find(text, "hostile: ", 1, true)
end

local total, failures = 0, 0
local perMode = {}
for run = 0, runs - 1 do
  local s = seed + run
  local r = rng(s)
  local mode = hostile.order[s % #hostile.order + 1]
  if only == "hostile" then mode = hostile.order[s % (#hostile.order - 1) + 2]
  elseif only and only ~= "all" then mode = only end
  local environment = hostile.environments[mode]
  -- The run's hosts are destroyed and its timers cancelled when it ends: a mounted host lives
  -- until destroyed and a timer until it fires (by design), and a timer's closure keeps the run's
  -- whole environment; kept from run to run they made each run slower than the last.
  local hosts, timers = {}, {}
  local fuzz_ck = setmetatable({
    host = function(...)
      local h = host(...)
      hosts[#hosts + 1] = h
      return h
    end,
    after = function(...)
      local id = after(...)
      timers[#timers + 1] = id
      return id
    end,
  }, {__index = ck})
  local env = setmetatable({r = r, ck = fuzz_ck}, {__index = G})
  assert(load(prelude, "=prelude", "t", env))()
  assert(load(hostile.prelude, "=hostile prelude", "t", env))()
  environment.setup(env)
  local script = {}
  for i = 1, steps do
    local line = hostile.wrap(mode, step(r, mode))
    script[#script + 1] = line
    local chunk, compileError = load(line, "=fuzz", "t", env)
    local ok, err = pcall(chunk or error, compileError)
    total = total + 1
    perMode[mode] = (perMode[mode] or 0) + 1
    if not ok then
      local text = tostring(err)
      if not acceptable(text) then
        failures = failures + 1
        environment.teardown(env)
        print(format("seed %d (%s) step %d: uncatalogued error: %s\n  script:\n    %s", s, mode, i, text, concat(script, "\n    ")))
        environment.setup(env)
        break
      end
    end
    local iok, ierr = pcall(invariants, env.H)
    if not iok and not acceptable(tostring(ierr)) then
      failures = failures + 1
      environment.teardown(env)
      print(format("seed %d (%s) step %d: invariant broken: %s\n  script:\n    %s", s, mode, i, tostring(ierr), concat(script, "\n    ")))
      environment.setup(env)
      break
    end
  end
  environment.teardown(env)
  for _, h in ipairs(hosts) do pcall(destroy, h) end
  for _, id in ipairs(timers) do pcall(cancel, id) end
  -- The run's classes are referenced by their own closures through env (Item, Root): emptied,
  -- env no longer closes that loop through the registry, and the run's objects can go.
  for k in next, env do rawset(env, k, nil) end
  env = nil
  collectgarbage()
end
-- Nothing a run made outlives it (its hosts destroyed, timers cancelled, env emptied): what is
-- still referenced after all runs is bounded, however many ran. A leak grows with the runs.
collectgarbage()
collectgarbage()
local left = stats()
if left.handles > 1000 or left.references > 1000 then
  failures = failures + 1
  print(format("leak: after %d runs, %d handles and %d references are still live (each run's objects should go with it)",
    runs, left.handles, left.references))
end
local counts = {}
for _, m in ipairs(hostile.order) do if perMode[m] then counts[#counts + 1] = m .. " " .. perMode[m] end end
print(format("fuzz: %d runs from seed %d, %d calls (%s), %d failures", runs, seed, total, concat(counts, ", "), failures))
exit(failures == 0 and 0 or 1)
