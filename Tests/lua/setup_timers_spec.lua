-- A setup's repeating timer (each firing sets the next: React's setInterval habit) is the
-- setup's in every test, not the first test's that fired it (attack atk-apps 01).
local Ticker = ck.component("SetupTicker", {
  scope = true, initialState = 0,
  render = function(self, p, n) return ck.Text{text = tostring(n)} end,
})
ck.controller("SetupTickerController", {
  didMount = function(self)
    local function tick()
      self.component:updateState(function(n) return n + 1 end)
      self.timer = ck.after(1, tick)
    end
    self.timer = ck.after(1, tick)
  end,
  invalidateController = function(self) ck.cancel(self.timer) end,
})

describe("a setup's interval", function()
  local host
  setup(function() host = ck.host(Ticker); host:mount() end)
  teardown(function() host:destroy() end)
  it("ticks in the first test", function()
    ck.advance(3)
    assert.are.equal(3, host.root.state)
  end)
  it("keeps ticking in the next", function()
    ck.advance(3)
    assert.are.equal(6, host.root.state)
  end)
end)

describe("a test's interval", function()
  local fired = 0
  it("is set by the test", function()
    local function tick() fired = fired + 1; ck.after(1, tick) end
    ck.after(1, tick)
    ck.advance(2)
    assert.are.equal(2, fired)
  end)
  it("is cancelled after it, re-armed links and all", function()
    ck.advance(5)
    assert.are.equal(2, fired)
  end)
end)

-- A setup's interval is its block's: cancelled when the block ends, after its teardown, so it
-- never fires in a later, unrelated block (attack atk-new2 07).
local setupTicks = 0
describe("a block whose setup sets an interval", function()
  setup(function()
    local function tick() setupTicks = setupTicks + 1; ck.after(1, tick) end
    ck.after(1, tick)
  end)
  it("ticks in its tests", function()
    ck.advance(2)
    assert.are.equal(2, setupTicks)
  end)
end)
describe("a later block", function()
  it("sees none of the ended block's interval", function()
    ck.advance(5)
    assert.are.equal(2, setupTicks)
  end)
end)
