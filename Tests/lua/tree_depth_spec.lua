-- A render that returns its own class without a base case would build forever: a build warns
-- once at 10,000 components deep and stops past ck.config.maxDepth with [treeTooDeep], naming
-- the class that repeats and where its render is (docs/api.md, ck.config).

describe("a tree deeper than ck.config.maxDepth", function()
  local saved
  before_each(function() saved = ck.config.maxDepth end)
  after_each(function() ck.config.maxDepth = saved end)

  it("stops the build with [treeTooDeep] at the render that repeats", function()
    ck.config.maxDepth = 50
    local Runaway
    local line = debug.getinfo(1, "l").currentline + 1
    Runaway = ck.component("Runaway", {render = function(self, p)
      return ck.Stack{children = {ck.Text{text = "x"}, Runaway{}}}
    end})
    local ok, err = pcall(ck.host, function() return Runaway{} end)
    assert.is_false(ok)
    assert.matches("%[treeTooDeep%] [^:]*tree_depth_spec%.lua:" .. line .. ": building generation 1 rendered more than ck%.config%.maxDepth %(50%)", err)
    assert.matches("Runaway %(render at [^)]*:" .. line .. "%) is 25 of the last 51 components", err)
  end)

  it("rolls back a state update whose build goes too deep, keeping the tree", function()
    local Grow
    Grow = ck.component("Grow", {scope = true, initialState = 1, render = function(self, p, s)
      local n, limit = p.n or 1, p.limit or s
      if n < limit then return Grow{n = n + 1, limit = limit} end
    end})
    local host = ck.host(Grow)
    host:mount()
    ck.config.maxDepth = 20
    local ok, err = pcall(host.root.updateState, host.root, 100, "sync")
    assert.is_false(ok)
    assert.matches("^%[buildFailed%].*%[treeTooDeep%]", err)
    assert.are.equal(1, host.generation)
    host.root:updateState(10, "sync")
    assert.are.equal(2, host.generation)
  end)

  it("is warned once a build at 10,000 deep, and the build goes on", function()
    local warnings = {}
    ck.config.onWarning = function(m) warnings[#warnings + 1] = m end
    local Hop
    Hop = ck.component("DeepHop", {render = function(self, p)
      if p.n > 1 then return Hop{n = p.n - 1} end
    end})
    local host = ck.host(function() return Hop{n = 10001} end)
    ck.config.onWarning = nil
    assert.are.equal(1, #warnings)
    assert.matches("^%[treeTooDeep%] .*rendered 10000 components deep.*Building on", warnings[1])
    assert.are.equal(10001, host.root.props.n)
  end)

  it("stops at 10,000 deep when each level was given the props, key and state of the one above", function()
    local Tree
    local line = debug.getinfo(1, "l").currentline + 1
    Tree = ck.component("SameTree", {scope = true, initialState = function() return {open = true} end, render = function(self, p)
      return ck.View{class = "UIView", child = Tree{}}
    end})
    local ok, err = pcall(ck.host, function() return Tree{} end)
    assert.is_false(ok)
    assert.matches("%[treeTooDeep%] [^:]*tree_depth_spec%.lua:" .. line .. ": building generation 1 rendered 10000 components deep", err)
    assert.matches("each with the props, key and state of the one above it", err)
    assert.matches("Give that render a base case", err)
  end)

  it("builds on when ck.config.maxDepth was set and the base case lies outside the props", function()
    local warnings = {}
    ck.config.onWarning = function(m) warnings[#warnings + 1] = m end
    ck.config.maxDepth = 2000000
    local left = 6000
    local Counted
    Counted = ck.component("CountedTree", {render = function()
      left = left - 1
      return ck.View{class = "UIView", child = left > 0 and Counted{} or nil}
    end})
    local host = ck.host(function() return Counted{} end)
    ck.config.onWarning = nil
    assert.are.equal(0, left)
    assert.are.equal(1, #warnings)
    assert.is_not_nil(host.root)
  end)

  it("builds on past 10,000 when the props change from level to level", function()
    local warnings = {}
    ck.config.onWarning = function(m) warnings[#warnings + 1] = m end
    local Wrap
    Wrap = ck.component("LabelWrap", {render = function(self, p)
      return ck.View{class = "UIView", child = (p.n < 5100) and Wrap{n = p.n + 1, label = "same"} or nil}
    end})
    local host = ck.host(function() return Wrap{n = 1, label = "same"} end)
    ck.config.onWarning = nil
    assert.are.equal(1, #warnings)
    assert.matches("Building on", warnings[1])
    assert.are.equal(1, host.root.props.n)
  end)

  it("names where the deepest built-in was made when only built-ins nest (no 'render at ?')", function()
    ck.config.maxDepth = 50
    local providerLine = debug.getinfo(1, "l").currentline + 1
    local ok, err = pcall(ck.host, function()
      local t = ck.Text{text = "x"}
      for _ = 1, 60 do t = ck.Stack{children = {t}} end
      return t
    end)
    assert.is_false(ok)
    assert.is_nil(err:find("at ?", 1, true))
    assert.matches("%[treeTooDeep%] [^:]*tree_depth_spec%.lua:" .. providerLine .. ": building generation 1", err)
    assert.matches("Stack %(a built%-in made in the host's provider at [^)]*:" .. providerLine .. "%) is %d+ of the last %d+ components", err)
    assert.matches("raised in the build of the built%-in Stack/", err)
    assert.matches("Nest fewer built%-ins where they were made", err)
    local loopLine = debug.getinfo(1, "l").currentline + 2
    local t = ck.Text{text = "x"}
    for _ = 1, 60 do t = ck.Stack{children = {t}} end
    ok, err = pcall(ck.host, function() return t end)
    assert.is_false(ok)
    assert.matches("Stack %(a built%-in made in the script's code outside any build at [^)]*:" .. loopLine .. "%)", err)
  end)

  it("takes positive integers only", function()
    assert.has_error(function() ck.config.maxDepth = 0 end)
    assert.has_error(function() ck.config.maxDepth = 1.5 end)
    assert.are.equal(1048576, ck.config.maxDepth)
  end)
end)
