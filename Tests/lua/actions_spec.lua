-- SPEC §6: the responder chain, actions, sending, types, promotion and demotion.

local function names(chain)
  local out = {}
  for i, r in ipairs(chain) do
    out[i] = r.name or (type(r) == "table" and r.name) or tostring(r)
  end
  return out
end

local function cardHost(cardDef, controllerDef, opts)
  ck.controller("CardController", controllerDef or {})
  local def = {scope = true, render = function() return ck.Button{title = "go"} end}
  for k, v in pairs(cardDef or {}) do def[k] = v end
  local Card = ck.component("Card", def)
  local host = ck.host(function() return Card{} end, opts)
  host:mount()
  return host, host:find("Button"), host.root
end

describe("the responder chain", function()
  it("runs component, controller, parent, root controller, hosting view, host responders, nil", function()
    local host, button = cardHost(nil, nil, {responders = {{name = "ViewController"}, {name = "Window"}}})
    local chain = ck.responderChain(button)
    local got = {}
    for i, r in ipairs(chain) do got[i] = tostring(r) end
    assert.are.equal(6, #chain)
    assert.are.equal(button, chain[1])
    assert.are.equal(host.root, chain[2])
    assert.are.equal(ck.controllerOf(host.root), chain[3])
    assert.are.equal(host.view, chain[4])
    assert.are.equal("ViewController", chain[5].name)
    assert.are.equal("Window", chain[6].name)
    assert.is_nil(ck.nextResponder(chain[6]))
  end)

  it("gives a controller's next responder as its component's parent", function()
    ck.controller("InnerCtlController", {})
    local Inner = ck.component("InnerCtl", {scope = true})
    local Outer = ck.component("OuterCtl", {render = function() return Inner{} end})
    local host = ck.host(function() return Outer{} end)
    host:mount()
    local k = ck.controllerOf(host:find("InnerCtl"))
    assert.are.equal(host:find("InnerCtl"), k.component)
    assert.are.equal(host.root, ck.nextResponder(k))
  end)

  it("exists above a component only while it is mounted", function()
    local host = ck.host(function() return ck.Stack{children = {ck.Text{text = "x"}}} end)
    local text = host:find("Text")
    assert.is_nil(ck.nextResponder(text))
    host:mount()
    assert.are.equal(host.root, ck.nextResponder(text))
  end)

  it("finds the target with canPerformAction, default: having the method", function()
    local host, button, card = cardHost({save = function() end})
    assert.are.equal(card, ck.targetForAction(button, "save"))
    assert.is_nil(ck.targetForAction(button, "missing"))
  end)

  it("lets components and controllers override canPerformAction", function()
    local host, button, card = cardHost({save = function() end, canPerformAction = function(self, sel) return sel ~= "save" end},
                                        {save = function() end})
    assert.are.equal(ck.controllerOf(card), ck.targetForAction(button, "save"))
  end)
end)

describe("making actions", function()
  it("has four kinds with selector, types and an identifier", function()
    local host, button, card = cardHost({onTap = function(self, sender, e) end})
    local sel = ck.action("onTap", {"Event"})
    local target = ck.action(card, "onTap", {"Event"})
    local scope = card:action("onTap", {"Event"})
    local block = ck.action(function() end, {"int"})
    assert.are.same({"selector", "target", "scope", "block"}, {sel.kind, target.kind, scope.kind, block.kind})
    assert.are.equal("onTap", scope.selector)
    assert.are.same({"Event"}, scope.types)
    assert.are.equal("string", type(scope:identifier()))
    assert.are_not.equal(sel:identifier(), scope:identifier())
  end)

  it("compares equal by kind, target, scope, selector and function", function()
    local host, button, card = cardHost({onTap = function() end})
    assert.is_true(card:action("onTap") == card:action("onTap"))
    assert.is_true(ck.action("x") == ck.action("x", {"int"}))
    assert.is_false(ck.action("x") == ck.action("y"))
    local f = function() end
    assert.is_true(ck.action(f) == ck.action(f))
    assert.is_false(ck.action(f) == ck.action(function() end))
  end)

  it("rejects unknown type names", function()
    assert.error_matches(function() ck.action("x", {"Nope"}) end, "^%[unknownType%]")
  end)

  it("checks scope and target handlers against the class or its controller", function()
    local host, button, card = cardHost({two = function(self, sender, a) end}, {onSave = function(self) end})
    assert.error_matches(function() card:action("missing") end, "^%[doesNotRespond%]")
    assert.is_not_nil(card:action("onSave"))
    assert.error_matches(function() card:action("two") end, "^%[tooManyArguments%]")
    assert.is_not_nil(card:action("two", {"int"}))
    assert.error_matches(function() ck.action({}, "nothing") end, "^%[doesNotRespond%]")
    assert.error_matches(function() ck.Text{text = "x"}:action("m") end, "^%[noScope%]")
  end)

  it("overrides where the walk starts with withBehavior", function()
    local got
    local host, button, card = cardHost({hit = function(self) got = self end})
    local Button = button.class
    function Button:hit() got = self end
    ck.action("hit"):send(button)
    assert.are.equal(card, got)
    ck.action("hit"):withBehavior("startAtSender"):send(button)
    assert.are.equal(button, got)
    Button.hit = nil
    assert.error_matches(function() ck.action("x"):withBehavior("sideways") end, "%[badArgument%]")
  end)
end)

describe("sending", function()
  it("calls the first responder that handles the selector and returns true", function()
    local got = {}
    local host, button, card = cardHost(nil, {didTap = function(self, sender, n) got = {self = self, sender = sender, n = n} end})
    assert.is_true(ck.action("didTap", {"int"}):send(button, 3))
    assert.are.equal(ck.controllerOf(card), got.self)
    assert.are.equal(button, got.sender)
    assert.are.equal(3, got.n)
  end)

  it("promotes by declared arity: fewer parameters receive fewer, vararg receives all", function()
    local seen = {}
    local host, button, card = cardHost({
      none = function(self, ...) seen.none = select("#", ...) end,
      zero = function(self) seen.zero = true end,
      one = function(self, sender) seen.one = sender end,
      two = function(self, sender, event) seen.two = event end,
    })
    local event = {}
    for _, sel in ipairs({"zero", "one", "two", "none"}) do
      assert.is_true(card:action(sel, {"table"}):send(button, event))
    end
    assert.is_true(seen.zero)
    assert.are.equal(button, seen.one)
    assert.are.equal(event, seen.two)
    assert.are.equal(2, seen.none)
  end)

  it("checks and converts arguments", function()
    local got
    local host, button, card = cardHost({take = function(self, s, i, n, str) got = {i, n, str} end})
    local a = card:action("take", {"int", "number", "string"})
    a:send(button, 2.0, 3, "x")
    assert.are.equal(math.type(got[1]), "integer")
    assert.are.equal(math.type(got[2]), "float")
    assert.error_matches(function() a:send(button, 2.5, 1, "x") end, "^%[badArgument%].*argument #1.*int.*number")
    assert.error_matches(function() a:send(button, 1, "x", "x") end, "^%[badArgument%].*argument #2")
    assert.error_matches(function() a:send(button, 1, 1, "x", "extra") end, "^%[badArgument%]")
    assert.error_matches(function() a:send(button, 1) end, "^%[badArgument%].*argument #2")
    a:send(button, 1, 1)   -- a missing trailing object argument counts as nil
    assert.is_nil(got[3])
  end)

  it("accepts class-typed arguments and nil for object types", function()
    local got
    local host, button, card = cardHost({take = function(self, s, c) got = c end})
    local a = card:action("take", {"Button"})
    a:send(button, button)
    assert.are.equal(button, got)
    assert.error_matches(function() a:send(button, card) end, "^%[badArgument%]")
    a:send(button, nil)
    assert.is_nil(got)
  end)

  it("raises [unhandledAction] with the chain walked", function()
    local host, button = cardHost()
    local ok, err = pcall(function() ck.action("nobody"):send(button) end)
    assert.is_false(ok)
    assert.is_not_nil(err:find("^%[unhandledAction%]"))
    assert.is_not_nil(err:find("Card -> CardController -> HostingView -> nil", 1, true))
  end)

  it("follows ck.config.unhandledAction", function()
    local host, button = cardHost()
    local warnings = {}
    ck.config.onWarning = function(m) warnings[#warnings + 1] = m end
    ck.config.unhandledAction = "warn"
    assert.is_false(ck.action("nobody"):send(button))
    ck.config.unhandledAction = "ignore"
    assert.is_false(ck.action("nobody"):send(button))
    ck.config.unhandledAction = "error"
    ck.config.onWarning = nil
    assert.are.equal(1, #warnings)
    assert.is_not_nil(warnings[1]:find("^%[unhandledAction%]"))
    assert.error_matches(function() ck.config.unhandledAction = "shout" end, "%[badArgument%]")
  end)

  it("raises [notMounted] for a selector action from an unmounted component", function()
    local C = ck.component("Unmounted", {render = function() return ck.Text{text = "x"} end})
    local host = ck.host(function() return C{} end)
    assert.error_matches(function() ck.action("anything"):send(host:find("Text")) end, "^%[notMounted%]")
  end)

  it("works for scope actions while unmounted, and is a no-op once the scope is gone", function()
    local calls = 0
    local C = ck.component("ScopeTarget", {scope = true, ping = function() calls = calls + 1 end})
    local host = ck.host(function(show) return show and C{} or nil end, {model = true})
    local a = host.root:action("ping")
    assert.is_true(a:send(nil))
    host:update(false)
    assert.is_false(a:send(nil))
    assert.are.equal(1, calls)
  end)

  it("resolves a scope action to the newest generation", function()
    local seen
    local C = ck.component("Newest", {scope = true, initialState = 0, ping = function(self) seen = self end})
    local host = ck.host(function() return C{} end)
    local a = host.root:action("ping")
    host.root:updateState(1, "sync")
    a:send(nil)
    assert.are.equal(host.root, seen)
    assert.are.equal(1, seen.state)
  end)

  it("calls block actions directly with the sender", function()
    local got
    local a = ck.action(function(sender, n) got = {sender, n} end, {"int"})
    local t = ck.Text{text = "s"}
    assert.is_true(a:send(t, 5))
    assert.are.equal(t, got[1])
    assert.are.equal(5, got[2])
  end)

  it("reaches host responders and plain table targets", function()
    local got
    local vc = {name = "ViewController", methods = {save = function(self, sender) got = self end}}
    local host, button = cardHost(nil, nil, {responders = {vc}})
    ck.action("save"):send(button)
    assert.are.equal(vc, got)
    local target = {ping = function(self, sender, n) got = n end}
    ck.action(target, "ping", {"int"}):send(button, 9)
    assert.are.equal(9, got)
  end)

  it("supports the legacy ck.actionSend with a context argument", function()
    local got
    local host, button = cardHost({legacy = function(self, sender, context) got = context end})
    assert.is_true(ck.actionSend("legacy", button, "ctx"))
    assert.are.equal("ctx", got)
    ck.actionSend(ck.action("legacy", {"string"}), button, "typed")
    assert.are.equal("typed", got)
  end)

  it("builds sync updates queued in handlers after the outermost send", function()
    local during
    local C = ck.component("SyncInHandler", {scope = true, initialState = 0,
      bump = function(self) self:updateState(function(n) return n + 1 end, "sync"); during = self.state end,
      twice = function(self) self:action("bump"):send(nil); self:action("bump"):send(nil) end})
    local host = ck.host(function() return C{} end)
    local gen = host.generation
    host.root:action("twice"):send(nil)
    assert.are.equal(0, during)
    assert.are.equal(2, host.root.state)
    assert.are.equal(gen + 1, host.generation)
  end)

  it("keeps the updates of a handler that raises for the next turn", function()
    local C = ck.component("RaisingHandler", {scope = true, initialState = 0,
      fail = function(self) self:updateState(5, "sync"); error("handler failed") end})
    local host = ck.host(function() return C{} end)
    assert.error_matches(function() host.root:action("fail"):send(nil) end, "handler failed")
    assert.are.equal(0, host.root.state)
    ck.flush()
    assert.are.equal(5, host.root.state)
  end)

  it("raises [yieldAcrossRuntime] for a yield inside a handler", function()
    local C = ck.component("Yielder", {scope = true, y = function() coroutine.yield() end})
    local host = ck.host(function() return C{} end)
    local co = coroutine.create(function() host.root:action("y"):send(nil) end)
    local ok, err = coroutine.resume(co)
    assert.is_false(ok)
    assert.is_not_nil(tostring(err):find("%[yieldAcrossRuntime%]"))
  end)
end)

describe("types", function()
  it("declares structs whose missing fields read as zero", function()
    ck.struct("Point", {x = "int", y = "number", label = "string", on = "bool"})
    local got
    local host, button, card = cardHost({moveTo = function(self, s, p) got = p end})
    card:action("moveTo", {"Point"}):send(button, {x = 2.0})
    assert.are.same({x = 2, y = 0.0, on = false}, got)
    assert.are.equal("integer", math.type(got.x))
    assert.error_matches(function() card:action("moveTo", {"Point"}):send(button, {x = "no"}) end, "^%[badArgument%]")
    assert.error_matches(function() card:action("moveTo", {"Point"}):send(button, nil) end, "^%[badArgument%]")
  end)
end)

describe("promotion and demotion", function()
  it("demotes explicitly and fills what is not provided with zero values", function()
    ck.struct("Size", {w = "number", h = "number"})
    local got
    local host, button, card = cardHost({full = function(self, s, a, b, c, d, e, f) got = {a, b, c, d, e, f, n = select("#", a, b, c, d, e, f)} end})
    local full = card:action("full", {"int", "bool", "int", "number", "string", "Size"})
    local demoted = full:demoted({"int"})
    assert.are.same({"int"}, demoted.types)
    demoted:send(button, 7)
    assert.are.equal(7, got[1])
    assert.is_false(got[2])
    assert.are.equal(0, got[3])
    assert.are.equal(0.0, got[4])
    assert.are.equal("float", math.type(got[4]))
    assert.is_nil(got[5])
    assert.are.same({w = 0.0, h = 0.0}, got[6])
    assert.error_matches(function() full:demoted({"string"}) end, "%[typeMismatch%]")
  end)

  it("checks typed action props: prefix-compatible, no longer than declared", function()
    local Slider = ck.component("Slider", {actions = {onChange = {"number", "Event"}}})
    assert.is_not_nil(Slider{onChange = nil})
    assert.is_not_nil(Slider{onChange = ck.action("x", {"any"})})
    assert.error_matches(function() Slider{onChange = ck.action("x", {"number", "Event", "int"})} end, "^%[implicitDemotion%]")
    assert.error_matches(function() Slider{onChange = ck.action("x", {"string"})} end, "^%[typeMismatch%]")
    assert.error_matches(function() Slider{onChange = 5} end, "^%[typeMismatch%]")
  end)

  it("a demoted action promoted again still hands its handler zeros, never the promoted arguments", function()
    local got = {}
    local function record(self, sender, ...) got[#got + 1] = table.pack(...) end
    local Row = ck.component("DemotedRow", {scope = true, open = record, pick = record,
      render = function(self)
        return ck.Button{title = "open", action = self:action("open", {"int"}):demoted({})}
      end})
    local host = ck.host(function() return Row{} end)
    host:mount()
    local open = host.root:action("open", {"int"}):demoted({})
    host:tap("Button")                                            -- promoted to {"Event"} by ck.Button
    local Prop = ck.component("EventProp", {actions = {cb = {"Event"}}})
    local held = Prop{cb = open}.props.cb
    held:send(host.root, nil)                                     -- sent through a prop typed {"Event"}
    held:send(host.root, nil)                                     -- a second send (a planned one)
    local Picker = ck.component("DemotedPicker", {actions = {onPick = {"int", "Event"}}})
    Picker{onPick = host.root:action("pick", {"int", "string"}):demoted({"int"})}.props.onPick:send(host.root, 5, nil)
    assert.are.same({{0, n = 1}, {0, n = 1}, {0, n = 1}, {5, nil, n = 2}}, got)
    assert.are.equal("integer", math.type(got[1][1]))
    assert.are.same({"Event"}, held.types)
  end)

  it("holds a prop's action promoted to the declared types", function()
    local got
    local host, button, card = cardHost({changed = function(self, sender, value) got = {sender, value} end})
    local Slider = ck.component("PromotingSlider", {actions = {onChange = {"number", "Event"}}})
    local s = Slider{onChange = card:action("changed", {"number"})}
    assert.are.same({"number", "Event"}, s.props.onChange.types)
    s.props.onChange:send(button, 0.5, nil)
    assert.are.equal(0.5, got[2])
  end)

  it("lets an untyped action be given to a ck.Button", function()
    local got = 0
    local host, button, card = cardHost({tapped = function(self) got = got + 1 end})
    local b = ck.Button{action = card:action("tapped")}
    assert.are.same({"Event"}, b.props.action.types)
  end)

  -- SPEC §6.1: a responder handles a selector when it "has a method" of that name; in Lua an
  -- object's methods are usually inherited through `__index` (ComponentKit's
  -- testTargetSelectorActionCallsOnNormalNSObject: the method lives in the object's class).
  it("finds a target's and a host responder's methods inherited through __index tables", function()
    local Target = {}
    Target.__index = Target
    function Target:someMethod(sender, n) self.got = n end
    local Derived = setmetatable({}, {__index = Target})
    Derived.__index = Derived
    local target = setmetatable({}, Derived)
    local Probe = ck.component("InheritProbe", {})
    ck.action(target, "someMethod", {"int"}):send(Probe{}, 7)
    assert.are.equal(7, target.got)

    local said
    local Base = {go = function(self, sender) said = self.name end}
    local vc = setmetatable({name = "VC"}, {__index = Base})
    local Leaf = ck.component("InheritLeaf", {view = {class = "UIView"}})
    local host = ck.host(function() return Leaf{} end, {responders = {vc}})
    host:mount()
    ck.action("go"):send(host.root)
    assert.are.equal("VC", said)

    -- the first level with the field decides (`t.go` is 5 here), and a cycle of __index tables ends
    local shadowed = setmetatable({go = 5}, {__index = Base})
    assert.has_error(function() ck.action(shadowed, "go") end)
    local loop = setmetatable({}, {})
    getmetatable(loop).__index = loop
    assert.has_error(function() ck.action(loop, "nothing") end)
  end)

  -- SPEC §6.1: each host's chain is its own opts.responders, in order, then nil, even when
  -- hosts share a responder table (one view controller behind two hosting views).
  it("walks each host's own responders when hosts share a responder table", function()
    local said = {}
    local vc = {name = "SharedVC"}
    local w1 = {name = "Window1", methods = {go = function() said[#said + 1] = "Window1" end}}
    local w2 = {name = "Window2", methods = {go = function() said[#said + 1] = "Window2" end}}
    local Leaf = ck.component("SharedResponderLeaf", {view = {class = "UIView"}})
    local h1 = ck.host(function() return Leaf{} end, {responders = {vc, w1}}); h1:mount()
    local h2 = ck.host(function() return Leaf{} end, {responders = {vc, w2}}); h2:mount()
    ck.action("go"):send(h1.root)
    ck.action("go"):send(h2.root)
    assert.are.same({"Window1", "Window2"}, said)
    -- the same two tables in the other order in a second pair of hosts: no cycle
    local a, b = {name = "A"}, {name = "B"}
    local g1 = ck.host(function() return Leaf{} end, {responders = {a, b}}); g1:mount()
    local g2 = ck.host(function() return Leaf{} end, {responders = {b, a}}); g2:mount()
    assert.are.equal(4, #ck.responderChain(g1.root))
    assert.are.equal("B", ck.responderChain(g1.root)[4].name)
    assert.are.equal("A", ck.responderChain(g2.root)[4].name)
  end)

  -- A table an action targets that tracked hosts list is the first made one's responder: the
  -- walk goes on along that host's list (found by the table, never by sorting every host).
  it("walks on from a targeted responder table along the first made tracked host listing it", function()
    local vc = {name = "TargetedVC"}
    local w1 = {name = "TargetedW1", methods = {go = function() end}}
    local w2 = {name = "TargetedW2", methods = {go = function() end}}
    local Leaf = ck.component("TargetedLeaf", {view = {class = "UIView"}})
    local h1 = ck.host(function() return Leaf{} end, {responders = {vc, w1, vc}})
    local h2 = ck.host(function() return Leaf{} end, {responders = {vc, w2}})
    assert.is_nil(ck.nextResponder(vc), "no host is tracked yet")
    h2:mount()
    assert.is_true(rawequal(w2, ck.nextResponder(vc)))
    h1:mount()
    assert.is_true(rawequal(w1, ck.nextResponder(vc)), "h1 was made first; a table listed twice is its first")
    assert.is_true(rawequal(w1, ck.targetForAction(vc, "go")))
    h1:unmount()
    assert.is_true(rawequal(w2, ck.targetForAction(vc, "go")))
    h2:destroy()
    assert.is_nil(ck.nextResponder(vc))
    h1:destroy()
  end)

  -- A warning says where, as the error does (SPEC §1: same form).
  it("gives the send's file:line in [unhandledAction] and [notMounted] warnings", function()
    local warnings = {}
    local saved, savedHandler = ck.config.unhandledAction, ck.config.onWarning
    ck.config.onWarning = function(m) warnings[#warnings + 1] = m end
    ck.config.unhandledAction = "warn"
    local Leaf = ck.component("WarnedLeaf", {})
    local h = ck.host(function() return Leaf{} end)
    ck.action("nope"):send(h.root)
    h:mount()
    ck.action("nope"):send(h.root)
    ck.config.unhandledAction, ck.config.onWarning = saved, savedHandler
    assert.are.equal(2, #warnings)
    assert.matches("^%[notMounted%] [^ ]*actions_spec%.lua:%d+: ", warnings[1])
    assert.matches("^%[unhandledAction%] [^ ]*actions_spec%.lua:%d+: ", warnings[2])
  end)
end)
