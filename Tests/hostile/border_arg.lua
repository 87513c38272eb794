-- ckrun-cmd: -e dofile"Tests/hostile/border_arg.lua" Tests/hostile/border_arg.lua
-- ckrun-expect-stdout-last: 5 arguments
-- Issue 24, class 4: `arg` replaced before the script runs by a table whose border is 2^40
-- (43 entries) trapped converting the border to Int32 (SIGILL); the script gets arg[1..5].
if not border_arg_set then
  border_arg_set = true
  local parts = {"return {1, 2, 3, 4, [5] = 5"}
  for k = 3, 40 do parts[#parts + 1] = ("[%d] = %d"):format(1 << k, k) end
  arg = load(table.concat(parts, ", ") .. "}")()
  return
end
print(select("#", ...) .. " arguments")
