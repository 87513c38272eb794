-- ckrun-expect: shards split exactly
-- Issue 24, class 6: --shard keys a test on its full name, not on the order its file registers
-- it in: tests registered from pairs() land in exactly one of the shards (3-5 of 20 were
-- skipped and others run twice). Runs the built ckrun (arg[-1]) for each shard, several times.
local ckrun = arg[-1]
local function list(shard)
  local p = assert(io.popen(string.format("%q test --list --shard %s Tests/hostile/shard_pairs.d", ckrun, shard)))
  local lines = {}
  for line in p:lines() do lines[#lines + 1] = line end
  p:close()
  return lines
end
for _ = 1, 3 do
  local seen, count = {}, 0
  for _, shard in ipairs({ "1/3", "2/3", "3/3" }) do
    for _, line in ipairs(list(shard)) do
      assert(not seen[line], "in two shards: " .. line)
      seen[line], count = true, count + 1
    end
  end
  assert(count == 30, "the shards ran " .. count .. " of 30 tests")
end
print("shards split exactly")
