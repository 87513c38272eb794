-- Soak: mounting and unmounting many hosts keeps Lua and Swift memory flat.
-- ckrun Tests/soak/hosts.lua [COUNT]   (default 100000)
local count = tonumber(arg and arg[1]) or 100000

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
local function cycle(n)
  for _ = 1, n do
    local host = ck.host(App)
    host:mount()
    host:tap("SoakItem#1 Button")
    host:unmount()
    if _ % 2 == 0 then host:destroy() end
    if _ % 1000 == 0 then drain() end
  end
  drain()
end

-- Warm up: the registry's and the handle table's arrays grow to their high-water marks
-- (freed slots are reused, so they plateau); measure only after that.
cycle(5000)
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
print("soak ok")
