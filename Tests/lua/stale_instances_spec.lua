-- Instances a script keeps after a build replaced or removed them (attack atk-mem): what they
-- answer does not change when the collector runs.
describe("a kept, replaced instance", function()
  local function list()
    local Row = ck.component("StaleRow", {scope = function(p) return p.id end, initialState = {},
      render = function() return ck.Button{title = "r", action = ck.action("nobody")} end})
    local List = ck.component("StaleList", {scope = true, initialState = {gen = 0},
      render = function(_, _, s)
        return ck.Stack{children = {ck.View{class = "UIView", child = Row{id = 1, g = s.gen}}}}
      end,
      bump = function(self) self:updateState(function(o) return {gen = o.gen + 1} end) end})
    local host = ck.host(List)
    host:mount()
    return host
  end

  it("keeps the path it had in its tree after a collection", function()
    local host = list()
    local row, button = host:find("StaleRow"), host:find("Button")
    host.root:bump()
    host:flush()
    collectgarbage()
    collectgarbage()
    assert.are.equal("StaleList/Stack/View/StaleRow#1", row.path)
    assert.are.equal("StaleList/Stack/View/StaleRow#1/Button", button.path)
  end)
end)
