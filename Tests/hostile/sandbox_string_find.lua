-- ckrun-args: --sandbox
-- ckrun-expect: blocked
-- A replaced string.find fooled the io.open mode check.
string.find = function() return nil end
local mt = getmetatable("")
if mt then pcall(function() mt.__index = {find = function() return 1 end} end) end
local ok, f = pcall(io.open, "/tmp/ckrun-sandbox-escape2", "w")
assert(not (ok and f), "io.open for writing under --sandbox")
print("blocked")
