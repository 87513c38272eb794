-- ckrun-args: --memory-limit 10
-- ckrun-expect: ok
local ck = require("ck")
local t = {}
local ok = pcall(function() for i = 1, 1e8 do t[i] = {i} end end)
-- memory is at the limit: ck calls must fail cleanly, never crash
for i = 1, 50 do
  pcall(ck.component, "C" .. i, {render = function() return ck.Text{text = string.rep("x", 1000)} end})
  pcall(function() local h = ck.host(function() return ck.Text{text = "x"} end); h:mount(); h:dump() end)
end
t = nil
collectgarbage()
print("ok")
