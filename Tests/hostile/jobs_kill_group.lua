-- A test signals its process group: only its --jobs worker ends (each worker has a group of its
-- own), the file fails with the signal named and the run reports (it ended the runner: 143).
-- ckrun-cmd: test --jobs 2 --repeat 2 Tests/hostile/jobs_kill_group.lua
-- ckrun-expect: its worker process was killed by signal 15
-- ckrun-expect-status: 1
it("signals its group", function() os.execute("kill -TERM 0") end)
