-- The clock counts whole nanoseconds in 64 bits (292 years). A finite move past its end stops
-- there and fires what is due (attack atk-new2 01: ck.advance(9.2e9), within range, left the
-- clock where it was and a timer set 9.2e9 s ahead never fired).
local END = 9223372036.854775807

describe("the clock's end", function()
  it("is not reached by a span within range: ck.advance(9.2e9) moves the clock", function()
    ck.advance(9.2e9)
    assert.are.equal(9.2e9, ck.now())
  end)

  it("lets a timer set 9.2e9 s ahead fire", function()
    local at
    ck.after(9.2e9, function() at = ck.now() end)
    assert.are.equal(1, ck.advance(1e10))
    assert.are.equal(9.2e9, at)
  end)

  it("stops a finite move past it there, firing what is due", function()
    local fired = 0
    ck.after(1, function() fired = fired + 1 end)
    assert.are.equal(1, ck.advance(1e10))
    assert.are.equal(END, ck.now())
    ck.advance(1e300)
    assert.are.equal(END, ck.now())
  end)

  it("never fires a timer due after it", function()
    local fired = false
    ck.after(1e10, function() fired = true end)
    ck.advance(1e10)
    assert.is_false(fired)
  end)
end)
