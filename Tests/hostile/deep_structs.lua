-- ckrun-args: --timeout 60
-- ckrun-expect: done
local ck = require("ck")
local ok, err = pcall(function()
  ck.struct("S0", {x = "int"})
  for i = 1, 100000 do ck.struct("S" .. i, {inner = "S" .. (i - 1)}) end
end)
if not ok then print(tostring(err):sub(1, 200)) end
collectgarbage(); collectgarbage()
print("done")
