describe("the controller actions example", function()
  it("lets the controller handle the action and keep its count across generations", function()
    local realPrint = print
    _G.print = function() end
    require("controller_actions")
    _G.print = realPrint
    local controller = ck.controllerOf(app.root)
    assert.are.equal(2, controller.likes)
    assert.are.equal(2, app.root.state)
    assert.are.equal("♥ 2", app:find("Button").view.attributes.title)
    app:tap("Button")
    ck.flush()
    assert.are.equal(controller, ck.controllerOf(app.root))
    assert.are.equal(3, app.root.state)
  end)
end)
