-- ckrun-args: --timeout 2
-- ckrun-expect: mounted
-- Issue 24, class 4: a Button's events list whose border is 2^40 was walked to the border in
-- Swift, outside the limits (the process ended at the timeout's second tick).
local parts = {"return {1, 2, 3, 4, [5] = 5"}
for k = 3, 40 do parts[#parts + 1] = ("[%d] = %d"):format(1 << k, k) end
local events = load(table.concat(parts, ", ") .. "}")()
local host = ck.host(function() return ck.Button{title = "b", events = events} end)
host:mount()
print("mounted")
