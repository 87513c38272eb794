-- [badQuery] says which part of a query is wrong and where (attack atk-repl 24), and a class
-- name a query could not find is refused where it is defined (attack atk-repl 12).
describe("a malformed query", function()
  local h
  before_each(function()
    h = ck.host(function() return ck.Stack{children = {ck.Button{key = 2}}} end)
  end)
  after_each(function() h:destroy() end)

  local function message(q)
    local ok, err = pcall(h.find, h, q)
    assert.is_false(ok)
    return tostring(err)
  end

  it("names the column and the token at fault", function()
    assert.truthy(message("Button[0]"):find('"Button[0]": `[0]` at column 7: positions count from 1', 1, true))
    assert.truthy(message('Row#"a b'):find("the quote opened at column 5 is not closed", 1, true))
    assert.truthy(message("Row#"):find("the `#` at column 4 needs an id after it", 1, true))
    assert.truthy(message("Stack >"):find("`>` at column 7 needs a selector after it", 1, true))
    assert.truthy(message("A > > B"):find("`>` at column 5 follows another `>`", 1, true))
    assert.truthy(message("> B"):find("`>` at column 1 has no selector before it", 1, true))
    assert.truthy(message("Button[2]x"):find("`x` at column 10 follows a whole selector", 1, true))
    assert.truthy(message("Button[a]"):find("the `[` at column 7 holds neither a position", 1, true))
    assert.truthy(message("[2]"):find("the `[` at column 1 has nothing before it", 1, true))
    assert.truthy(message("A//B"):find("`/` at column 3 follows another `/`", 1, true))
    assert.truthy(message("/A"):find("`/` at column 1 has no step before it", 1, true))
    assert.truthy(message("A/"):find("`/` at column 2 needs a selector after it", 1, true))
    assert.truthy(message("A/B > C"):find("a path (`A/B`, as ckrun prints one) has `/` between all its steps", 1, true))
    assert.truthy(message('B[title=x]'):find("the attribute `title` at column 2 needs its text in quotes", 1, true))
    assert.truthy(message('B[2][title="x"]'):find("the `[` at column 5 follows the position", 1, true))
    assert.truthy(message("Button[2"):find("the `[` at column 7 is not closed", 1, true))
    assert.truthy(message("Row#a#b#c"):find("the `#` at column 8 is a third id", 1, true))
    assert.truthy(message(""):find("it names no component", 1, true))
  end)

  it("still gives the grammar", function()
    assert.truthy(message("Row#"):find("^%[badQuery%].*Class#id#key"))
  end)
end)

describe("a component class name", function()
  it("is refused when a query would read it as structure", function()
    for _, name in ipairs({"My Row", "x#y", "p>q", "a/b", "S[2]", "a]", "*", "", "tab\there", "nl\nx"}) do
      local ok, err = pcall(ck.component, name, {})
      assert.is_false(ok, name)
      assert.truthy(tostring(err):find("^%[badArgument%].*ck%.component: the class name"), tostring(err))
    end
  end)

  it("may hold other text, and its printed name finds it", function()
    local Q = ck.component('Q"Row\\', {})
    local Star = ck.component("Row*", {})
    local h = ck.host(function() return ck.Stack{children = {Q{}, Star{}}} end)
    assert.are.equal('Q"Row\\', h:find('Q"Row\\').name)
    assert.are.equal("Row*", h:find("Row*").name)
    h:destroy()
  end)
end)

describe("the dump's keys", function()
  it("bracket reserved words, so a string key never reads as true, nil or end", function()
    local S = ck.component("ReservedKeys", {scope = true,
      initialState = {["true"] = "s", [true] = "b", ["end"] = 1, ["nil"] = 2, name = 3}})
    local h = ck.host(function() return S{} end)
    assert.are.equal('ReservedKeys state={["end"] = 1, ["nil"] = 2, ["true"] = "s", [true] = "b", name = 3}\n', h:dump())
    h:destroy()
  end)

  it("write every attribute key as a table constructor does", function()
    local V = ck.component("AttrKeys", {view = function() return {class = "UIButton",
      attributes = {title = "T", ["a b"] = 1, ["x=y"] = 2, [true] = "b", [1.5] = "f"}} end})
    local h = ck.host(function() return V{} end)
    assert.are.equal('AttrKeys <UIButton ["a b"]=1 ["x=y"]=2 [1.5]="f" [true]="b" title="T", unmounted>\n', h:dump())
    h:destroy()
  end)
end)
