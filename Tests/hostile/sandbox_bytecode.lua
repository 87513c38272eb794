-- ckrun-args: --sandbox
-- ckrun-expect: refused
-- Lua does not verify bytecode: crafted chunks read and write memory. The sandbox refuses binary chunks.
local f = string.dump(function() return 1 end)
local ok1 = pcall(load, f)
local fn = load(f)
local ok2 = pcall(load, f, "x", "b")
local fn2 = select(2, pcall(load, f, "x", "b"))
assert(type(fn) ~= "function" and type(fn2) ~= "function", "binary chunk loaded under --sandbox")
print("refused")
