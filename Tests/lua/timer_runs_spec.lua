-- Every loop that drains timers shares one bound (TimerRun): a timer that keeps re-arming stops
-- ck.runUntilIdle and ck.advance with [timerLoop] naming where it was set, as it stops the app
-- runner's clock, instead of spinning forever.
describe("runs of the virtual clock", function()
  local function interval(seconds, counter)
    local function tick()
      counter.n = counter.n + 1
      counter.id = ck.after(seconds, tick)
    end
    counter.id = ck.after(seconds, tick)
  end

  it("ck.runUntilIdle raises [timerLoop] at a timer that re-arms itself, naming its file:line", function()
    local counter = {n = 0}
    interval(1, counter)
    local ok, err = pcall(ck.runUntilIdle)
    assert.is_false(ok)
    assert.matches("^%[timerLoop%] [^ ]*timer_runs_spec%.lua:8: a timer set here re%-armed itself 1000 times", err)
    assert.matches("ck%.advance%(SECONDS%)", err)
    assert.are.equal(1000, counter.n)
    ck.cancel(counter.id)
    assert.are.equal(0, ck.runUntilIdle())
  end)

  it("ck.runUntilIdle still runs long chains that end, and many timers", function()
    local left = 999
    local function step() left = left - 1; if left > 0 then ck.after(1, step) end end
    ck.after(1, step)
    assert.are.equal(999, ck.runUntilIdle())
    for _ = 1, 5000 do ck.after(1, function() end) end
    assert.are.equal(5000, ck.runUntilIdle())
  end)

  it("a timer set math.huge seconds ahead is never due: ck.runUntilIdle leaves it and the clock", function()
    local fired = false
    ck.after(math.huge, function() fired = true end)
    assert.are.equal(0, ck.runUntilIdle())
    assert.are.equal(0, ck.now())
    ck.after(1, function() end)
    assert.are.equal(1, ck.advance(1))
    assert.are.equal(1, ck.now())
    assert.is_false(fired)
  end)

  it("ck.advance runs an interval as long as asked (a chain that moves the clock is no loop)", function()
    local counter = {n = 0}
    interval(0.5, counter)
    assert.are.equal(4000, ck.advance(2000))
    assert.are.equal(4000, counter.n)
    ck.cancel(counter.id)
  end)

  it("ck.advance raises [timerLoop] at a timer re-armed with no delay", function()
    local counter = {n = 0}
    interval(0, counter)
    local ok, err = pcall(ck.advance, 1)
    assert.is_false(ok)
    assert.matches("^%[timerLoop%] [^ ]*timer_runs_spec%.lua:8: .*give it a delay", err)
    assert.are.equal(1000, counter.n)
    ck.cancel(counter.id)
  end)

  it("ck.advance raises [timerLoop] when timers multiply without moving the clock", function()
    local fired = 0
    local function fan() fired = fired + 1; ck.after(0, fan); ck.after(0, fan) end
    ck.after(0, fan)
    local ok, err = pcall(ck.advance, 1)
    assert.is_false(ok)
    assert.matches("^%[timerLoop%] .*10000 that timers set fired in one run", err)
    assert.are.equal(10001, fired, "the first, set before the run, and 10,000 its timers set")
  end)

  it("ck.advance fires 10,001 timers the script set before it (no timer set another)", function()
    local fired = 0
    for _ = 1, 10001 do ck.after(1, function() fired = fired + 1 end) end
    ck.advance(2)
    assert.are.same({10001, 0}, {fired, ck.stats().timers})
  end)
end)
