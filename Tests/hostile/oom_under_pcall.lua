-- ckrun-args: --memory-limit 16
-- ckrun-expect: [memoryLimit]
local ok, err = pcall(function() local t = {} for i = 1, 1e8 do t[i] = string.rep("x", 100) .. i end end)
print(err)
