-- Class(props) of a pure scoped class whose scope's instance the build would keep anyway returns
-- that instance (issue 28: no component is made only to be compared and dropped).
describe("Class(props) of a kept pure scoped component", function()
  local function app(Row)
    local made = {}
    local host = ck.host(function(m)
      local row = Row{key = "a", label = m.label}
      made[#made + 1] = row
      return ck.Stack{children = {row, ck.Text{text = m.noise}}}
    end, {model = {label = "x", noise = 1}})
    host:mount()
    return host, made
  end

  it("returns the mounted instance when its props are unchanged", function()
    local Row = ck.component("KeptRow", {scope = true, pure = true, view = {class = "UILabel"}})
    local host, made = app(Row)
    host:update({label = "x", noise = 2})
    assert.are.equal(made[1], made[2])
    assert.are.equal(made[1], host:find("KeptRow"))
    assert.are.equal(2, host.view.subviews[2].attributes.text)
  end)

  it("returns a new instance when its props changed", function()
    local Row = ck.component("ChangedRow", {scope = true, pure = true, view = function(self, p)
      return {class = "UILabel", attributes = {text = p.label}}
    end})
    local host, made = app(Row)
    host:update({label = "y", noise = 1})
    assert.are_not.equal(made[1], made[2])
    assert.are.equal(made[2], host:find("ChangedRow"))
    assert.are.equal("y", host.view.subviews[1].attributes.text)
  end)

  it("returns a new instance when its scope has an update pending", function()
    local Row = ck.component("PendingRow", {scope = true, pure = true, initialState = 0})
    local host, made = app(Row)
    made[1]:updateState(5)
    host:update({label = "x", noise = 1})
    assert.are_not.equal(made[1], made[#made])
    assert.are.equal(5, host:find("PendingRow").state)
  end)

  it("leaves a class with shouldUpdate to the build", function()
    local Row = ck.component("PickyRow", {scope = true, pure = true, shouldUpdate = function() return false end})
    local host, made = app(Row)
    host:update({label = "y", noise = 1})
    assert.are_not.equal(made[1], made[2])
    assert.are.equal(made[1], host:find("PickyRow"))
  end)
end)
