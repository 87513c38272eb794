-- A seeded fuzzer for the ck API: random call sequences, generated as Lua source lines so a
-- failure prints a script that reproduces it. Every error must be catalogued ("[id] ...") or
-- the fuzzer's own "fuzz boom"; the runtime's invariants are checked after every step.
-- ckrun Tests/fuzz/api_fuzz.lua [SEED] [STEPS] [RUNS]
local seed, steps, runs = tonumber(arg[1]) or 1, tonumber(arg[2]) or 400, tonumber(arg[3]) or 1

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

local function step(r)
  local v = function() return pick(r, values) end
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

local function invariants()
  for _, h in ipairs({H}) do
    if not h.isDestroyed and h.isMounted and h.root then
      for _, c in ipairs(h:findAll("*")) do
        assert(c.isMounted, "a component of a mounted host is not mounted: " .. tostring(c))
        if c.view then assert(ck.componentOf(c.view) == c, "view and component disagree") end
      end
    end
  end
end

local total, failures = 0, 0
for run = 0, runs - 1 do
  local s = seed + run
  local r = rng(s)
  local env = setmetatable({r = r}, {__index = _G})
  assert(load(prelude, "=prelude", "t", env))()
  local script = {}
  for i = 1, steps do
    local line = step(r)
    script[#script + 1] = line
    local chunk = load(line, "=fuzz", "t", env)
    local ok, err = pcall(chunk)
    total = total + 1
    if not ok then
      local text = tostring(err)
      if not (text:find("^%[%a+%]") or text:find("fuzz boom", 1, true) or text:find("attempt to ", 1, true)) then
        failures = failures + 1
        print(("seed %d step %d: uncatalogued error: %s\n  script:\n    %s"):format(s, i, text, table.concat(script, "\n    ")))
        break
      end
    end
    local iok, ierr = pcall(function()
      local saved = H
      H = env.H
      invariants()
      H = saved
    end)
    if not iok then
      failures = failures + 1
      print(("seed %d step %d: invariant broken: %s\n  script:\n    %s"):format(s, i, tostring(ierr), table.concat(script, "\n    ")))
      break
    end
  end
end
print(("fuzz: %d runs from seed %d, %d calls, %d failures"):format(runs, seed, total, failures))
os.exit(failures == 0 and 0 or 1)
