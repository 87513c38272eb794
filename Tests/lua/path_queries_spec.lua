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

-- Every printer writes the one path, [N] included (atk-apps3 01: [actionFailed] and c.path wrote
-- A/Stack/Stack/Row#2 for the row in the second Stack, which found nothing).
describe("a path in a message, c.path and ckrun tree's JSON", function()
  local Row = ck.component("PrintedRow", {scope = function(p) return p.id end,
    render = function(self, p)
      if _G.printedBoom and p.id == 2 then error("bad row") end
      return ck.Button{title = "r" .. p.id, action = self:action("boom")}
    end, boom = function() end})
  local App = ck.component("PrintedApp", {render = function()
    return ck.Stack{children = {ck.Stack{children = {ck.Text{text = "header"}}},
      ck.Stack{children = {Row{id = 1}, Row{id = 2}}}}}
  end})
  local h
  before_each(function() h = ck.host(App); h:mount() end)
  after_each(function() h:destroy() end)

  it("c.path writes [N] and finds the component", function()
    for _, c in ipairs(h:findAll("*")) do
      assert.are.equal(c, h:find(c.path), c.path)
    end
    assert.are.equal("PrintedApp/Stack/Stack[2]/PrintedRow#2", h:find("PrintedRow#2").path)
  end)

  it("the path a [buildFailed] message names is a query", function()
    local boom = h:find("PrintedRow#2")
    _G.printedBoom = true
    local ok, err = pcall(h.update, h)
    _G.printedBoom = nil
    assert.is_false(ok)
    local path = tostring(err):match("the render of (%S+);")
    assert.are.equal("PrintedApp/Stack/Stack[2]/PrintedRow#2", path)
    assert.are.equal(boom, h:find(path))
  end)

end)
