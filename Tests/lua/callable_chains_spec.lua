-- A table whose __call is itself a callable table is what pcall calls (Lua 5.4 follows __call
-- through tables), so every callback takes it (attack atk-new2 02: ck.after and ck.host refused
-- it, saying it had no __call). A cycle or an overlong chain is refused with words, not walked.

local function chain(fn, links)
  local c = fn
  for _ = 1, links do c = setmetatable({}, {__call = c}) end
  return c
end

describe("a __call chain", function()
  it("is a timer's function (ck.after)", function()
    local fired = 0
    ck.after(1, chain(function() fired = fired + 1 end, 2))
    ck.advance(1)
    assert.are.equal(1, fired)
  end)

  it("is a host's provider (ck.host)", function()
    local Leaf = ck.component("ChainProviderLeaf", {render = function() return ck.Text{text = "t"} end})
    local host = ck.host(chain(function() return Leaf{} end, 3))
    assert.are.equal("ChainProviderLeaf", host.root.class.name)
  end)

  it("is refused when its end is not callable, saying so", function()
    local ok, e = pcall(ck.after, 1, setmetatable({}, {__call = 5}))
    assert.is_false(ok)
    assert.matches("got table whose __call is a number %(not callable%)", e)
    ok, e = pcall(ck.host, setmetatable({}, {__call = {}}))
    assert.is_false(ok)
    assert.matches("got table whose __call is a table without __call", e)
  end)

  it("is refused, not walked forever, when it loops", function()
    local a, b = {}, {}
    setmetatable(a, {__call = b}); setmetatable(b, {__call = a})
    local ok, e = pcall(ck.after, 1, a)
    assert.is_false(ok)
    assert.matches("%[badArgument%].*__call chain loops", e)
  end)

  it("is refused when longer than the limit", function()
    local ok, e = pcall(ck.after, 1, chain(function() end, 100))
    assert.is_false(ok)
    assert.matches("%[badArgument%].*__call chain is longer than", e)
  end)

  it("still calls a plain table without __call a mistake in the usual words", function()
    local ok, e = pcall(ck.after, 1, {})
    assert.is_false(ok)
    assert.matches("a function %(or a table with __call%), got table$", e)
  end)
end)
