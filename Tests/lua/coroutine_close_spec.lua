-- coroutine.close refuses as lua5.4's does (atk-new 12): the caller's file:line before "cannot
-- close a running/normal coroutine", and 'coroutine.close' named in its argument error. ckrun's
-- guard (ckthreads.c) called the original through a protected call, which lost both.

describe("coroutine.close's refusals", function()
  it("name the caller's line for a running coroutine", function()
    local co; co = coroutine.create(function() return coroutine.close(co) end)
    local ok, err = coroutine.resume(co)
    assert.is_false(ok)
    assert.are.equal("Tests/lua/coroutine_close_spec.lua:7: cannot close a running coroutine", err)
  end)

  it("name the caller's line for a normal coroutine", function()
    local outer; outer = coroutine.create(function()
      local inner = coroutine.create(function() return coroutine.close(outer) end)
      return coroutine.resume(inner)
    end)
    local ok, innerOk, err = coroutine.resume(outer)
    assert.is_true(ok)
    assert.is_false(innerOk)
    assert.are.equal("Tests/lua/coroutine_close_spec.lua:15: cannot close a normal coroutine", err)
  end)

  it("name coroutine.close in an argument error", function()
    local ok, err = pcall(coroutine.close, 42)
    assert.is_false(ok)
    assert.are.equal("bad argument #1 to 'coroutine.close' (thread expected, got number)", err)
  end)

  it("still close a suspended coroutine", function()
    local co = coroutine.create(function() coroutine.yield() end)
    coroutine.resume(co)
    assert.are.same({true}, {coroutine.close(co)})
    assert.are.equal("dead", coroutine.status(co))
  end)
end)
