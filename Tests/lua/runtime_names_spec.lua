-- Names the runtime answers on an instance or a class cannot be defined (attack atk-ck3 10): a
-- controller method `component` was shadowed by the controller's component, a component method
-- `updateState` never ran, `Row.name = "Other"` was dropped; all without a word. And a bad
-- def.actions entry names its field, not an argument #4 that does not exist (atk-ck3 11).

local function raised(f, ...) return select(2, pcall(f, ...)) end

describe("a runtime name defined on a class", function()
  it("is refused on a controller: component, view, class, name, scope, isInvalidated", function()
    for _, name in ipairs({"component", "view", "class", "name", "scope", "isInvalidated"}) do
      local err = raised(ck.controller, "NamesController", {[name] = function(self) return "helper" end})
      assert.matches("^%[badArgument%] [^ ]*runtime_names_spec%.lua:%d+: ck%.controller%(\"NamesController\"%): \"" .. name .. "\" is", err)
      assert.matches("rename", err)
    end
  end)

  it("is refused on a component class, in its definition and assigned later", function()
    assert.matches("^%[badArgument%] .*ck%.component%(\"NamesRow\"%): \"updateState\" is .*rename",
      raised(ck.component, "NamesRow", {scope = true, updateState = function(self, v) end}))
    local Row = ck.component("NamesRow", {scope = true})
    assert.matches("^%[badArgument%] .*\"name\" is", raised(function() Row.name = "Other" end))
    assert.matches("^%[badArgument%] .*\"action\" is", raised(function() Row.action = function() end end))
    assert.matches("^%[badArgument%] .*\"props\" is", raised(function() function Row:props() end end))
    assert.are.equal("NamesRow", Row.name)
    Row.helper = function() end   -- any other name is a method
  end)
end)

describe("a bad def.actions entry", function()
  it("is named as a field of argument #2", function()
    assert.matches("ck%.component%(\"ActionsW\"%): argument #2 %(def%.actions%.on%) must be an array of type names, got number 5",
      raised(ck.component, "ActionsW", {actions = {on = 5}}))
    assert.matches("ck%.component%(\"ActionsW\"%): argument #2 %(def%.actions%.on%[2%]%) must be a type name string, got number",
      raised(ck.component, "ActionsW", {actions = {on = {"int", 5}}}))
  end)

  it("at a key that is no name is refused: no props table could give it", function()
    assert.matches("^%[badArgument%] .*ck%.component%(\"ActionsK\"%): def%.actions has an entry at key 1; name each action prop",
      raised(ck.component, "ActionsK", {actions = {[1] = {"int"}}}))
  end)
end)
