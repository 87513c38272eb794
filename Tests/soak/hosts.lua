-- Soak: mounting and unmounting many hosts keeps Lua and Swift memory flat.
-- ckrun Tests/soak/hosts.lua [COUNT]   (default 100000)
local count = tonumber(arg and arg[1]) or 100000
-- Measured in incremental mode: after a full collection it holds only what is reachable, while
-- generational mode (lua.c's and ckrun's default) keeps ~0.4 MB more whatever the count (10,000
-- and 20,000 hosts end at the same figure), which would hide a leak or fake one.
collectgarbage("incremental")

ck.controller("SoakItemController", {didMount = function(self) self.mounted = true end})
local Item = ck.component("SoakItem", {scope = function(p) return p.i end, initialState = 0,
  render = function(self, props) return ck.Button{title = tostring(props.i), action = self:action("tap")} end,
  tap = function(self) self:updateState(function(n) return n + 1 end, "sync") end})
local App = ck.component("SoakApp", {render = function() return ck.Stack{children = {Item{i = 1}, Item{i = 2}}} end})

-- Finalizers free Swift objects that free registry references: drain until nothing shrinks.
local function drain()
  local last
  repeat
    last = collectgarbage("count")
    collectgarbage()
  until collectgarbage("count") >= last
end

-- Hosts are made in batches of 1,000 with a full collection after each, as a long-running
-- program's garbage collector would: memory is measured at the same point of each batch.
local function cycle(n, keep)
  for i = 1, n do
    local host = ck.host(App)
    host:mount()
    host:tap("SoakItem#1 Button")
    host:unmount()
    if i % 2 == 0 then host:destroy() end
    if keep then keep[i] = host end
    if i % 1000 == 0 and not keep then drain() end
  end
  drain()
end

-- Warm up: the registry's and the handle table's arrays grow to their high-water marks
-- (freed slots are reused, so they plateau); measure only after that. How many hosts a batch
-- has alive at its peak depends on when the collector runs (string hashes are seeded per
-- state): a warm-up of 10,000 hosts still left a CI run 360 KB short of the mark. So one batch
-- is first kept alive whole, the most a batch can ever hold at once, then the warm-up runs.
do
  local batch = {}
  cycle(1000, batch)
  batch = nil
  drain()
end
cycle(math.max(5000, count))
local before = ck.stats()
cycle(count)
local after = ck.stats()
print(("%d hosts: Lua %d -> %d bytes, heap %d -> %d bytes, handles %d -> %d, references %d -> %d, tracked hosts %d -> %d")
  :format(count, before.luaBytes, after.luaBytes, before.heapBytes, after.heapBytes, before.handles, after.handles,
          before.references, after.references, before.hosts, after.hosts))
assert(after.handles == before.handles, "handles grew")
assert(after.references == before.references, "registry references grew")
assert(after.hosts == before.hosts, "tracked hosts grew")
assert(after.luaBytes - before.luaBytes < 256 * 1024, "Lua memory grew")
assert(after.heapBytes - before.heapBytes < 1024 * 1024, "process heap grew")

-- Hosts dropped without destroy() whose props, state and controller fields name them (issue 26):
-- each is garbage to Lua as a whole once the script lets go of it, mounted before or not.
ck.controller("SoakNamedController", {didMount = function(self) self.host = self.component.props.back() end})
local Named = ck.component("SoakNamed", {scope = true, initialState = {},
  render = function(self, p) return ck.Button{title = "n", action = self:action("tap")} end,
  tap = function(self) self:updateState({host = self.props.back()}, "sync") end})
local function dropped(n)
  for i = 1, n do
    local h
    h = ck.host(function() return Named{back = function() return h end} end)
    if i % 2 == 0 then
      h:mount()
      h:tap("SoakNamed Button")
      h:unmount()
    else
      h.root:updateState({host = h}, "sync")
    end
    if i % 1000 == 0 then drain() end
  end
  drain()
end
dropped(math.max(5000, count // 2))
local droppedBefore = ck.stats()
dropped(count // 2)
local droppedAfter = ck.stats()
print(("%d hosts dropped without destroy(): Lua %d -> %d bytes, heap %d -> %d bytes, handles %d -> %d, references %d -> %d, arenas %d -> %d, rescues %d")
  :format(count // 2, droppedBefore.luaBytes, droppedAfter.luaBytes, droppedBefore.heapBytes, droppedAfter.heapBytes,
          droppedBefore.handles, droppedAfter.handles, droppedBefore.references, droppedAfter.references,
          droppedBefore.arenas, droppedAfter.arenas, droppedAfter.rescues))
assert(droppedAfter.handles == droppedBefore.handles, "handles grew: dropped hosts were kept")
assert(droppedAfter.arenas == droppedBefore.arenas, "arenas grew: dropped hosts were kept")
assert(droppedAfter.hosts == droppedBefore.hosts, "tracked hosts grew")
assert(droppedAfter.rescues == 0, "an arena had to be rescued")
assert(droppedAfter.luaBytes - droppedBefore.luaBytes < 256 * 1024, "Lua memory grew")
assert(droppedAfter.heapBytes - droppedBefore.heapBytes < 1024 * 1024, "process heap grew")

-- Scopes leaving a live host's tree: each update replaces 20 scopes (and the 20 below them)
-- with new ones; the ones that left are freed (a scope holds its parent strongly, and
-- leaving empties its children, so no cycle outlives the tree).
local Inner = ck.component("SoakInner", {scope = function(p) return p.i end, initialState = 0})
local Outer = ck.component("SoakOuter", {scope = function(p) return p.i end, initialState = 0,
  render = function(self, p) return Inner{i = p.i} end})
local Churn = ck.component("SoakChurn", {scope = true, initialState = 0, render = function(self, p, s)
  local c = {}
  for i = 1, 20 do c[i] = Outer{i = s * 100 + i} end
  return ck.Stack{children = c}
end})
local churnHost = ck.host(Churn)
churnHost:mount()
local updates = 0
local function churn(n)
  for _ = 1, n do
    updates = updates + 1
    churnHost.root.scope.component:updateState(updates, "sync")
    if updates % 1000 == 0 then drain() end
  end
  drain()
end
churn(3000)
local churnBefore = ck.stats()
churn(math.max(3000, count // 20))
local churnAfter = ck.stats()
print(("%d updates replacing 40 scopes each: heap %d -> %d bytes, handles %d -> %d, references %d -> %d")
  :format(updates, churnBefore.heapBytes, churnAfter.heapBytes, churnBefore.handles, churnAfter.handles,
          churnBefore.references, churnAfter.references))
assert(churnAfter.references == churnBefore.references, "registry references grew under scope churn")
assert(churnAfter.heapBytes - churnBefore.heapBytes < 1024 * 1024, "process heap grew under scope churn")
churnHost:destroy()
print("soak ok")
