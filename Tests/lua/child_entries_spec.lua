-- An unkeyed child is told apart from its siblings by its entry of the children list, `false`
-- and nil entries counted (React's rule for `cond && X`): an optional sibling appearing before
-- it keeps its view (attack atk-apps 03: the focused Submit's view went to the new button).
local Form = ck.component("EntriesForm", {
  scope = true, initialState = false,
  render = function(self, p, err)
    return ck.Stack{children = {
      err and ck.Button{title = "Dismiss", action = self:action("dismiss")},
      ck.Button{title = "Reset", action = self:action("reset")},
      ck.Button{title = "Submit", action = self:action("submit")},
    }}
  end,
  submit = function(self) self:updateState(true, "sync") end,
  dismiss = function(self) self:updateState(false, "sync") end,
  reset = function() end,
})

local function viewTitled(host, title)
  for _, b in ipairs(host:findAll("Button")) do
    if b.props.title == title then return b.view end
  end
end

describe("an unkeyed child's place", function()
  it("is its entry, holes counted: a sibling appearing before it keeps its view", function()
    local host = ck.host(Form); host:mount()
    local reset, submit = viewTitled(host, "Reset"), viewTitled(host, "Submit")
    host:tap("Button[2]")
    assert.are.equal(3, #host:findAll("Button"))
    assert.are.equal(reset, viewTitled(host, "Reset"))
    assert.are.equal(submit, viewTitled(host, "Submit"))
    local dismiss = viewTitled(host, "Dismiss")
    assert.is_true(dismiss ~= reset and dismiss ~= submit)
  end)

  it("is kept when the optional sibling goes again", function()
    local host = ck.host(Form); host:mount()
    host:tap("Button[2]")
    local submit = viewTitled(host, "Submit")
    host:tap("Button")   -- Dismiss
    assert.are.equal(2, #host:findAll("Button"))
    assert.are.equal(submit, viewTitled(host, "Submit"))
  end)

  it("counts nil entries too", function()
    local host = ck.host(function(show)
      return ck.Stack{children = {[1] = show and ck.Text{text = "a"} or nil, [2] = ck.Text{text = "b"}}}
    end, {model = false})
    host:mount()
    local b = host:find("Text").view
    host:update(true)
    assert.are.equal(b, host:findAll("Text")[2].view)
  end)
end)
