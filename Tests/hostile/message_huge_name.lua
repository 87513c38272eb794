-- Attack (outsider after issue 24, B7): a 10 MB selector that is not UTF-8. Its [badArgument]
-- message was built in Swift quoting every byte as \255 (170 MB of RSS under 40 MB, 4 MB back
-- in Lua); a message quotes 200 bytes and the length.
-- ckrun-args: --memory-limit 40
-- ckrun-expect: excerpt of 10000000 bytes
-- ckrun-expect-status: 0
local s = string.rep("\255", 10e6)
local ok, e = pcall(ck.action, s)
assert(not ok and #e < 1000, "a message of " .. #e .. " bytes")
assert(e:find("(10000000 bytes)", 1, true))
print("excerpt of 10000000 bytes")
