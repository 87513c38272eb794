-- ckrun-args: --sandbox --timeout 1
-- ckrun-expect: [timeout]
if debug and debug.sethook then pcall(debug.sethook) end
while true do end
