-- Attack (outsider after issue 24, B15's sweep): `-l g=mod` sets the global through `_G`'s
-- __newindex, which C called with lua_pcall in Swift mode, where the allocator never fails:
-- 546 MB under a 50 MB limit. Every call into Lua from Swift goes through ckpcall_at.
-- ckrun-cmd: --memory-limit 50 -e dofile("Tests/hostile/dash_l_newindex.lua") -l g=string -e print("end")
-- ckrun-expect: [memoryLimit]
-- ckrun-expect-status: 1
-- ckrun-expect-no-line: ^filled
setmetatable(_G, {__newindex = function()
  local x = {}
  for i = 1, 3e7 do x[i] = i end
  print("filled")
end})
