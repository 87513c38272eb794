-- Soak: a dropped tree of any depth is freed in at most 3 full collections (issue 28's cliff: one
-- level of list-held children per collection, 10,004 collections for 10,000 levels).
-- ckrun Tests/soak/dropped_tree.lua [DEPTH]   (default 10000)
local depth = tonumber(arg and arg[1]) or 10000
local Leaf = ck.component("DropLeaf", {})
local Node
Node = ck.component("DropNode", {render = function(self, p) if p.depth > 0 then return Node{depth = p.depth - 1} end end})
local shapes = {
  -- children held by a list in their parent's props, built outside the host
  list = function()
    local node = Leaf{}
    for _ = 1, depth do node = ck.Stack{children = {node}} end
    return ck.host(function() return node end)
  end,
  -- each level rendered by the one above it
  render = function() return ck.host(function() return Node{depth = depth} end) end,
}

local function drop(shape, handles, kb)
  do
    local h = shapes[shape]()
    h:mount()
    h:unmount()
  end
  local started, n = os.clock(), 0
  repeat
    collectgarbage()
    n = n + 1
  until (ck.stats().handles <= handles and collectgarbage("count") <= kb + 16) or n == 10
  return n, os.clock() - started
end

collectgarbage("incremental")
for _, shape in ipairs({"list", "render"}) do
  drop(shape, ck.stats().handles, math.huge)   -- tables grow to their high-water marks first
  for _ = 1, 3 do collectgarbage() end
  local handles, kb = ck.stats().handles, collectgarbage("count")
  local n, seconds = drop(shape, handles, kb)
  print(("dropped %s tree of depth %d: freed in %d full collections, %.3f s"):format(shape, depth, n, seconds))
  assert(n <= 3, "a dropped tree took more than 3 full collections")
end
print("dropped tree ok")
