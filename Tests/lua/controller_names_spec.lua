-- def.controller naming no controller class says so, where it was named (attack atk-spec 06:
-- "CardControler" was silently no controller).

local here = "Tests/lua/controller_names_spec.lua:"

describe("def.controller naming no controller class", function()
  it("is [unknownClass] at the first build, naming the place and the near name", function()
    ck.controller("CardController", {})
    local line = debug.getinfo(1, "l").currentline + 1
    local Card = ck.component("Card", {scope = true, controller = "CardControler", render = function() return ck.Text{} end})
    local ok, err = pcall(ck.host, function() return Card{} end)
    assert.is_false(ok)
    assert.matches("%[unknownClass%] " .. here:gsub("%p", "%%%0") .. line .. ': Card names controller "CardControler", which is not defined; did you mean "CardController"%?', err)
  end)

  it("set after the definition names the assignment's line", function()
    local C = ck.component("LateNamed", {scope = true})
    local line = debug.getinfo(1, "l").currentline + 1
    C.controller = "Nowhere"
    local _, err = pcall(ck.host, function() return C{} end)
    assert.matches("%[unknownClass%] " .. here:gsub("%p", "%%%0") .. line .. ': LateNamed names controller "Nowhere", which is not defined; define it', err)
  end)

  it("is found once defined, at the next build", function()
    local C = ck.component("DefinedLater", {scope = true, controller = "LaterController"})
    assert.is_false(pcall(ck.host, function() return C{} end))
    ck.controller("LaterController", {})
    local host = ck.host(function() return C{} end)
    assert.is_not_nil(ck.controllerOf(host.root))
  end)
end)

describe("a type name naming nothing", function()
  it("is [unknownType] with the near name", function()
    ck.controller("GadgetPanelController", {})
    assert.matches('unknown type "Evnt"; did you mean "Event"%?', select(2, pcall(ck.action, "x", {"Evnt"})))
    assert.matches('unknown type "GadgetPanelControler"; did you mean "GadgetPanelController"%?', select(2, pcall(ck.action, "x", {"GadgetPanelControler"})))
  end)
end)

-- atk-new 06: a component class's name given as the controller was told "define it with
-- ck.controller("List")", which ck.controller refuses (a name means one type).
describe("def.controller naming a component class", function()
  it("says so and offers the defined NameController", function()
    ck.controller("ListedController", {})
    ck.component("Listed", {scope = true, render = function() return ck.Text{text = "x"} end})
    local O = ck.component("ListedOwner", {scope = true, controller = "Listed", render = function() return ck.Text{text = "x"} end})
    local _, err = pcall(ck.host, function() return O{} end)
    assert.matches('[unknownClass]', err, 1, true)
    assert.matches('ListedOwner names controller "Listed", which is a component class, not a controller; did you mean "ListedController"?', err, 1, true)
  end)

  it("without one, advises a controller with a name of its own", function()
    local O = ck.component("ButtonOwner", {scope = true, controller = "Button", render = function() return ck.Text{text = "x"} end})
    local _, err = pcall(ck.host, function() return O{} end)
    assert.matches('ButtonOwner names controller "Button", which is a component class, not a controller; define a controller with a name of its own (ck.controller("ButtonController", {...}))', err, 1, true)
  end)
end)
