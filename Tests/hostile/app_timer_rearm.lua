-- ckrun-stdin: local _ = io.write("alive\n")
-- ckrun-expect: [timerLoop]
-- ckrun-expect-stdout-last: alive
-- ckrun-expect-status: 0
-- Issue 23: a piped app whose timer re-arms itself (setInterval in didMount) hung before the
-- first input. The virtual clock's run until idle is bounded, after start-up and each input.
ck.controller("RearmController", {didMount = function(self)
  local function tick() self.timer = ck.after(0, tick) end
  self.timer = ck.after(0, tick)
end})
return ck.component("Rearm", {scope = true, render = function() return ck.Text{text = "x"} end})
