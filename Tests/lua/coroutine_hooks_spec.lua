-- A coroutine a test makes carries no hook (atk-busted4 08: each was given the watchdog's count
-- hook when made, and Lua traces every instruction of a hooked thread: half speed). The time
-- limit reaches it when it runs past the deadline.
describe("a coroutine made in a test", function()
  it("has no hook", function()
    assert.is_nil(debug.gethook(coroutine.create(function() end)))
    assert.is_nil(debug.gethook())
  end)

  it("keeps a hook the test set on it", function()
    local co = coroutine.create(function() end)
    local function hook() end
    debug.sethook(co, hook, "l")
    assert.are.equal(hook, (debug.gethook(co)))
  end)
end)
