-- The virtual clock adds decimal seconds exactly (whole nanoseconds inside): how a test slices
-- the same time never changes what fires (attack atk-apps 02: 0.1 + 0.1 + 0.1 > 0.3 in floats).
local function interval(step)
  local s = {n = 0}
  local function tick() s.n = s.n + 1; ck.after(step, tick) end
  ck.after(step, tick)
  return s
end

describe("the virtual clock", function()
  it("fires a 0.1 s interval 3 times in ck.advance(0.3)", function()
    local s = interval(0.1); ck.advance(0.3)
    assert.are.equal(3, s.n)
  end)

  it("fires it 3 times in three ck.advance(0.1)", function()
    local s = interval(0.1); ck.advance(0.1); ck.advance(0.1); ck.advance(0.1)
    assert.are.equal(3, s.n)
  end)

  it("leaves nothing due at the time it reached, after 10,000 steps", function()
    local s = interval(0.1); ck.advance(1000)
    assert.are.equal(10000, s.n)
    assert.are.equal(1000, ck.now())
  end)

  it("reads a decimal time as written", function()
    ck.advance(0.1); ck.advance(0.2)
    assert.are.equal(0.3, ck.now())
  end)

  it("still never fires a timer set math.huge ahead", function()
    local fired = false
    ck.after(math.huge, function() fired = true end)
    ck.advance(1e6)
    assert.is_false(fired)
  end)
end)
