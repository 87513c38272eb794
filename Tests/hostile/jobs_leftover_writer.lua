-- A test leaves `yes` writing to its --jobs worker's standard output: the run ends (it waited
-- forever for that pipe's end after the last result); what `yes` wrote is cut at 1,000,000
-- bytes a file.
-- ckrun-cmd: test --jobs 2 --repeat 2 Tests/hostile/jobs_leftover_writer.lua
-- ckrun-expect-stdout-last: 2 passed, 0 failed
it("leaves yes running", function() os.execute("yes 2>/dev/null &") end)
