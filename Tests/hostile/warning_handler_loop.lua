-- ckrun-args: --timeout 1
-- ckrun-stdin: local _ = io.write("alive\n")
-- ckrun-expect: [timerLoop]
-- ckrun-expect-stdout-last: alive
-- ckrun-expect-status: 0
-- Issue 24, class 3: the run loop's own warning goes through ck.config.onWarning, the
-- script's code; it runs in a turn, so a handler that never returns is stopped and the
-- warning printed as it would be without one.
ck.config.onWarning = function() while true do end end
local function tick() ck.after(0, tick) end
ck.after(0, tick)
return ck.component("Warned", {render = function() return ck.Text{text = "x"} end})
