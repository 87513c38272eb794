-- ckrun-expect: [timerLoop]
-- ckrun-expect: 0-delay: [timerLoop]
-- ckrun-expect-stdout-last: alive
-- ck.runUntilIdle on a timer that re-arms itself, and ck.advance on one re-armed with no delay:
-- both must raise [timerLoop] naming where the timer was set, never spin forever.
local timer = {}
local function interval(seconds)
  local function tick() timer.id = ck.after(seconds, tick) end
  timer.id = ck.after(seconds, tick)
end
interval(1)
print(select(2, pcall(ck.runUntilIdle)))
ck.cancel(timer.id)
interval(0)
print("0-delay: " .. select(2, pcall(ck.advance, 1)))
io.write("alive\n")
