-- SPEC §3 (a failing build is rolled back, its updates dropped, [buildFailed] raised once),
-- §5 (ck.flush continues past a failing host) and §6.2 (equal actions, equal identifiers).

describe("a build that raises", function()
  local function counter(name, failAt)
    return ck.component(name, {scope = true, initialState = 0,
      render = function(self, props, state)
        if state == failAt then error("render broke at " .. state) end
        return ck.Text{text = name .. " " .. state}
      end})
  end

  it("is raised once as [buildFailed] naming the render and the dropped scopes, then the render's error", function()
    local C = counter("Broken", 2)
    local host = ck.host(function() return C{} end)
    host:mount()
    host.root:updateState(2)
    local ok, err = pcall(ck.flush)
    assert.is_false(ok)
    assert.is_not_nil(err:find("^%[buildFailed%]"), err)
    assert.is_not_nil(err:find("render of Broken", 1, true), "names the component whose render raised")
    assert.is_not_nil(err:find("state updates of Broken were dropped", 1, true), "names the dropped scopes")
    assert.is_not_nil(err:find("build_failures_spec.lua:%d+: render broke at 2"), "then the render's own message")
    assert.is_not_nil(err:find("stack traceback:", 1, true), "and its traceback")
    -- The next turn does not fail again: the update was dropped.
    assert.has_no.errors(ck.flush)
    assert.are.equal(0, host.root.state)
    assert.are.equal("Broken 0", host:find("Text").props.text)
    host.root:updateState(1)
    ck.flush()
    assert.are.equal(1, host.root.state)
  end)

  it("raised by a sync update reaches the updateState call once, with the caller's file:line", function()
    local C = counter("BrokenSync", 1)
    local host = ck.host(function() return C{} end)
    host:mount()
    local ok, err = pcall(function() host.root:updateState(1, "sync") end)
    assert.is_false(ok)
    assert.is_not_nil(err:find("^%[buildFailed%] [^:]*build_failures_spec.lua:%d+:"), err)
    assert.has_no.errors(ck.flush)
    assert.are.equal(0, host.root.state)
  end)

  it("keeps the previous model after a failed host:update(model)", function()
    local seen = {}
    local C = ck.component("Modelled", {render = function(self, props)
      if props.bad then error("bad model") end
      return ck.Text{text = props.name}
    end})
    local function provider(model) seen[#seen + 1] = model.name return C(model) end
    local host = ck.host(provider, {model = {name = "first"}})
    host:mount()
    assert.error_matches(function() host:update({name = "second", bad = true}) end, "^%[buildFailed%].*host:update.*bad model")
    assert.are.equal("first", host:find("Text").props.text)
    host:reload(provider)   -- rebuilds with the host's current model
    assert.are.equal("first", seen[#seen])
  end)

  it("does not stop ck.flush from building the other hosts; the first error is raised", function()
    local Bad, Good = counter("FlushBad", 1), counter("FlushGood", -1)
    local bad = ck.host(function() return Bad{} end)
    local good = ck.host(function() return Good{} end)
    bad:mount()
    good:mount()
    bad.root:updateState(1)
    good.root:updateState(5)
    assert.error_matches(ck.flush, "^%[buildFailed%].*FlushBad")
    assert.are.equal(5, good.root.state)
    assert.are.equal(0, bad.root.state)
  end)

  it("names the update function when a queued transform raises", function()
    local C = counter("Transformed", -1)
    local host = ck.host(function() return C{} end)
    host:mount()
    host.root:updateState(function() error("transform broke") end)
    assert.error_matches(ck.flush, "^%[buildFailed%].*update function queued for Transformed.*transform broke")
    assert.has_no.errors(ck.flush)
  end)

  it("is the first build too: [buildFailed] naming the render, then its own message and traceback", function()
    local D = ck.component("FirstBuildBroken", {render = function() error("boom in render") end})
    local hosts = ck.stats().hosts
    local ok, err = pcall(ck.host, function() return D{} end)
    assert.is_false(ok)
    assert.matches("^%[buildFailed%] [^\n]*build_failures_spec%.lua:%d+: the first build of a host %(generation 1%) raised in the render of FirstBuildBroken; nothing was built or mounted and no host was made", err)
    assert.matches("\n[^\n]*build_failures_spec.lua:%d+: boom in render\nstack traceback:", err)
    assert.are.equal(hosts, ck.stats().hosts)
  end)

  it("wraps a runtime error of the first build, whose own id follows on the next line", function()
    assert.error_matches(function() ck.host(function() return 42 end) end,
      "^%[buildFailed%] [^\n]*the first build of a host %(generation 1%) raised in the host's provider.*\n%[badReturn%]")
  end)
end)

describe("action identity", function()
  it("compares a plain-table target by identity: equal actions, equal identifiers", function()
    local t = {m = function() end, n = function() end}
    local u = {m = function() end}
    assert.is_true(ck.action(t, "m") == ck.action(t, "m"))
    assert.are.equal(ck.action(t, "m"):identifier(), ck.action(t, "m"):identifier())
    assert.is_false(ck.action(t, "m") == ck.action(u, "m"))
    assert.are_not.equal(ck.action(t, "m"):identifier(), ck.action(u, "m"):identifier())
    assert.is_false(ck.action(t, "m") == ck.action(t, "n"))
    assert.are_not.equal(ck.action(t, "m"):identifier(), ck.action(t, "n"):identifier())
  end)

  it("gives unequal actions of every kind different identifiers", function()
    local C = ck.component("Identified", {scope = function(p) return p.id end, m = function() end})
    local host = ck.host(function() return ck.Stack{children = {C{id = 1}, C{id = 2}}} end)
    local a, b = host:findAll("Identified")[1], host:findAll("Identified")[2]
    local f, g = function() end, function() end
    local actions = {ck.action("m"), ck.action("n"), a:action("m"), b:action("m"), ck.action(a, "m"),
                     ck.action(b, "m"), ck.action(f), ck.action(g)}
    for i, x in ipairs(actions) do
      for j, y in ipairs(actions) do
        assert.are.equal(i == j, x == y)
        assert.are.equal(i == j, x:identifier() == y:identifier(), x:identifier() .. " vs " .. y:identifier())
      end
    end
    assert.is_true(a:action("m") == host:find("Identified#1"):action("m"))
    assert.are.equal(ck.action(f):identifier(), ck.action(f):identifier())
  end)
end)

describe("what a failed build leaves behind", function()
  it("makes a scope action made during it a no-op (SPEC §6.3)", function()
    local made
    local C = ck.component("MadeInFailure", {scope = true, initialState = 0,
      render = function(self, props, n)
        if n == 1 then
          made = self:action("hit")
          error("fails after making an action")
        end
      end,
      hit = function() error("must not be called") end})
    local host = ck.host(function() return C{} end)
    host:mount()
    host.root:updateState(1)
    assert.error_matches(ck.flush, "^%[buildFailed%]")
    assert.is_false(made:send(nil))
  end)
end)

describe("host responders", function()
  it("are the very tables given, and a reload of the provider keeps them (SPEC §6.1)", function()
    local first = {name = "First", methods = {ping = function() end}}
    local C = ck.component("WithResponders", {scope = true, initialState = 3})
    local host = ck.run(function() return C{} end, {responders = {first}})
    local chain = ck.responderChain(host.root)
    assert.is_true(rawequal(first, chain[#chain]))
    host:reload(function() return C{} end)
    chain = ck.responderChain(host.root)
    assert.is_true(rawequal(first, chain[#chain]), "a provider-only reload keeps the responders")
    assert.are.equal(3, host.root.state)
    host:destroy()
  end)
end)

describe("a build that raises deep in the tree", function()
  it("names the component by its path's ends, so the message stays small at any depth", function()
    local Level
    Level = ck.component("Level", {render = function(self, p)
      if p.n == 0 then error("the leaf broke") end
      return Level{n = p.n - 1}
    end})
    local ok, err = pcall(ck.host, function() return Level{n = 2000} end)
    assert.is_false(ok)
    local first = err:match("^[^\n]*")
    assert.is_not_nil(first:find("^%[buildFailed%]"), first)
    assert.is_not_nil(first:find("render of Level/Level/… 1991 more …/Level/Level/Level/Level/Level/Level/Level/Level;", 1, true), first)
    assert.is_true(#first < 400, "the first line is " .. #first .. " bytes")
  end)
end)
