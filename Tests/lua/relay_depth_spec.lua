-- A ComponentKit-style relay (each handler sends the action on to its parent's chain) goes as
-- deep as Lua's own limit of nested C calls allows; a fixed 64 refused the 65th level (atk-ck3
-- 05). A runaway still ends with [stackLimit] at the script's line.

local function relay(depth)
  local seen, reached = 0, false
  local Node
  Node = ck.component("RelayNode", {render = function(self, p) if p.n > 0 then return Node{n = p.n - 1} end end,
    bubble = function(self, sender) seen = seen + 1; ck.action("bubble"):send(self) end})
  local Top = ck.component("RelayTop", {render = function() return Node{n = depth} end,
    bubble = function() reached = true end})
  local h = ck.host(function() return Top{} end)
  h:mount()
  local all = h:findAll("RelayNode")
  return function()
    seen, reached = 0, false
    ck.action("bubble"):send(all[#all])
    return seen, reached
  end
end

describe("a relay of handlers", function()
  it("150 levels deep reaches the top, through the full path and then planned", function()
    local send = relay(150)
    for _ = 1, 2 do
      local seen, reached = send()
      assert.are.equal(150, seen)
      assert.is_true(reached)
    end
  end)

  it("that never ends stops with [stackLimit] at the handler's line", function()
    local t = {}
    function t.m(self) ck.action(t, "m"):send(nil) end
    local ok, err = pcall(function() ck.action(t, "m"):send(nil) end)
    assert.is_false(ok)
    assert.matches("%[stackLimit%] [^ ]*relay_depth_spec%.lua:%d+: ", err)
  end)
end)
