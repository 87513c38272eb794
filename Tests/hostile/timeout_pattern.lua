-- ckrun-args: --timeout 1
-- ckrun-expect: [timeout]
-- A pathological pattern runs inside one C call: an instruction hook alone never fires.
local s = string.rep("a", 40)
print(string.find(s, string.rep("a*", 40) .. "b"))
