-- A seeded fuzzer for the interactive run: random input lines — Lua (values huge and odd,
-- metamethods that raise, loop or lie, runtime objects), incomplete input, errors, dot commands,
-- timers (some that re-arm themselves), bytes that are not UTF-8 — fed through a pipe to
-- `ckrun repl`, `ckrun repl APP` and `ckrun APP` under --timeout (and some runs --memory-limit,
-- --sandbox, --paused). Invariants checked for each process:
--   1. it exits by itself with status 0 (no signal, no hang: killed after a wall-clock bound);
--   2. nothing on stderr or stdout says it crashed (a trap, an abort, an unprotected Lua error,
--      AddressSanitizer);
--   3. every probe line (after a resync line that ends any incomplete input) prints its number,
--      in order: the session stays in step with its input, whatever came before;
--   4. in an app, the generation the probes print never goes down, and the app stays bound.
-- A failing process's input is kept (its path is printed) so it can be replayed.
-- ckrun Tests/fuzz/repl_fuzz.lua CKRUN [SEED] [PROCESSES] [LINES] [BOUND_SECONDS]
local ckrun = assert(arg[1], "usage: repl_fuzz.lua CKRUN [SEED] [PROCESSES] [LINES] [BOUND_SECONDS]")
local seed, processes, lines = tonumber(arg[2]) or 1, tonumber(arg[3]) or 20, tonumber(arg[4]) or 100
local bound = tonumber(arg[5]) or 120

local function rng(s)
  local state = s
  return function(n)
    state = (state * 1103515245 + 12345) % 2147483648
    return state % n + 1
  end
end

