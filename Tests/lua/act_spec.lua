-- Under `ckrun test` the runtime is the one scripts get (SPEC §3): an "async" update waits for
-- the next turn of the run loop; `ck.act(fn)` is the explicit act() that builds what fn queued.

local function counter(name)
  local C = ck.component(name, {scope = true, initialState = 0,
    render = function(_, _, state) return ck.Button{title = tostring(state), action = ck.action("bump")} end,
    bump = function(self) self:updateState(function(n) return n + 1 end) end})
  local host = ck.host(function() return C{} end)
  host:mount()
  return host
end

describe("an async update queued in a tap", function()
  it("waits for ck.flush, as in a script", function()
    local host = counter("AsyncWaits")
    host:tap("Button")
    assert.are.equal(0, host.root.state)
    assert.are.equal(1, host.generation)
    ck.flush()
    assert.are.equal(1, host.root.state)
    assert.are.equal(2, host.generation)
  end)

  it("folds with the next tap's into one build", function()
    local host = counter("AsyncFolds")
    host:tap("Button")
    host:tap("Button")
    ck.flush()
    assert.are.equal(2, host.root.state)
    assert.are.equal(2, host.generation)
  end)

  it("queued by a controller's didInit is not built inside ck.host", function()
    ck.controller("AsyncInitController", {didInit = function(self) self.component:updateState(7) end})
    local C = ck.component("AsyncInit", {scope = true, initialState = 0})
    local host = ck.host(function() return C{} end)
    assert.are.equal(1, host.generation)
    assert.are.equal(0, host.root.state)
    ck.flush()
    assert.are.equal(7, host.root.state)
  end)

  it("a sync update is still built before the tap returns", function()
    local C = ck.component("SyncStill", {scope = true, initialState = 0,
      render = function() return ck.Button{action = ck.action("go")} end,
      go = function(self) self:updateState(3, "sync") end})
    local host = ck.host(function() return C{} end)
    host:mount()
    host:tap("Button")
    assert.are.equal(3, host.root.state)
  end)
end)

describe("ck.act(fn, ...)", function()
  it("builds what fn queued before it returns, and returns fn's results", function()
    local host = counter("ActBuilds")
    local a, b = ck.act(function(x) host:tap("Button"); return x, "two" end, "one")
    assert.are.equal("one", a)
    assert.are.equal("two", b)
    assert.are.equal(1, host.root.state)
    assert.are.equal("1", host:find("Button").props.title)
  end)

  it("batches the taps inside it into one build", function()
    local host = counter("ActBatches")
    ck.act(function() host:tap("Button"); host:tap("Button") end)
    assert.are.equal(2, host.root.state)
    assert.are.equal(2, host.generation)
  end)

  it("passes fn's error on, leaving what it queued for the next flush", function()
    local host = counter("ActRaises")
    local ok, err = pcall(ck.act, function() host:tap("Button"); error("boom", 0) end)
    assert.is_false(ok)
    assert.are.equal("boom", err)
    assert.are.equal(0, host.root.state)
    ck.flush()
    assert.are.equal(1, host.root.state)
  end)

  it("refuses what is not a function", function()
    assert.matches("^%[badArgument%] .*ck.act: argument #1 %(fn%) must be a function", select(2, pcall(ck.act, 1)))
  end)
end)
