-- A script's lists as ckrun reads them (issue 24, class 4): `#t` is a border, not a size. A
-- table of 43 entries can have a border of 2^40; ckrun reads a list as ipairs does, t[1], t[2],
-- ... up to the first nil, so such a table is a list of 5 items wherever it is given, except
-- as children (SPEC §5: every positive integer index, holes skipped), where it is 43.

-- {1, 2, 3, 4, [5], [8], [16], ..., [2^40]}: #t is 2^40 (the array part is full, and
-- Lua's unbound search doubles through the hash part); its list is t[1]..t[5].
local function bordered(value)
  local parts = {"return {1, 2, 3, 4, [5] = 5"}
  for k = 3, 40 do parts[#parts + 1] = ("[%d] = %d"):format(1 << k, k) end
  local t = load(table.concat(parts, ", ") .. "}")()
  for k in pairs(t) do t[k] = value(k) end
  assert(#t == 1 << 40, "the border this spec relies on")
  return t
end

describe("a list whose border is 2^40", function()
  it("is 43 children of ck.Stack, in index order (its entries, not its border)", function()
    local children = bordered(function(k) return ck.Text{text = k} end)
    local host = ck.host(function() return ck.Stack{children = children} end)
    host:mount()
    local texts = {}
    for _, c in ipairs(host:findAll("Text")) do texts[#texts + 1] = c.props.text end
    assert.are.same({1, 2, 3, 4, 5}, {table.unpack(texts, 1, 5)})
    assert.are.equal(43, #texts)
    assert.are.equal(1 << 40, texts[43])
  end)

  it("is five events of ck.Button", function()
    local got = {}
    local Screen = ck.component("BorderButtons", {
      tapped = function(self, sender, event) got[#got + 1] = event.type end,
      render = function(self)
        return ck.Button{title = "b", action = ck.action("tapped"), events = bordered(function(k) return "e" .. k end)}
      end})
    local host = ck.host(function() return Screen{} end)
    host:mount()
    assert.are.equal(1, host:controlEvent("Button", "e5"))
    assert.are.equal(0, host:controlEvent("Button", "e8"))
    assert.are.same({"e5"}, got)
  end)

  it("is five events of ck.onControl", function()
    local events = ck.onControl(ck.action("x"), bordered(function(k) return "e" .. k end)).events
    assert.are.same({"e1", "e2", "e3", "e4", "e5"}, events)
  end)

  it("is five types of an action", function()
    local a = ck.action("x", bordered(function() return "int" end))
    assert.are.same({"int", "int", "int", "int", "int"}, a.types)
  end)

  it("is five host responders", function()
    local responders = bordered(function(k) return {name = "R" .. k} end)
    local host = ck.host(function() return ck.Text{text = "x"} end, {responders = responders})
    host:mount()
    local chain = ck.responderChain(host.root)
    assert.are.equal("R5", chain[#chain].name)
  end)
end)

describe("a list with a hole", function()
  it("ends at the hole, as ipairs does", function()
    local a = ck.action("x", {"int", "number", nil, "string"})
    assert.are.same({"int", "number"}, a.types)
  end)
end)
