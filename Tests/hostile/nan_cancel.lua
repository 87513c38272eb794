-- ckrun-expect: done
local ck = require("ck")
for _, v in ipairs({0/0, math.huge, -math.huge, 1e300, -1e300, math.maxinteger, math.mininteger, -1, 2^63}) do
  pcall(ck.cancel, v)
  pcall(ck.after, v, function() end)
  pcall(ck.advance, v)
end
print("done")
