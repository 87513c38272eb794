-- ckrun-args: --timeout 60
-- ckrun-expect: freed
-- A 100,000-deep component chain builds, dumps, unmounts and frees without overflowing the C stack.
local ck = require("ck")
local N = 100000
local Node
Node = ck.component("Node", {render = function(self, props)
  if props.n > 0 then return Node{n = props.n - 1} end
  return ck.Text{text = "leaf"}
end})
local ok, err = pcall(function()
  local h = ck.host(function() return Node{n = N} end)
  h:mount()
  local s = h:dump()
  h:unmount()
  h:destroy()
end)
if not ok then print(err:sub(1, 200)) end
collectgarbage(); collectgarbage()
print("freed")
