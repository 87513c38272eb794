-- ckrun-expect: 43 children
-- Issue 24, class 4: `#t` is a border, not a size. 43 entries with a border of 2^40 as
-- ck.Stack's children made Swift reserve 8 TB (SIGABRT). Children are every positive integer
-- index (SPEC §5): 43, walked entry by entry, never index by index up to the border.
local parts = {"return {1, 2, 3, 4, [5] = 5"}
for k = 3, 40 do parts[#parts + 1] = ("[%d] = %d"):format(1 << k, k) end
local children = load(table.concat(parts, ", ") .. "}")()
for k in pairs(children) do children[k] = ck.Text{text = tostring(k)} end
assert(#children == 1 << 40)
local host = ck.host(function() return ck.Stack{children = children} end)
host:mount()
print(#host:findAll("Text") .. " children")
