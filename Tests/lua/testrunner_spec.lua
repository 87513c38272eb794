-- The spec language of `ckrun test`, tested with itself: run `ckrun test Tests/lua`.

-- The message of the assertion failure `fn` raises (the test fails if it raises none).
local function failure_of(fn)
  local ok, err = pcall(fn)
  assert(not ok, "expected the assertion to fail, but it passed")
  return err
end

local function contains(text, piece)
  return text:find(piece, 1, true) ~= nil
end

describe("assert.are.equal", function()
  it("passes on equal values and returns its first argument", function()
    assert.are.equal(2, 1 + 1)
    assert.equals("a", "a")
    assert.is.equal(true, true)
    assert.are.equal(nil, nil)
  end)

  it("fails with the expected and the actual value, at the caller's line", function()
    local err = failure_of(function() assert.are.equal(1, 2) end)
    assert.is_true(contains(err, "expected: 1"))
    assert.is_true(contains(err, "actual:   2"))
    assert.is_truthy(err:match("^[^\n]*testrunner_spec%.lua:%d+: expected values to be equal"))
  end)

  it("compares tables by identity and hints at assert.are.same", function()
    local t = {}
    assert.are.equal(t, t)
    local err = failure_of(function() assert.are.equal({}, {}) end)
    assert.is_true(contains(err, "assert.are.same"))
  end)

  it("prints strings quoted, so 1 and \"1\" differ visibly", function()
    local err = failure_of(function() assert.are.equal(1, "1") end)
    assert.is_true(contains(err, 'actual:   "1"'))
  end)

  it("negates with are_not, is_not and not_", function()
    assert.are_not.equal(1, 2)
    assert.is_not.equal("a", "b")
    assert.not_equal(1, 2)
    assert.is.Not.equal(1, 2)
    assert.is_true(contains(failure_of(function() assert.are_not.equal(3, 3) end), "expected values to differ"))
  end)
end)

describe("assert.are.same", function()
  it("compares tables deeply", function()
    assert.are.same({ 1, 2, { a = "x", b = { true } } }, { 1, 2, { a = "x", b = { true } } })
    assert.same({}, {})
    assert.are.same(3, 3)
  end)

  it("names the first difference and prints both tables", function()
    local err = failure_of(function()
      assert.are.same({ a = { b = { 1, 2 } } }, { a = { b = { 1, 3 } } })
    end)
    assert.is_true(contains(err, "first difference at: .a.b[2]"))
    assert.is_true(contains(err, "expected: { a = { b = { 1, 2 } } }"))
    assert.is_true(contains(err, "actual:   { a = { b = { 1, 3 } } }"))
  end)

  it("notices extra keys on either side", function()
    failure_of(function() assert.are.same({ a = 1 }, { a = 1, b = 2 }) end)
    failure_of(function() assert.are.same({ a = 1, b = 2 }, { a = 1 }) end)
  end)

  it("handles cycles and NaN", function()
    local a, b = {}, {}
    a.self, b.self = a, b
    assert.are.same(a, b)
    assert.are.same({ 0 / 0 }, { 0 / 0 })
  end)

  it("negates with are_not.same", function()
    assert.are_not.same({ 1 }, { 2 })
    failure_of(function() assert.are_not.same({ 1 }, { 1 }) end)
  end)

  it("accepts matchers anywhere in the expected value", function()
    assert.are.same({ id = match._, name = "x" }, { id = 42, name = "x" })
    assert.are.same({ match.is_string() }, { "s" })
    failure_of(function() assert.are.same({ match.is_number() }, { "s" }) end)
  end)
end)

