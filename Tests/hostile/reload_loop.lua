-- ckrun-args: --timeout 1
-- ckrun-stdin: .reload
-- ckrun-stdin: local _ = io.write("alive\n")
-- ckrun-expect: [timeout]
-- ckrun-expect-stdout-last: alive
-- ckrun-expect-status: 0
-- Issue 24, class 3: a reload (.reload, --watch) is a turn: a file that loops when it runs
-- again is stopped by --timeout and the app goes on.
if RELOADED then while true do end end
RELOADED = true
return ck.component("Once", {render = function() return ck.Text{text = "x"} end})
