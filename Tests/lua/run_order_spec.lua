-- What a script sees of a set of scopes or hosts comes in one order, the same in every run: the
-- order they were made (never the hash order of a Swift dictionary, seeded per process).
-- The outsider's attack on ComponentKit semantics, break 08.

local function ids(n) local t = {} for i = 1, n do t[i] = i end return t end

describe("invalidateController order", function()
  it("follows the order the scopes were made when several leave in one build", function()
    local log = {}
    ck.controller("OrderRowController", {invalidateController = function(self) log[#log + 1] = self.component.props.id end})
    local Row = ck.component("OrderRow", {scope = function(p) return p.id end})
    local n = 12
    local h = ck.host(function() local ch = {} for i = 1, n do ch[i] = Row{id = i} end return ck.Stack{children = ch} end)
    h:mount()
    n = 0; h:update(nil)
    assert.same(ids(12), log)
  end)

  it("puts parents before their children, siblings in the order first built, on destroy", function()
    local log = {}
    ck.controller("OrderNodeController", {invalidateController = function(self) log[#log + 1] = self.component.props.id end})
    local Node
    Node = ck.component("OrderNode", {scope = function(p) return p.id end,
      render = function(self, p)
        if p.id < 100 then return ck.Stack{children = {Node{id = p.id * 100 + 1}, Node{id = p.id * 100 + 2}}} end
      end})
    local h = ck.host(function() local ch = {} for i = 1, 6 do ch[i] = Node{id = i} end return ck.Stack{children = ch} end)
    h:mount()
    h:destroy()
    -- The provider makes 1..6; each then renders (in tree order) and makes its two children.
    assert.same({1, 2, 3, 4, 5, 6, 101, 102, 201, 202, 301, 302, 401, 402, 501, 502, 601, 602}, log)
  end)
end)

describe("hosts", function()
  it("build their pending updates at flush in the order they were made", function()
    local log = {}
    local Leaf = ck.component("OrderLeaf", {scope = true, initialState = 0,
      render = function(self, p, s) log[#log + 1] = p.n end})
    local hosts = {}
    for i = 1, 12 do hosts[i] = ck.host(function() return Leaf{n = i} end); hosts[i]:mount() end
    log = {}
    for i = 12, 1, -1 do hosts[i].root:updateState(1) end
    ck.flush()
    assert.same(ids(12), log)
  end)
end)
