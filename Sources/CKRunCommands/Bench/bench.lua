-- The benchmark figures, in Lua so the baselines run in the same interpreter.
local repeats, mode, only, startup, luaStartup, pristine = ...
-- Every free name reads the standard library as it was at start (the last argument), whatever
-- Roact's code or another chunk left in the globals (check-layout refuses a shipped Lua file
-- without this line); the bench's own globals are read from `_G`.
local _ENV = pristine or _G
local bench_clock, bench_heap = _G.bench_clock, _G.bench_heap
repeats = tonumber(repeats)
local quick = mode == "quick"
local function median(t) table.sort(t) return t[(#t + 1) // 2] end
local function time(n, f)
  collectgarbage()
  local t0 = bench_clock()
  f(n)
  return (bench_clock() - t0) / n
end
local function measure(n, f)
  local samples = {}
  for r = 1, repeats do samples[r] = time(n, f) end
  return median(samples)
end
-- The baseline and the subject taken in turns, so that the machine's drift (its speed moves
-- by tens of percent within a minute) falls on both: the medians, and the median of the
-- ratios of each turn (`per` divides the subject's time, e.g. by hops).
local function measurePair(n, baseline, subject, per)
  local b, s, r = {}, {}, {}
  for i = 1, repeats do
    b[i] = time(n, baseline)
    s[i] = time(n, subject) / (per or 1)
    r[i] = s[i] / b[i]
  end
  return median(s), median(b), median(r)
end
local rows = {}
local function report(name, value, unit, baseline, note, ratio)
  if only ~= "" and not name:find(only, 1, true) then return end
  ratio = ratio or (baseline and value / baseline)
  ratio = ratio and string.format("%.2f×", ratio) or "—"
  rows[#rows + 1] = string.format("| %-44s | %14s | %14s | %8s | %s |", name, string.format("%.3g %s", value, unit),
    baseline and string.format("%.3g %s", baseline, unit) or "—", ratio, note or "")
end
local function ns(s) return s * 1e9 end
-- A figure is measured only if one of its rows is wanted (`--only`).
local function wanted(...)
  if only == "" then return true end
  for _, name in ipairs({...}) do if name:find(only, 1, true) then return true end end
  return false
end
-- Finalizers free Swift objects that free registry references: collect until nothing shrinks.
local function drain()
  local last
  repeat last = collectgarbage("count"); collectgarbage() until collectgarbage("count") >= last
end

-- 1. A scope action send with two typed arguments vs a direct Lua method call doing the same work.
if wanted("scope action send, 2 typed args") then
  local sink = 0
  local Target = ck.component("BenchTarget", {scope = true, hit = function(self, sender, a, b) sink = a + b end})
  local host = ck.host(function() return Target{} end)
  local plain = {hit = function(self, sender, a, b) sink = a + b end}
  local action = host.root:action("hit", {"int", "number"})
  local n = quick and 20000 or 200000
  local send, direct, ratio = measurePair(n, function(n) for i = 1, n do plain:hit(nil, i, 2.0) end end,
    function(n) for i = 1, n do action:send(nil, i, 2.0) end end)
  report("scope action send, 2 typed args", ns(send), "ns", ns(direct), "baseline: plain:hit(sender, a, b)", ratio)
end

-- 2. A selector send walking 50 responders: cost per hop vs the same direct call.
if wanted("selector send, per hop (50 responders)", "selector send, per hop, walking (no plan)") then
  local sink = 0
  local Node
  Node = ck.component("BenchHop", {render = function(self, p) if p.depth > 0 then return Node{depth = p.depth - 1} end end})
  local Chain = ck.component("BenchChain", {hit = function(self, sender, a) sink = a end,
    render = function() return Node{depth = 48} end})
  local host = ck.host(function() return Chain{} end)
  host:mount()
  local leaf = host:findAll("BenchHop")[49]
  assert(#ck.responderChain(leaf) == 51)
  local plain = {hit = function(self, sender, a) sink = a end}
  local action = ck.action("hit", {"int"})
  local n = quick and 2000 or 20000
  local function directCalls(n) for i = 1, n do plain:hit(nil, i) end end
  local hops = 49
  local send, direct, ratio = measurePair(n, directCalls, function(n) for i = 1, n do action:send(leaf, i) end end, hops)
  report("selector send, per hop (50 responders)", ns(send), "ns", ns(direct), "baseline: one direct call", ratio)
  -- Without a plan: a plan holds for one sender, so two senders taking turns walk every time.
  local Fork = ck.component("BenchFork", {render = function() return ck.Stack{children = {Node{depth = 46}, Node{depth = 46}}} end})
  local Chain2 = ck.component("BenchChain2", {hit = function(self, sender, a) sink = a end,
    render = function() return Fork{} end})
  local host2 = ck.host(function() return Chain2{} end)
  host2:mount()
  local leaves = host2:findAll("BenchHop")
  local left, right = leaves[47], leaves[94]
  assert(#ck.responderChain(left) == 51 and #ck.responderChain(right) == 51)
  local walk, direct2, ratio2 = measurePair(n, directCalls,
    function(n) for i = 1, n, 2 do action:send(left, i); action:send(right, i) end end, hops)
  report("selector send, per hop, walking (no plan)", ns(walk), "ns", ns(direct2), "baseline: one direct call", ratio2)
end

-- 3. Build + mount of a tree of scoped leaves; baseline: the same tree as plain Lua tables.
local function tree(n)
  local Leaf = ck.component("BenchLeaf", {scope = function(p) return p.i end, pure = true, initialState = 0,
    view = {class = "UILabel"}})
  local Root = ck.component("BenchRoot", {scope = true, render = function(self, p)
    local c = {} for i = 1, p.n do c[i] = Leaf{i = i} end return ck.Stack{children = c} end})
  return ck.host(function(m) return Root{n = m} end, {model = n})
end
if wanted("build+mount", "destroy of that") then
  local n = quick and 2000 or 20000
  -- Build+mount is timed alone, as Roact's mount is; the teardown is its own row.
  -- Each run starts from a drained heap: the last tree's garbage is not this one's cost.
  local builds, teardowns = {}, {}
  for r = 1, math.max(repeats, 11) do
    drain()
    local t0 = bench_clock()
    local h = tree(n)
    h:mount()
    local t1 = bench_clock()
    h:destroy()
    builds[r], teardowns[r] = t1 - t0, bench_clock() - t1
  end
  local build, teardown = median(builds), median(teardowns)
  local plain = measure(1, function()
    local function leaf(p) return {props = p, state = 0, view = {class = "UILabel"}} end
    local c = {} for i = 1, n do c[i] = leaf({i = i}) end
    local root = {children = c}
    for _, l in ipairs(root.children) do l.mounted = true end
  end)
  report(string.format("build+mount %d scoped leaves", n), n / build, "comp/s", n / plain,
    string.format("%.1f ms; baseline: plain tables", build * 1e3))
  report(string.format("destroy of that %d-leaf tree", n), n / teardown, "comp/s", nil,
    string.format("%.1f ms (Swift objects and views freed)", teardown * 1e3))
end

-- 4. One leaf's sync state update with pure siblings, for growing trees.
for _, n in ipairs(wanted("leaf sync update") and (quick and {2000} or {2000, 20000, 200000}) or {}) do
  local h = tree(n)
  h:mount()
  local scope = h:find("BenchLeaf#" .. (n // 2)).scope
  local m = 200
  local update = measure(m, function(m) for i = 1, m do scope.component:updateState(i, "sync") end end)
  local state = {}
  local direct = measure(m, function(m) for i = 1, m do state.value = i end end)
  report(string.format("leaf sync update in a %d-leaf tree", n), update * 1e6, "µs", direct * 1e6, "baseline: a table store")
  h:destroy()
end

-- 5. Memory per mounted component, Lua and Swift together (malloc'd bytes).
if wanted("memory per mounted component") then
  local n = quick and 2000 or 20000
  drain()
  local before = bench_heap()
  local h = tree(n)
  h:mount()
  drain()
  local after = bench_heap()
  local components = #h:findAll("BenchLeaf") + 2
  drain()
  local b2 = bench_heap()
  local plain = {} for i = 1, n do plain[i] = {props = {i = i}, state = 0} end
  drain()
  local a2 = bench_heap()
  report("memory per mounted component", (after - before) / components, "B", (a2 - b2) / n,
    "baseline: a Lua table with props")
  h:destroy()
end

if startup ~= "" then
  report("start-up (ckrun -e '')", tonumber(startup), "ms", tonumber(luaStartup), "baseline: lua5.4 -e ''")
end

print("| figure | ckrun | plain Lua | ratio | notes |")
print("|---|---|---|---|---|")
for _, r in ipairs(rows) do print(r) end
