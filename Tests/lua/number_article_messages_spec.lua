-- Messages say what was wrong, truly (attack atk-ck3 01, 02, 09): NaN reads `nan` in every
-- message (0/0 is a negative NaN on x86, which printf writes `-nan`); an integral float out of
-- the integer range is not "a number that is not an integer"; "an integer", not "a integer".

local function raised(f, ...) return select(2, pcall(f, ...)) end

describe("a NaN in a message", function()
  it("reads nan in an int argument's [badArgument], a struct field's, and an option's", function()
    local a = ck.action(function(s, v) end, {"int"})
    assert.matches("must be int, got nan %(not a number%)$", raised(a.send, a, nil, 0/0))
    ck.struct("NanP", {x = "int"})
    local c = ck.action(function(s, v) end, {"NanP"})
    assert.matches("argument #1 %(NanP%)%.x must be int, got nan %(not a number%)$", raised(c.send, c, nil, {x = 0/0}))
    assert.matches("ck%.config%.maxDepth must be an integer, got nan$", raised(function() ck.config.maxDepth = 0/0 end))
  end)
end)

describe("an integral float out of the integer range", function()
  it("is said to be out of range, for an int argument and a ck function's integer", function()
    local a = ck.action(function(s, v) end, {"int"})
    assert.matches("must be int, got 1e%+300 %(an integral number outside the integer range", raised(a.send, a, nil, 1e300))
    assert.matches("must be int, got 9%.223372036854776e%+18 %(an integral number outside the integer range", raised(a.send, a, nil, 2^63))
    assert.matches("must be int, got 2%.5 %(a number that is not an integer%)$", raised(a.send, a, nil, 2.5))
    assert.matches("ck%.cancel: argument #1 %(id%) must be an integer, got 1e%+300 %(an integral number outside the integer range",
      raised(ck.cancel, 1e300))
  end)
end)

describe("a value given where an action prop was expected", function()
  it("is named with its article and its value", function()
    local W = ck.component("ArticleW", {actions = {on = {"int"}}})
    assert.matches("was given an integer %(5%); pass ck%.action", raised(W, {on = 5}))
    assert.matches("was given a number %(1%.5%); pass ck%.action", raised(W, {on = 1.5}))
    assert.matches("was given a string %(\"x\"%); pass ck%.action", raised(W, {on = "x"}))
    assert.matches("was given a userdata; pass", raised(W, {on = io.stdout}))
  end)
end)
