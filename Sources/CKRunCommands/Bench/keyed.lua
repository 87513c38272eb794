-- js-framework-benchmark's keyed operations on a ckrun app, and on a Roact app beside it when
-- `bench_roact_side` can load Roact (roact.lua; `--roact PATH`). Each op starts from its own
-- state (set untimed), is timed from the state change to the end of the build and mount, and
-- is then checked on the mounted views, so no side wins by skipping work. The sides take turns
-- (which goes first alternates per round); each op's figure is the best of the rounds.
-- `counted` ("op name@side") runs that op once on that side, its timed part alone inside
-- lua_resume, for `valgrind --tool=callgrind --toggle-collect=lua_resume` (scripts/bench).
local repeats, quick, roactPath, counted, pristine = ...
-- Every free name reads the standard library as it was at start (the last argument), whatever
-- Roact's code or another chunk left in the globals (check-layout refuses a shipped Lua file
-- without this line); the bench's own globals are read from `_G`.
local _ENV = pristine or _G
local bench_clock = _G.bench_clock
repeats, quick = tonumber(repeats), quick == "quick"

-- Deterministic labels as the benchmark makes them: adjective, colour, noun.
local adjectives = {"pretty", "large", "big", "small", "tall", "short", "long", "handsome", "plain", "quaint",
  "clean", "elegant", "easy", "angry", "crazy", "helpful", "mushy", "odd", "unsightly", "adorable", "important",
  "inexpensive", "cheap", "expensive", "fancy"}
local colours = {"red", "yellow", "blue", "green", "pink", "brown", "purple", "white", "black", "orange"}
local nouns = {"table", "chair", "house", "bbq", "desk", "car", "pony", "cookie", "sandwich", "burger", "pizza",
  "mouse", "keyboard"}
