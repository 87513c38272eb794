-- An error found in what a view function or a view table gave names that place (attack
-- atk-spec 08: [notAControl] had no file:line and blamed "the render of" a class with none).

local here = ("Tests/lua/view_errors_spec.lua:"):gsub("%p", "%%%0")

describe("[notAControl]", function()
  it("from a view function names the view function and its line", function()
    local line = debug.getinfo(1, "l").currentline + 1
    local NF = ck.component("NotControlFn", {view = function() return {class = "UILabel", attributes = {ck.onControl(ck.action("x"))}} end})
    local _, err = pcall(ck.host, function() return ck.Stack{children = {NF{}}} end)
    assert.matches("raised in the view function of Stack/NotControlFn", err)
    assert.matches("%[notAControl%] " .. here .. line .. ": ck.onControl on a UILabel in Stack/NotControlFn", err)
  end)

  it("from a view table names the class's definition", function()
    local line = debug.getinfo(1, "l").currentline + 1
    local NT = ck.component("NotControlTable", {view = {class = "UILabel", attributes = {ck.onControl(ck.action("x"))}}})
    local _, err = pcall(ck.host, function() return NT{} end)
    assert.matches("raised in the view of NotControlTable", err)
    assert.matches("%[notAControl%] " .. here .. line .. ": ck.onControl on a UILabel in NotControlTable", err)
  end)

  it("from ck.View names the function that made it", function()
    local line = debug.getinfo(1, "l").currentline + 1
    local _, err = pcall(ck.host, function() return ck.View{class = "UILabel", attributes = {ck.onControl(ck.action("x"))}} end)
    assert.matches("%[notAControl%] " .. here .. line .. ": ck.onControl on a UILabel in View", err)
  end)
end)

describe("a view table without a class", function()
  it("names the class's definition", function()
    local line = debug.getinfo(1, "l").currentline + 1
    local C = ck.component("NoViewClass", {view = {attributes = {}}})
    local _, err = pcall(ck.host, function() return C{} end)
    assert.matches("%[badArgument%] " .. here .. line .. ": the view of NoViewClass needs class", err)
  end)
end)
