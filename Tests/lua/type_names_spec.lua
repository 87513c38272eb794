-- A type name means one thing (SPEC §6.4): every definer refuses a name another definer or the
-- type system owns (attack atk-spec 01: ck.component("Pt") after ck.struct("Pt")).

local here = "Tests/lua/type_names_spec.lua:"

describe("a type name", function()
  it("taken by a struct is refused to ck.component and ck.controller", function()
    ck.struct("TakenPt", {x = "int"})
    local line = debug.getinfo(1, "l").currentline + 1
    local ok, err = pcall(ck.component, "TakenPt", {})
    assert.is_false(ok)
    assert.are.equal("[badArgument] " .. here .. line .. ': ck.component: "TakenPt" is already a struct (ck.struct); give the class a name of its own', err)
    assert.matches('ck.controller: "TakenPt" is already a struct', select(2, pcall(ck.controller, "TakenPt", {})))
  end)

  it("of the type system is refused to every definer", function()
    for _, name in ipairs{"int", "integer", "float", "boolean", "bool", "number", "string", "table", "function", "any", "id", "Event"} do
      assert.matches('ck.component: "' .. name .. '" is already a built%-in type', select(2, pcall(ck.component, name, {})))
      assert.matches('ck.controller: "' .. name .. '" is already a built%-in type', select(2, pcall(ck.controller, name, {})))
      assert.matches('ck.struct: "' .. name .. '" is already a built%-in type', select(2, pcall(ck.struct, name, {x = "int"})))
    end
  end)

  it("of a component class is refused to ck.controller, and the reverse", function()
    ck.component("TakenByComponent", {})
    assert.matches('ck.controller: "TakenByComponent" is already a component class', select(2, pcall(ck.controller, "TakenByComponent", {})))
    ck.controller("TakenByController", {})
    assert.matches('ck.component: "TakenByController" is already a controller class', select(2, pcall(ck.component, "TakenByController", {})))
  end)

  it("is still redefined by its own definer", function()
    ck.component("Redefined", {})
    assert.has_no.errors(function() ck.component("Redefined", {}) end)
    ck.controller("RedefinedController", {})
    assert.has_no.errors(function() ck.controller("RedefinedController", {}) end)
  end)
end)
