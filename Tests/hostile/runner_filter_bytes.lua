-- ckrun-cmd: test --filter café Tests/hostile/runner_filter_bytes.lua
-- ckrun-expect-status: 0
-- ckrun-expect: 1 passed, 0 failed
-- Outsider attack after issue 24 (B10): --filter with a byte that is not UTF-8 was decoded to U+FFFD and
-- matched nothing ("no tests matched ... the run succeeds"); it is matched as string.find does (busted).
it("caf\233 one", function() end)
it("caf\254 two", function() error("x") end)
