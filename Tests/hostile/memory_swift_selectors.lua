-- ckrun-args: --memory-limit 32
-- ckrun-expect: held [memoryLimit]
-- Issue 24, class 5: Swift keeps every selector an action names (interned for good). 800
-- selectors of 1 MB each, whose Lua strings are garbage at once, held 800 MB in Swift under a
-- 32 MB limit. Interned names count as the script's.
local s = string.rep("s", 1 << 20)
local ok, err = pcall(function() for i = 1, 800 do ck.action(s .. i) end end)
print("held " .. (ok and "everything" or tostring(err):match("^%[%a+%]")))
