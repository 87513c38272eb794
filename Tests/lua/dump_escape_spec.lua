-- The text dump's one escaper (outsider attack after issue 24, B9): a value can neither start a
-- line of its own nor close its quotes, so two different trees never dump alike, and bytes
-- that are not UTF-8 stay distinct.
describe("the text dump", function()
  local function dump(render)
    local h = ck.host(function() return ck.component("D", {render = render}){} end)
    local text = h:dump()
    h:destroy()
    return text
  end

  it("escapes line breaks, quotes, backslashes and control bytes in strings", function()
    local text = dump(function() return ck.Text{text = "a\0b\27[31m\r\nFAKE \"q\" \\ \t"} end)
    assert.are.equal(2, select(2, text:gsub("\n", "")))
    assert.truthy(text:find('text="a\\000b\\027[31m\\r\\nFAKE \\"q\\" \\\\ \\t"', 1, true), text)
  end)

  it("tells a Text holding a forged sibling from two Texts", function()
    local forged = dump(function() return ck.Text{text = "b\">\n  Text <UILabel text=\"c"} end)
    local two = dump(function() return ck.Stack{children = {ck.Text{text = "b"}, ck.Text{text = "c"}}} end)
    assert.are_not.equal(forged, two)
    assert.are.equal(2, select(2, forged:gsub("\n", "")))
  end)

  it("keeps bytes that are not UTF-8 distinct and UTF-8 text as it is", function()
    local a = dump(function() return ck.Text{text = "caf\233 \254 ✓"} end)
    local b = dump(function() return ck.Text{text = "caf\232 \255 ✓"} end)
    assert.are_not.equal(a, b)
    assert.truthy(a:find('"caf\\233 \\254 ✓"', 1, true), a)
  end)

  it("escapes a key that is not a name, and a __tostring result's line breaks", function()
    local text = dump(function()
      return ck.View{class = "UIView", attributes = {
        tag = setmetatable({}, {__tostring = function() return "x\n  Forged" end}),
      }}
    end)
    assert.are.equal(2, select(2, text:gsub("\n", "")))
    local S = ck.component("S", {scope = true, initialState = function() return {["a\nb"] = 1, ok = 2} end,
      render = function() return nil end})
    local h = ck.host(function() return S{} end)
    assert.truthy(h:dump():find('state={["a\\nb"] = 1, ok = 2}', 1, true), h:dump())
    h:destroy()
  end)
end)
