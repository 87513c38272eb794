-- A timer's error reaches the caller of ck.advance (and ck.runUntilIdle) as [timerFailed] with
-- the timer's own message and the traceback taken where it raised, in the error value itself,
-- as [callbackFailed] carries a callback's (the value was the message alone: the report's
-- traceback started at ck.advance).

describe("[timerFailed]", function()
  for _, run in ipairs({"advance", "runUntilIdle"}) do
    it("carries the timer's traceback through ck." .. run, function()
      local function helper() error("timer fails") end
      ck.after(1, function() helper() end)
      local ok, err = pcall(function() if run == "advance" then ck.advance(2) else ck.runUntilIdle() end end)
      assert.is_false(ok)
      assert.matches("^%[timerFailed%] [^\n]*timer_traceback_spec%.lua:%d+: a timer set here %(ck%.after%) raised [^\n]*: timer fails\nstack traceback:\n", err)
      assert.matches("timer_traceback_spec%.lua:%d+: in upvalue 'helper'", err)
      assert.matches("timer_traceback_spec%.lua:%d+: in function <[^>]*timer_traceback_spec%.lua:%d+>", err)
    end)
  end
end)
