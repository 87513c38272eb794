-- What a script sees of a set of scopes or hosts comes in one order, the same in every run:
-- scopes in tree order, hosts in the order made (never the hash order of a Swift dictionary,
-- seeded per process).
-- The outsider's attack on ComponentKit semantics, break 08.

local function ids(n) local t = {} for i = 1, n do t[i] = i end return t end

describe("invalidateController order", function()
  it("follows the tree when several scopes leave in one build", function()
    local log = {}
    ck.controller("OrderRowController", {invalidateController = function(self) log[#log + 1] = self.component.props.id end})
    local Row = ck.component("OrderRow", {scope = function(p) return p.id end})
    local n = 12
    local h = ck.host(function() local ch = {} for i = 1, n do ch[i] = Row{id = i} end return ck.Stack{children = ch} end)
    h:mount()
    n = 0; h:update(nil)
    assert.same(ids(12), log)
  end)

  it("follows the tree on destroy, parents first, whatever order the scopes were made in", function()
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
    assert.same({1, 101, 102, 2, 201, 202, 3, 301, 302, 4, 401, 402, 5, 501, 502, 6, 601, 602}, log)
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

describe("invalidateController order of scopes made inside out", function()
  it("is the tree's, as didUnmount's (Lua makes N{kids = {N{}}}'s inner instance first)", function()
    local log = {}
    ck.controller("OrderNestController", {
      didUnmount = function(self) log[#log + 1] = "u" .. self.component.props.id end,
      invalidateController = function(self) log[#log + 1] = self.component.props.id end})
    local N = ck.component("OrderNest", {scope = function(p) return p.id end,
      render = function(self, p) return p.kids and ck.Stack{children = p.kids} or nil end})
    local gone = false
    local h = ck.host(function()
      if gone then return nil end
      return N{id = "P", kids = {N{id = "A"}, N{id = "B", kids = {N{id = "B1"}}}}}
    end)
    h:mount()
    gone = true; h:update(nil)
    assert.same({"uA", "uB1", "uB", "uP", "P", "A", "B", "B1"}, log)
  end)
end)
