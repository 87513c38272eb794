-- ckrun-args: --memory-limit 32
-- ckrun-expect: [cut: the warning passed the memory limit]
-- ckrun-expect: done
-- Issue 24, class 5: a warning is gathered from its pieces in C. One 1 KB string given 400,000
-- times held 400 MB there under a 32 MB limit; the gathered bytes count as the state's, and
-- the message is cut at the limit.
warn("@on")
local s, t = string.rep("x", 1024), {}
for i = 1, 400000 do t[i] = s end
warn(table.unpack(t))
print("done")
