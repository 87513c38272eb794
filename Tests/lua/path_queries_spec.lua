-- A path as ckrun prints it (messages, the live view's side panel, c.path) is a query that finds
-- that component: `/` steps from the root down, each step a whole label (attack atk-apps2 10).
describe("a printed path is a query", function()
  local Row = ck.component("PathRow", {render = function(self, p)
    return ck.Stack{direction = "horizontal", children = {ck.Text{text = p.t},
      ck.Button{title = "edit", action = ck.action(function() end)},
      ck.Button{title = "del", action = ck.action(function() _G.deleted = p.t end)}}}
  end})
  local App = ck.component("PathApp", {scope = true, render = function(self)
    return ck.Stack{children = {ck.Button{title = "add", action = ck.action(function() end)},
      ck.Stack{children = {Row{key = 1, t = "a"}, Row{key = 2, t = "b"}}}}}
  end})
  local h
  before_each(function() h = ck.host(App); h:mount(); _G.deleted = nil end)
  after_each(function() h:destroy(); _G.deleted = nil end)

  it("taps what the side panel calls PathApp/Stack/Stack/PathRow#2/Stack/Button[2]", function()
    assert.are.equal(1, h:tap("PathApp/Stack/Stack/PathRow#2/Stack/Button[2]"))
    assert.are.equal("b", _G.deleted)
  end)

  it("finds every component by the path the live view shows for it", function()
    local paths = {"PathApp", "PathApp/Stack", "PathApp/Stack/Button", "PathApp/Stack/Stack"}
    for _, key in ipairs({1, 2}) do
      local row = "PathApp/Stack/Stack/PathRow#" .. key
      for _, p in ipairs({row, row .. "/Stack", row .. "/Stack/Text", row .. "/Stack/Button", row .. "/Stack/Button[2]"}) do
        paths[#paths + 1] = p
      end
    end
    local all = h:findAll("*")
    assert.are.equal(#paths, #all)
    for i, path in ipairs(paths) do
      assert.are.equal(all[i], h:find(path), path)
      assert.are.equal(1, #h:findAll(path), path)
    end
  end)

  it("starts at the root and steps exactly: no descendant, no other label", function()
    assert.is_nil(h:find("Stack/PathRow#2"))         -- Stack is not the root
    assert.is_nil(h:find("PathApp/PathRow#2"))       -- a step is a child, not a descendant
    assert.is_nil(h:find("PathApp/Stack/Stack/PathRow"))  -- PathRow is a row with no key
    assert.are.equal("add", h:find("PathApp/Stack/Button").props.title)
  end)

  it("refuses a malformed path with [badQuery], never a silent nil", function()
    assert.error_matches(function() h:find("/PathApp") end, "^%[badQuery%].*root's name")
    assert.error_matches(function() h:find("PathApp/") end, "^%[badQuery%].*needs a selector after it")
    assert.error_matches(function() h:find("PathApp//Stack") end, "^%[badQuery%]")
    assert.error_matches(function() h:find("PathApp/Stack > Stack") end, "^%[badQuery%].*path")
    assert.error_matches(function() h:find("PathApp Stack/Stack") end, "^%[badQuery%].*path")
    assert.error_matches(function() h:tap("PathApp/Stack[0]") end, "^%[badQuery%]")
  end)
end)
