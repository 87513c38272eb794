-- ckrun-cmd: tree Tests/hostile/tree_timer_rearm.lua
-- ckrun-expect: [timerLoop]
-- ckrun-expect-status: 0
-- Issue 23: ckrun tree ran the app "until idle", which a timer that re-arms itself never
-- reaches: it hung at 100% CPU. The run of the clock stops at a chain of 1,000 timers.
local function tick() ck.after(1, tick) end
ck.after(1, tick)
return ck.component("Rearm", {render = function() return ck.Text{text = "x"} end})
