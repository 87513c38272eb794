-- `ck.component(name)` with no definition is refused, not an empty class: read as a getter
-- (React habit: look the class up by name) it replaced the class with one rendering nothing.
describe("ck.component with no definition", function()
  it("is [badArgument] and leaves the class as it was", function()
    local Kept = ck.component("KeptClass", {render = function() return ck.Text{text = "kept"} end})
    local ok, err = pcall(ck.component, "KeptClass")
    assert.is_false(ok)
    assert.matches("^%[badArgument%].-ck.component%(\"KeptClass\"%) was given no definition", err)
    local host = ck.host(function() return Kept{} end); host:mount()
    assert.are.equal("kept", host:find("Text").props.text)
    host:destroy()
  end)

  it("accepts an empty table", function()
    assert.is_not_nil(ck.component("EmptyClass", {}))
  end)
end)
