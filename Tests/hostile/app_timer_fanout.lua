-- ckrun-cmd: --timeout 3 tree Tests/hostile/app_timer_fanout.lua
-- ckrun-expect: [timerLoop]
-- ckrun-expect: 10000 that timers set fired in one run of the clock
-- ckrun-expect-status: 0
-- Outsider attack after issue 24 (B16): a timer that sets two each time it fires never reaches
-- the chain limit (2^1000 firings), and each firing is a short turn of its own, so --timeout
-- never ended `ckrun tree` nor a piped app. A run of the clock stops after 10,000 timers.
local function f() ck.after(0.001, f) ck.after(0.001, f) end
ck.after(0.001, f)
return ck.component("Fan", {render = function() return ck.Text{text = "x"} end})
