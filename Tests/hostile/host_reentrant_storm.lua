-- ckrun-args: --timeout 20
-- ckrun-expect: pairings held
-- Every lifecycle callback of two hosts calls a random host operation (mount, unmount, update,
-- appear, disappear, destroy, flush, on either host) or raises. Whatever the order, each pass
-- runs whole: at the end every controller's willMount/didMount/willUnmount/didUnmount,
-- acquire/relinquish, willAppear/didDisappear and init/invalidate counts pair up, and no
-- destroyed host's controller holds a view.
local ck = require("ck")
math.randomseed(7)
local counts, hosts = {}, {}
local ops = {"mount", "unmount", "update", "appear", "disappear", "flush", "destroy", "raise", "none", "none"}

local function bump(self, name)
  local c = counts[self] or {}
  counts[self] = c
  c[name] = (c[name] or 0) + 1
end

local function act()
  local op = ops[math.random(#ops)]
  if #hosts == 0 then return end
  local h = hosts[math.random(#hosts)]
  if op == "none" or h.isDestroyed then return end
  if op == "raise" then error("a callback fails") end
  if op == "destroy" and math.random(6) > 1 then return end
  if op == "update" then pcall(h.update, h, math.random(3)) return end
  pcall(h[op], h)
end

local def = {}
for _, name in ipairs({"init", "didInit", "willMount", "didMount", "willUnmount", "didUnmount", "componentDidAcquireView",
                       "componentWillRelinquishView", "componentTreeWillAppear", "componentTreeDidDisappear",
                       "invalidateController", "willUpdateComponent", "didUpdateComponent", "willRemount", "didRemount"}) do
  def[name] = function(self) bump(self, name); act() end
end
ck.controller("RowController", def)
local Row = ck.component("Row", {scope = function(p) return p.id end, view = {class = "UIView"}})
local function provider(n)
  local children = {}
  for i = 1, (n or 2) do children[i] = Row{id = i} end
  return ck.Stack{children = children}
end

for round = 1, 200 do
  if #hosts < 2 or math.random(4) == 1 then
    local ok, h = pcall(ck.host, provider, {model = math.random(3)})
    if ok then hosts[#hosts + 1] = h end
  end
  pcall(act)
  for i = #hosts, 1, -1 do if hosts[i].isDestroyed then table.remove(hosts, i) end end
end
local all = {}
for k in pairs(counts) do all[#all + 1] = k end
for _, h in ipairs(hosts) do pcall(h.destroy, h) end

local function n(c, name) return c[name] or 0 end
local bad = 0
for _, k in ipairs(all) do
  local c = counts[k]
  local function check(ok, what)
    if not ok then bad = bad + 1; if bad < 5 then print("broken: " .. what) end end
  end
  check(n(c, "willMount") == n(c, "didMount"), "willMount/didMount")
  check(n(c, "willUnmount") == n(c, "didUnmount"), "willUnmount/didUnmount")
  check(n(c, "willMount") == n(c, "didUnmount"), "mount/unmount")
  check(n(c, "componentDidAcquireView") == n(c, "componentWillRelinquishView"), "acquire/relinquish")
  check(n(c, "componentTreeWillAppear") == n(c, "componentTreeDidDisappear"), "appear/disappear")
  check(n(c, "invalidateController") == 1, "invalidated once")
  check(k.isInvalidated and k.view == nil, "dead, no view")
end
print(#all .. " controllers; " .. (bad == 0 and "pairings held" or bad .. " broken"))
