-- ckrun-mode: test
-- ckrun-args: --memory-limit 50
-- ckrun-expect-status: 1
-- ckrun-expect: [cut: output past 1000000 bytes not kept]
-- ckrun-expect: more bytes not kept]
-- Outsider attack after issue 24 (B14): 400 MB of output took 483 s and 1.26 GB after the test had
-- returned (outside --timeout and --memory-limit), a 10 MB message 29 s. A test's output keeps its
-- first 1,000,000 bytes and each field of a result at most 1 MiB, each cut marked.
it("prints a lot", function()
  local s = string.rep("x", 1024 * 1024)
  for _ = 1, 30 do io.write(s) end
  error("after the output")
end)
it("big error", function() error(string.rep("x\n", 600 * 1024)) end)
