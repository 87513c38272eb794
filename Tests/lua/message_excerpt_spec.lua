-- A message quotes at most 200 bytes of a script's value, then `…` and its length (the
-- outsider's attack after issue 24, B7): Swift builds a message outside --memory-limit, and a
-- 24 MB name quoted whole held 4× its size there.
local function message(fn, ...)
  local ok, err = pcall(fn, ...)
  assert.is_false(ok)
  return tostring(err)
end

describe("a message quoting a script's value", function()
  it("shows 200 bytes of a name that is not UTF-8, and its length", function()
    local err = message(ck.action, string.rep("\255", 100000))
    assert.is_true(#err < 1000, #err .. " bytes")
    assert.matches("%[badArgument%] [^\n]*message_excerpt_spec%.lua:%d+: ck%.action: argument #1 %(selector%) must be UTF%-8 text without NUL bytes, got \"\\255", err)
    assert.matches('"… %(100000 bytes%)', err)
  end)

  it("shows 200 bytes of a definition's key", function()
    local err = message(ck.component, "Excerpted", {[string.rep("\0", 50000)] = function() end})
    assert.is_true(#err < 1000, #err .. " bytes")
    assert.matches("… %(50000 bytes%)", err)
  end)

  it("shows 200 bytes of an unknown type's name", function()
    local err = message(ck.action, "tap:", string.rep("T", 30000))
    assert.is_true(#err < 1000, #err .. " bytes")
    assert.matches("unknown type \"TTTT.-… %(30000 bytes%)\"", err)
  end)

  it("shows 200 bytes of an unknown ck.config setting", function()
    local err = message(function() ck.config[string.rep("k", 30000)] = 1 end)
    assert.is_true(#err < 1000, #err .. " bytes")
    assert.matches("… %(30000 bytes%)", err)
  end)

  it("shows 200 bytes of a key written on a component", function()
    local C = ck.component("ExcerptedWrite", {})
    local host = ck.host(function() return C{} end)
    local err = message(function() host.root[string.rep("w", 30000)] = 1 end)
    assert.is_true(#err < 1000, #err .. " bytes")
    assert.matches("%[immutableComponent%] .-cannot set www.-… %(30000 bytes%) on", err)
    host:destroy()
  end)
end)