local nextId, seed = 1, 7
local function pick(list)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return list[seed % #list + 1]
end
-- Rows are immutable: an op that changes one makes a new table. `order` is where Roact lays
-- the row out (LayoutOrder); ckrun orders its views by the children list.
local function build(n, firstOrder)
  local rows = {}
  for i = 1, n do
    rows[i] = {id = nextId, label = pick(adjectives) .. " " .. pick(colours) .. " " .. pick(nouns), order = (firstOrder or 0) + i}
    nextId = nextId + 1
  end
  return rows
end
local function copy(rows) local out = {} for i = 1, #rows do out[i] = rows[i] end return out end

-- Each op: the state it starts from, and the state it sets (rows, selected id).
local ops = {
  {name = "create 1,000 rows", from = function() return {}, 0 end, to = function() return build(1000), 0 end},
  {name = "replace all 1,000 rows", from = function() return build(1000), 0 end, to = function() return build(1000), 0 end},
  {name = "partial update (every 10th row)", from = function() return build(1000), 0 end, to = function(rows)
    local out = copy(rows)
    for i = 1, #out, 10 do local r = out[i] out[i] = {id = r.id, label = r.label .. " !!!", order = r.order} end
    return out, 0
  end},
  {name = "select row", from = function() return build(1000), 0 end, to = function(rows) return rows, rows[500].id end},
  {name = "swap rows 2 and 999", from = function() return build(1000), 0 end, to = function(rows)
    local out, a, b = copy(rows), rows[2], rows[999]
    out[2] = {id = b.id, label = b.label, order = a.order}
    out[999] = {id = a.id, label = a.label, order = b.order}
    return out, 0
  end},
  {name = "remove a row", from = function() return build(1000), 0 end, to = function(rows)
    local out = copy(rows)
    table.remove(out, 500)
    return out, 0
  end},
  {name = "create 10,000 rows", from = function() return {}, 0 end, to = function() return build(10000), 0 end},
  {name = "append 1,000 rows to 1,000", from = function() return build(1000), 0 end, to = function(rows)
    local out = copy(rows)
    for _, r in ipairs(build(1000, rows[#rows].order)) do out[#out + 1] = r end
    return out, 0
  end},
  {name = "clear 1,000 rows", from = function() return build(1000), 0 end, to = function() return {}, 0 end},
}
if quick then
  for _, op in ipairs(ops) do if op.name == "create 10,000 rows" then op.skip = true end end
end

-- ckrun's app: a scoped, keyed, pure row with a view, in a list under a table view.
local function ckrunSide()
  local Row = ck.component("KeyedRow", {scope = true, pure = true, view = function(self, p)
    return {class = "UILabel", attributes = {text = p.label, selected = p.selected}}
  end})
  local App = ck.component("KeyedApp", {scope = true, initialState = {rows = {}, selected = 0}, render = function(self, p, s)
    local rows, selected, children = s.rows, s.selected, {}
    for i = 1, #rows do
      local r = rows[i]
      children[i] = Row{key = r.id, label = r.label, selected = r.id == selected}
    end
    return ck.View{class = "UITableView", child = ck.Stack{children = children}}
  end})
  local side, host = {name = "ckrun"}, nil
  function side.mount()
    host = ck.host(function() return App{} end)
    host:mount()
  end
  function side.set(rows, selected) host.root:updateState({rows = rows, selected = selected}, "sync") end
  function side.views()
    local list = {}
    for i, view in ipairs(host.view.subviews[1].subviews) do
      local a = view.attributes
      list[i] = {text = a.text, selected = a.selected}
    end
    return list
  end
  function side.destroy() host:destroy() end
  return side
end

local function check(side, op, rows, selected)
  local views = side.views()
  if #views ~= #rows then
    error(string.format("%s, %s: %d rows mounted, %d expected", side.name, op.name, #views, #rows), 0)
  end
  for i, r in ipairs(rows) do
    local v = views[i]
    if v.text ~= r.label or v.selected ~= (r.id == selected) then
      error(string.format("%s, %s: row %d shows %q%s, expected %q%s", side.name, op.name, i, tostring(v.text),
        v.selected and " (selected)" or "", r.label, r.id == selected and " (selected)" or ""), 0)
    end
  end
end

-- Finalizers free Swift objects that free registry references: collect until nothing shrinks.
-- Then malloc merges the blocks the collections freed, which it would otherwise do at the timed
-- op's first large request (the coroutine's stack growing): 5-14% of a small op's instructions
-- were its predecessor's garbage, on both sides.
local function drain()
  local last
  repeat last = collectgarbage("count"); collectgarbage() until collectgarbage("count") >= last
  _G.bench_settle_heap()
end

-- One timed run of `op` on `side`: CPU seconds from the state change to the mounted result.
local function runOnce(side, op, inCoroutine)
  local fromRows, fromSelected = op.from()
  local rows, selected = op.to(fromRows, fromSelected)
  side.mount()
  side.set(fromRows, fromSelected)
  check(side, op, fromRows, fromSelected)
  drain()
  local t0 = bench_clock()
  if inCoroutine then coroutine.wrap(side.set)(rows, selected) else side.set(rows, selected) end
  local t = bench_clock() - t0
  check(side, op, rows, selected)
  side.destroy()
  return t
end

local sides = {ckrunSide()}
local peerNote
if roactPath ~= "" then
  local roact, why = _G.bench_roact_side(roactPath)
  if roact then sides[2] = roact else peerNote = why end
end
if counted ~= "" then
  local name, sideName = counted:match("^(.*)@(.*)$")
  for _, op in ipairs(ops) do
    for _, side in ipairs(sides) do
      if op.name == name and side.name == sideName then runOnce(side, op, true) return end
    end
  end
  -- A usage error of ckrun's own option: BenchCommand prints it as `ckrun: [usage] …`, status 64.
  local opNames, sideNames = {}, {}
  for _, op in ipairs(ops) do opNames[#opNames + 1] = string.format("%q", op.name) end
  for _, side in ipairs(sides) do sideNames[#sideNames + 1] = side.name end
  error(string.format("--keyed-count takes OP@SIDE, and %q names %s; the ops: %s; the sides: %s%s",
    counted, name and ("no keyed op " .. string.format("%q", name) .. " on a side " .. string.format("%q", sideName)) or "no '@'",
    table.concat(opNames, ", "), table.concat(sideNames, ", "), peerNote and " (" .. peerNote .. ")" or ""), 0)
end
local best = {}
for _, op in ipairs(ops) do best[op] = {} end
for round = 1, repeats do
  for _, op in ipairs(ops) do
    if not op.skip then
      for k = 1, #sides do
        local side = sides[(round + k) % #sides + 1]
        local t = runOnce(side, op)
        if not best[op][side.name] or t < best[op][side.name] then best[op][side.name] = t end
      end
    end
  end
end

local peer = sides[2]
print(string.format("js-framework-benchmark keyed ops, CPU ms, best of %d%s:", repeats,
  peer and ", interleaved with Roact v1.4.2 in this process" or ""))
if peer then
  print("| op | ckrun | Roact | ckrun/Roact |")
  print("|---|---|---|---|")
else
  print("| op | ckrun |")
  print("|---|---|")
end
local logSum, counted, worst = 0, 0, 0
for _, op in ipairs(ops) do
  if not op.skip then
    local c = best[op].ckrun * 1e3
    if peer then
      local r = best[op].Roact * 1e3
      local ratio = c / r
      logSum, counted, worst = logSum + math.log(ratio), counted + 1, math.max(worst, ratio)
      print(string.format("| %s | %.3f | %.3f | %.2f |", op.name, c, r, ratio))
    else
      print(string.format("| %s | %.3f |", op.name, c))
    end
  end
end
if peer then
  print(string.format("geometric mean ckrun/Roact: %.3f; highest: %.2f", math.exp(logSum / counted), worst))
elseif peerNote then
  print("Roact not run: " .. peerNote)
else
  print("Roact not run: give its src/ with --roact PATH (or CKRUN_ROACT)")
end
