-- Every argument that takes a callback takes what pcall calls (docs/api.md, "Callbacks"): a
-- function, or a table whose metatable has __call (luassert's spies and stubs), as Lua's own
-- APIs do. ck.after refused a callable table where ck.act and ck.trace took it.

local function callable(fn)
  return setmetatable({}, {__call = function(_, ...) return fn(...) end})
end

describe("a table with __call", function()
  it("is a timer's function (ck.after)", function()
    local fired = 0
    ck.after(1, callable(function() fired = fired + 1 end))
    ck.advance(1)
    assert.are.equal(1, fired)
  end)

  it("is a timer's function as a luassert spy", function()
    local s = spy.new(function() end)
    ck.after(0.5, s)
    ck.advance(1)
    assert.spy(s).was.called(1)
  end)

  it("is a host's provider (ck.host)", function()
    local Leaf = ck.component("CallableProviderLeaf", {render = function() return ck.Text{text = "t"} end})
    local host = ck.host(callable(function() return Leaf{} end))
    assert.are.equal("CallableProviderLeaf", host.root.class.name)
  end)

  it("is an update function (updateState), as it is an initialState function", function()
    local C = ck.component("CallableUpdate", {scope = true, initialState = callable(function() return 1 end)})
    local host = ck.host(function() return C{} end)
    assert.are.equal(1, host.root.state)
    host.root:updateState(callable(function(old) return old + 41 end), "sync")
    assert.are.equal(42, host.root.state)
  end)

  it("is a block action's function (ck.action), given the sender and arguments", function()
    local got
    local a = ck.action(callable(function(sender, n) got = {sender, n} end), {"number"})
    assert.are.equal("block", a.kind)
    a:send(nil, 7)
    assert.are.same({nil, 7}, got)
  end)

  it("followed by a selector is still a target responder table", function()
    local t = setmetatable({pick = function() end}, {__call = function() end})
    assert.are.equal("target", ck.action(t, "pick").kind)
  end)

  it("is refused with the same words everywhere when it is neither", function()
    for _, call in ipairs({
      function() ck.after(1, {}) end,
      function() ck.act({}) end,
      function() ck.trace({}) end,
    }) do
      local ok, e = pcall(call)
      assert.is_false(ok)
      assert.matches("a function %(or a table with __call%)", e)
    end
  end)
end)