describe("value assertions", function()
  it("is_true and is_false want exactly true and false", function()
    assert.is_true(true)
    assert.is_false(false)
    failure_of(function() assert.is_true(1) end)
    failure_of(function() assert.is_false(nil) end)
    assert.is_not_true(1)
    assert.is_not_false(nil)
  end)

  it("is_nil and is_not_nil", function()
    assert.is_nil(nil)
    assert.is_not_nil(false)
    assert.is_true(contains(failure_of(function() assert.is_nil(5) end), "expected nil, got 5"))
    failure_of(function() assert.is_not_nil(nil) end)
  end)

  it("truthy and falsy follow Lua's truth", function()
    assert.truthy(0)
    assert.is_truthy("")
    assert.falsy(nil)
    assert.is_falsy(false)
    failure_of(function() assert.truthy(false) end)
    failure_of(function() assert.falsy(0) end)
  end)

  it("checks types", function()
    assert.is_string("s")
    assert.is_number(1.5)
    assert.is_table({})
    assert.is_function(print)
    assert.is_boolean(false)
    assert.is_not_string(1)
    failure_of(function() assert.is_table("x") end)
  end)

  it("near compares numbers within a tolerance", function()
    assert.near(1, 1.05, 0.1)
    failure_of(function() assert.near(1, 2, 0.5) end)
  end)

  it("matches compares a string with a Lua pattern", function()
    assert.matches("^ab", "abc")
    assert.does_not.match("^b", "abc")
    failure_of(function() assert.matches("%d", "abc") end)
  end)

  it("puts a custom message first", function()
    local err = failure_of(function() assert.are.equal(1, 2, "the totals") end)
    assert.is_truthy(err:match(":%d+: the totals\nexpected values to be equal"))
  end)

  it("rejects unknown assertion names", function()
    local ok, err = pcall(function() return assert.is_purple end)
    assert.is_false(ok)
    assert.is_true(contains(err, "no assertion named 'is_purple'"))
  end)
end)

describe("plain assert", function()
  it("returns all its arguments", function()
    local a, b, c = assert(1, 2, 3)
    assert.are.same({ 1, 2, 3 }, { a, b, c })
  end)

  it("raises its message unchanged", function()
    local ok, err = pcall(assert, false, "plain message")
    assert.is_false(ok)
    assert.are.equal("plain message", err)
    local _, default = pcall(assert, nil)
    assert.are.equal("assertion failed!", default)
    local object = {}
    local _, raised = pcall(assert, false, object)
    assert.are.equal(object, raised)
  end)
end)

describe("assert.has_error", function()
  local function raises(message, level)
    return function() error(message, level) end
  end

  it("passes when the function raises", function()
    assert.has_error(raises("boom"))
    assert.has.errors(raises("boom"))
  end)

  it("compares the message exactly, or after error()'s file:line: prefix", function()
    assert.has_error(raises("no prefix", 0), "no prefix")
    assert.has_error(raises("with prefix"), "with prefix")
    assert.has_error(raises("[hostDestroyed] gone"), "[hostDestroyed] gone")
    failure_of(function() assert.has_error(raises("with prefix"), "prefix") end)
    failure_of(function() assert.has_error(raises("other"), "with prefix") end)
  end)

  it("compares error objects deeply", function()
    assert.has_error(function() error({ code = 7 }) end, { code = 7 })
  end)

  it("fails when the function returns normally", function()
    local err = failure_of(function() assert.has_error(function() end) end)
    assert.is_true(contains(err, "returned normally"))
  end)

  it("has_no.errors wants no error at all", function()
    assert.has_no.errors(function() end)
    assert.has_no_error(function() end)
    local err = failure_of(function() assert.has_no.errors(raises("oops", 0)) end)
    assert.is_true(contains(err, 'raised "oops"'))
  end)

  it("error_matches compares the message with a Lua pattern", function()
    assert.error_matches(raises("code 42 failed"), "code %d+")
    failure_of(function() assert.error_matches(raises("fine"), "^code") end)
    failure_of(function() assert.error_matches(function() end, ".") end)
  end)

  it("is an error, not a failure, to pass something that is not a function", function()
    local ok, err = pcall(assert.has_error, 42)
    assert.is_false(ok)
    assert.is_true(contains(err, "expects a function"))
  end)
end)

