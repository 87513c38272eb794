-- What `.reload` relies on (docs/repl.md): a host takes a new provider keeping scopes by
-- identity, and classes redefined under the same names take over at the next build.

describe("reloading a host", function()
  it("keeps state and controllers by scope, and a redefined controller class's handlers apply", function()
    local function define(greeting)
      ck.controller("ReloadedController", {
        didInit = function(self) self.inits = (self.inits or 0) + 1 end,
        greet = function(self) self.greeted = greeting end,
      })
      return ck.component("Reloaded", {scope = true, initialState = 1,
        render = function(self, props, n) return ck.Text{text = greeting .. " " .. n} end})
    end
    local C = define("hello")
    local host = ck.host(function() return C{} end)
    host:mount()
    host.root:updateState(2)
    ck.flush()
    local k = ck.controllerOf(host.root)
    C = define("bonjour")
    host:reload(function() return C{} end)
    assert.are.equal(k, ck.controllerOf(host.root), "the same controller")
    assert.are.equal(1, k.inits, "not made again")
    assert.are.equal(2, host.root.state, "state kept")
    assert.are.equal("bonjour 2", host:find("Text").props.text)
    ck.action(k, "greet"):send(nil)
    assert.are.equal("bonjour", k.greeted, "the redefined class's handler")
  end)

  it("rolls back a reload whose build fails: the previous provider stays", function()
    local C = ck.component("ReloadRollback", {scope = true, initialState = 7,
      render = function(self, props) return ck.Text{text = props.label} end})
    local host = ck.host(function() return C{label = "old"} end)
    host:mount()
    assert.error_matches(function() host:reload(function() error("bad provider") end) end,
      "^%[buildFailed%].*bad provider")
    host:update()
    assert.are.equal("old", host:find("Text").props.text)
    assert.are.equal(7, host.root.state)
  end)

  it("renders pure components again, props unchanged (atk-ck4 01: CK's testReload_ComponentIsNotReused)", function()
    local renders, theme = 0, "light"
    local Pure = ck.component("ReloadedPure", {pure = true, render = function()
      renders = renders + 1
      return ck.Text{text = theme}
    end})
    local ScopedPure = ck.component("ReloadedScopedPure", {pure = true, scope = true, initialState = 3,
      render = function(self, p, s) renders = renders + 1; return ck.Text{text = theme .. s} end})
    local provider = function(m) return ck.Stack{children = {Pure{color = m}, ScopedPure{color = m}}} end
    local h = ck.host(provider, {model = "red"})
    h:mount()
    assert.are.equal(2, renders)
    h:update("red")
    assert.are.equal(2, renders, "an update keeps them")
    theme = "dark"
    h:reload(provider)
    assert.are.equal(4, renders)
    local texts = h:findAll("Text")
    assert.are.equal("dark", texts[1].props.text)
    assert.are.equal("dark3", texts[2].props.text, "state kept by scope")
    h:update("red")
    assert.are.equal(4, renders, "kept again after the reload")
    h:destroy()
  end)
end)
