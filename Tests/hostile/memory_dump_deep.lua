-- ckrun-args: --memory-limit 20 --timeout 60
-- ckrun-expect: done
-- host:dump() on a 30,000-deep tree built an O(N^2) string (2.7 GB under a 20 MB limit).
local ck = require("ck")
local Node
Node = ck.component("N", {render = function(self, p) if p.n > 0 then return Node{n = p.n - 1} end end})
local ok, err = pcall(function()
  local h = ck.host(function() return Node{n = 30000} end)
  h:mount()
  local s = h:dump()
end)
print("done", ok, not ok and tostring(err):sub(1, 80) or "")