describe("spies", function()
  it("spy.new records calls and returns what the function returns", function()
    local s = spy.new(function(a, b) return a + b end)
    assert.are.equal(5, s(2, 3))
    assert.spy(s).was.called()
    assert.spy(s).was.called(1)
    assert.spy(s).was_called_with(2, 3)
    assert.spy(s).was_not.called_with(3, 2)
    assert.are.equal(1, #s.calls)
  end)

  it("compares arguments deeply and with matchers", function()
    local s = spy.new()
    s({ x = { 1 } }, "b")
    assert.spy(s).was.called_with({ x = { 1 } }, "b")
    assert.spy(s).was.called_with(match._, match.is_string())
    local err = failure_of(function() assert.spy(s).was.called_with({ x = { 2 } }, "b") end)
    assert.is_true(contains(err, "its calls were:"))
  end)

  it("counts calls", function()
    local s = spy.new()
    assert.spy(s).was.not_called()
    assert.spy(s).was_not.called()
    s(); s()
    assert.spy(s).was.called(2)
    assert.spy(s).was.called_at_least(1)
    assert.spy(s).was.called_at_most(2)
    local err = failure_of(function() assert.spy(s).was.called(3) end)
    assert.is_true(contains(err, "to be called 3 times, but it was called 2 times"))
    failure_of(function() assert.spy(s).was.not_called() end)
  end)

  it("spy.on wraps a method and revert puts it back", function()
    local calc = { total = 0 }
    function calc:add(n) self.total = self.total + n; return self.total end
    local original = calc.add
    local s = spy.on(calc, "add")
    assert.are.equal(4, calc:add(4))
    assert.spy(s).was.called_with(calc, 4)
    s:revert()
    assert.are.equal(original, calc.add)
  end)

  it("stubs replace a function and return what they are told", function()
    local api = { fetch = function() error("no network in tests") end }
    local s = stub(api, "fetch", "cached")
    assert.are.equal("cached", api.fetch("url"))
    assert.stub(s).was.called_with("url")
    s:returns(1, 2)
    assert.are.same({ 1, 2 }, { api.fetch() })
  end)

  it("rejects a value that is not a spy", function()
    assert.has_error(function() assert.spy(print) end)
  end)
end)

-- Spies made inside a test are reverted when it ends, so this pair passes in either order.
describe("spies inside a test", function()
  local shared = { greet = function() return "hello" end }
  it("replace a function for the test", function()
    spy.on(shared, "greet")
    assert.is_true(spy.is_spy(shared.greet))
  end)
  it("are gone in the next test", function()
    assert.is_false(spy.is_spy(shared.greet))
    assert.are.equal("hello", shared.greet())
  end)
end)

describe("hooks", function()
  local events = {}
  local setups = 0
  setup(function() setups = setups + 1 end)
  before_each(function() table.insert(events, "outer before") end)
  after_each(function() table.insert(events, "outer after") end)

  describe("nested", function()
    before_each(function() table.insert(events, "inner before") end)
    after_each(function() table.insert(events, "inner after") end)

    it("run before_each outer first", function()
      assert.are.same({ "outer before", "inner before" }, { events[#events - 1], events[#events] })
    end)

    it("ran after_each inner first after the previous test", function()
      assert.is_true(contains(table.concat(events, ","), "inner after,outer after"))
    end)
  end)

  it("ran setup once for the block", function()
    assert.are.equal(1, setups)
  end)

  it("runs finally after the test", function()
    local cleaned = false
    finally(function() cleaned = true end)
    assert.is_false(cleaned)
  end)
end)

describe("the runner's guards", function()
  it("turn os.exit into an error", function()
    local ok, err = pcall(os.exit, 0)
    assert.is_false(ok)
    assert.is_true(contains(err, "[testFailure]"))
    assert.is_true(contains(err, "os.exit(0) was called"))
  end)

  it("give the ck module", function()
    assert.is_table(ck)
    assert.are.equal(ck, require("ck"))
  end)
end)

it("runs tests declared outside any describe", function()
  assert.is_true(true)
end)