local function pick(r, t) return t[r(#t)] end

local app = [[
local Label = require("fuzzlabel")
ck.controller("RowController", {
  didMount = function(self) self.mounted = (self.mounted or 0) + 1 end,
  bump = function(self) self.component:updateState(function(s) return s + 1 end) end})
local Row = ck.component("Row", {scope = function(p) return p.id end, initialState = 0,
  render = function(self, p, s)
    if s == 13 then error("unlucky row") end
    return ck.Stack{children = {ck.Text{text = Label.text .. p.id .. ":" .. tostring(s)},
      ck.Button{title = "+", action = self:action("bump")}}}
  end})
return ck.component("List", {scope = true, initialState = {n = 3},
  render = function(self, p, s)
    local rows = {}
    for i = 1, math.min(s.n, 20) do rows[i] = Row{id = i, key = "r" .. i} end
    return ck.Stack{children = rows}
  end})
]]

local values = {
  "nil", "true", "0", "-0.0", "1/0", "-1/0", "0/0", "math.maxinteger", "math.mininteger", "2^63", "1e308",
  "''", "'x'", "'a\\0b'", "'\\255\\254'", "'é'", "string.rep('z', 100000)", "string.rep('\\n', 300)",
  "{}", "{1, 2, {3, {4, {5, {6}}}}}", "{n = 1, [true] = 2, [1.5] = 3, [{}] = 4}", "T", "F", "C",
  "coroutine.create(print)", "io.stdout", "print", "ck", "ck.Text", "app", "app and app.root",
  "app and app.root and app.root.state", "ck.action('bump', {'int'})",
  "setmetatable({}, {__tostring = function() return 42 end})",
  "setmetatable({}, {__tostring = function() error('tostring boom') end})",
  "setmetatable({}, {__tostring = function() error(setmetatable({}, {__tostring = function() error('deeper') end})) end})",
  "setmetatable({}, {__name = 7})", "setmetatable({}, {__name = 'Odd\\0Name'})",
  "setmetatable({}, {__index = function(t, k) error('index ' .. tostring(k)) end})",
  "setmetatable({}, {__index = function(t, k) return t end, __len = function() return 3 end})",
  "setmetatable({}, {__len = function() return -1 end})", "setmetatable({}, {__len = function() return 2^53 end})",
  "setmetatable({}, {__len = function() return 'x' end})",
  "setmetatable({}, {__pairs = function(t) return function() error('pairs boom') end, t, nil end})",
  "setmetatable({}, {__pairs = function(t) return next, {1, 2, 3}, nil end})",
  "setmetatable({}, {__metatable = 'locked', __tostring = function() return 'locked' end})",
  "(function() local t = {} t[1] = t t.self = t return t end)()",
}

local statements = {
  function(r) return "T = " .. pick(r, values) end,
  function(r) return "F = function(...) return ... end" end,
  function(r) return "C = (C or 0) + " .. r(100) end,
  function(r) return "error(" .. pick(r, values) .. ")" end,
  function(r) return "error('fuzz boom')" end,
  function(r) return "local t = {} for i = 1, " .. r(5000) .. " do t[i] = i end return #t" end,
  function(r) return "for i = 1, 10 do T = tostring(" .. pick(r, values) .. ") end" end,
  function(r) return "collectgarbage(" .. pick(r, {"'collect'", "'step'", "'count'", "'incremental'", "'generational'"}) .. ")" end,
  function(r) return "ck.after(" .. pick(r, {"0", "0.5", "1", "-1", "1e9", "0/0"}) .. ", function() C = (C or 0) + 1 end)" end,
  function(r) return "ck.after(1, function() error('timer boom') end)" end,
  function(r) return "ck.cancel(" .. r(50) .. ")" end,
  function(r) return "ck.flush()" end,
  function(r) return "ck.advance(" .. pick(r, {"0", "1", "2.5", "-1", "0/0", "1/0"}) .. ")" end,
  function(r) return "H = ck.host(function() return ck.Text{text = tostring(" .. pick(r, values) .. ")} end)" end,
  function(r) return "if app and app.root then app.root:updateState({n = " .. r(25) .. "}" .. pick(r, {"", ", 'sync'", ", 'async'"}) .. ") end" end,
  function(r) return "if app then app:tap('Row#" .. r(5) .. " Button') end" end,
  function(r) return "if app then app:find('" .. pick(r, {"Row", "Row#2", "List > Stack", "Text", ">>", "#", ""}) .. "') end" end,
  function(r) return "if app then local c = app:find('Row#1') if c then c:updateState(13, 'sync') end end" end,
  function(r) return "if app then print(#app:dump()) end" end,
  function(r) return "return " .. pick(r, values) .. ", " .. pick(r, values) end,
  function(r) return "ck.struct('S" .. r(5) .. "', {x = 'int', y = " .. pick(r, {"'number'", "'S1'", "'nope'"}) .. "})" end,
  function(r) return "coroutine.wrap(function() coroutine.yield(1) end)()" end,
  function(r) return "return select('#', table.unpack({}, 1, " .. pick(r, {"10", "200", "1e6"}) .. "))" end,
}

local rare = {
  "while true do end",
  "local s = 'x' while true do s = s .. s end",
  "string.rep('y', 2^40)",
  "local t = {} for i = 1, 1e9 do t[i] = {} end",
  "setmetatable({}, {__tostring = function() while true do end end})",
  "setmetatable({}, {__index = function() while true do end end, __len = function() return 1 end})",
  "ck.after(0, function() local function again() ck.after(0, again) end again() end)",
}

local dots = {
  ".tree", ".help", ".time", ".pause", ".resume", ".trace on", ".trace off", ".trace", ".reload",
  ".tap Row#1 Button", ".tap Nothing", ".tap", ".chain Row#2", ".chain", ".chain >>",
  ".send Row#1 bump 2", ".send Row#1 bump 'x', {}, nil", ".send Row#1", ".send", ".send Row#9 bump",
  ".advance 0", ".advance 1", ".advance 2.5", ".advance -1", ".advance x", ".advance 1e308", ".advance nan",
  ".nosuch", ".", ".. ", ".tree extra words",
}

local incomplete = {
  "function f(", "if true then", "do", "while false do", "repeat", "local t = {", "print(", "x = [[", "x = [=[",
  "--[[", "--[==[", "return 1 +", "for i = 1, 3 do",
}

local function oddBytes(r)
  local out = {}
  for i = 1, r(60) do
    local b = r(256) - 1
    if b == 10 then b = 32 end
    out[i] = string.char(b)
  end
  return table.concat(out)
end

-- One random input line.
local function randomLine(r, withRare)
  local k = r(100)
  if withRare and k == 1 then return pick(r, rare) end
  if k <= 18 then return pick(r, dots) end
  if k <= 26 then return pick(r, incomplete) end
  if k <= 30 then return oddBytes(r) end
  if k <= 32 then return string.rep("x", r(20000)) end
  if k <= 34 then return pick(r, {"", " ", "=", "==", "return", "...", "::x::", "goto x", "end", "]]", "=app"}) end
  if k <= 55 then return "=" .. pick(r, values) end
  return pick(r, statements)(r)
end

-- Ends any incomplete input with a syntax error (closes long strings and comments of level
-- 0-2, then symbols no Lua input can go on from), so the next line starts afresh.
local RESYNC = "]]]=]]==] @"

-- A directory of its own (a name no other tool's clean-up of /tmp/lua_* matches).
local tmp = assert(io.popen("mktemp -d /tmp/ckrun-repl-fuzz.XXXXXX")):read("l")
assert(tmp and tmp ~= "", "mktemp -d failed")
do
  local f = assert(io.open(tmp .. "/app.lua", "w")) f:write(app) f:close()
  f = assert(io.open(tmp .. "/fuzzlabel.lua", "w")) f:write("return {text = 'row '}") f:close()
end

local function shellQuote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function commandFor(r, p)
  local options = {"--timeout", "0.5"}
  if r(4) == 1 then options[#options + 1] = "--memory-limit 64" end
  if r(6) == 1 then options[#options + 1] = "--sandbox" end
  local kind = pick(r, {"repl", "repl app", "app", "app"})
  local words = {}
  if kind == "repl" then words = {"repl"} elseif kind == "repl app" then words = {"repl", tmp .. "/app.lua"}
  else words = {tmp .. "/app.lua"} end
  if kind ~= "repl" and r(5) == 1 then words[#words + 1] = "--paused" end
  return kind, table.concat(options, " ") .. " " .. table.concat(words, " ")
end

local function check(out, err, status, probes, isApp)
  if status ~= 0 then return "exit status " .. tostring(status) end
  for _, text in ipairs({"unprotected Lua error", "Fatal error", "AddressSanitizer", "Segmentation", "panic", "Illegal instruction"}) do
    if out:find(text, 1, true) or err:find(text, 1, true) then return "crash text: " .. text end
  end
  local seen, lastGeneration = 0, 0
  for n, gen in out:gmatch("@probe\t(%d+)\t([^\n]*)") do
    n = tonumber(n)
    if n ~= seen + 1 then return "probe " .. n .. " after probe " .. seen end
    seen = n
    if isApp then
      local g = tonumber(gen)
      if not g then return "probe " .. n .. ": app is " .. gen end
      if g < lastGeneration then return "generation went from " .. lastGeneration .. " to " .. g end
      lastGeneration = g
    end
  end
  if seen ~= probes then return "saw " .. seen .. " of " .. probes .. " probes" end
  if not out:find("@end\n", 1, true) then return "no @end" end
  return nil
end

local r = rng(seed)
local cases, failed = 0, 0
for p = 1, processes do
  local kind, options = commandFor(r, p)
  local isApp = kind ~= "repl"
  local input, probes = {}, 0
  local withRare = r(3) == 1
  for i = 1, lines do
    input[#input + 1] = randomLine(r, withRare)
    cases = cases + 1
    if i % 10 == 0 or i == lines then
      probes = probes + 1
      input[#input + 1] = RESYNC
      input[#input + 1] = 'print("@probe", ' .. probes .. ', app and app.generation)'
    end
  end
  input[#input + 1] = 'print("@end")'
  local base = tmp .. "/p" .. p
  local f = assert(io.open(base .. ".in", "wb")) f:write(table.concat(input, "\n"), "\n") f:close()
  local command = string.format("cd %s && timeout -s KILL %d %s %s < %s > %s 2> %s; echo $?", shellQuote(tmp), bound,
    shellQuote(ckrun), options, shellQuote(base .. ".in"), shellQuote(base .. ".out"), shellQuote(base .. ".err"))
  local pipe = assert(io.popen(command))
  local status = tonumber(pipe:read("a"))
  pipe:close()
  local out = assert(io.open(base .. ".out", "rb")):read("a")
  local err = assert(io.open(base .. ".err", "rb")):read("a")
  local why = check(out, err, status, probes, isApp)
  if why then
    failed = failed + 1
    print(string.format("FAIL process %d (%s): %s; input %s.in, output %s.out/.err", p, options, why, base, base))
  else
    os.remove(base .. ".in") os.remove(base .. ".out") os.remove(base .. ".err")
  end
end
print(string.format("repl fuzz: %d cases in %d processes, %d failed (seed %d)", cases, processes, failed, seed))
if failed == 0 then os.execute("rm -rf " .. shellQuote(tmp)) end
os.exit(failed == 0 and 0 or 1)
