-- ckrun-args: --clock wall
-- ckrun-stdin: ck.after(1e300, function() end) ck.after(1e16, function() end) ck.after(math.huge, function() end) io.write("alive\n")
-- ckrun-expect-stdout-last: alive
-- ckrun-expect-status: 0
-- A timer due in 1e300 s (or 1e16, or math.huge) on the wall clock: the event loop's wait is the
-- next timer's due time, and converting it to poll's milliseconds unclamped trapped (SIGILL).
return ck.component("Far", {render = function() return ck.Text{text = "x"} end})
