-- What a send reaches and what it says (the outsider's breaks 06, 09, 11, 12, 13, 17, 18):
-- every responder kind is asked through its canPerformAction (SPEC §6.1), every way a class's
-- method changes reaches sends, a handler's error reaches the caller as raised (SPEC §6.3),
-- and bad arguments and misplaced updates are named for what they are.

local function button(name, responders)
  local C = ck.component(name, {render = function() return ck.Button{title = "b"} end})
  local host = ck.host(function() return C{} end, {responders = responders})
  host:mount()
  return host, host:find("Button")
end

describe("a host responder's canPerformAction", function()
  for _, where in ipairs{"field", "methods"} do
    it("is asked, and false skips it (" .. (where == "field" and "a field of the table" or "in its methods") .. ")", function()
      local asked, ran = 0, false
      local methods = {
        canPerformAction = function(self, selector, sender) asked = asked + 1; return false end,
        close = function() ran = true end,
      }
      local window = where == "field" and methods or {methods = methods}
      window.name = "Window"
      local host, b = button("ReachHostSkip" .. where, {window})
      assert.error_matches(function() ck.action("close"):send(b) end, "^%[unhandledAction%]")
      assert.is_false(ran)
      assert.is_nil(ck.targetForAction(b, "close", b))
      assert.are.equal(2, asked)
      host:destroy()
    end)
  end

  it("gets itself, the selector and the sender, and true claims", function()
    local got
    local window = {name = "Window", canPerformAction = function(self, selector, sender)
      got = {self, selector, sender}
      return true
    end, close = function() end}
    local host, b = button("ReachHostClaim", {window})
    assert.is_true(ck.action("close"):send(b))
    assert.are.equal(window, got[1])
    assert.are.equal("close", got[2])
    assert.are.equal(b, got[3])
    assert.are.equal(window, ck.targetForAction(b, "close", b))
    host:destroy()
  end)

  it("claiming a selector the responder has no method for is [doesNotRespond], as for components", function()
    local host, b = button("ReachHostNoMethod", {{name = "Claimer", canPerformAction = function() return true end}})
    assert.error_matches(function() ck.action("anything"):send(b) end, "^%[doesNotRespond%].*Claimer claimed \"anything\"")
    host:destroy()
  end)

  it("is asked for a plain-table target too", function()
    local asked, ran = 0, false
    local plain = {canPerformAction = function() asked = asked + 1; return false end, m = function() ran = true end}
    local host, b = button("ReachPlainTarget")
    assert.error_matches(function() ck.action(plain, "m"):send(b) end, "^%[unhandledAction%]")
    assert.is_false(ran)
    assert.are.equal(1, asked)
    host:destroy()
  end)
end)

describe("replacing a method", function()
  local function scoped(name)
    local C = ck.component(name, {scope = true, view = {class = "UIView"}, m = function() error("the replaced m ran") end})
    local host = ck.host(function() return C{} end)
    host:mount()
    return C, host.root
  end

  for _, value in ipairs{42, "text", true, {}} do
    it("with a " .. type(value) .. " leaves no handler: sends walk on", function()
      local C, c = scoped("ReachNotFunction" .. type(value))
      local a = ck.action("m"):withBehavior("startAtSender")
      C.m = value
      assert.are.equal(value, C.m)
      assert.error_matches(function() a:send(c) end, "^%[unhandledAction%]")
      assert.error_matches(function() c:action("m") end, "^%[doesNotRespond%] .*ReachNotFunction%a+ has no method \"m\"")
    end)
  end

  it("of a controller class with a number leaves no handler either", function()
    local K = ck.controller("ReachKeptController", {m = function() error("the replaced m ran") end})
    local C = ck.component("ReachKept", {scope = true, controller = K, view = {class = "UIView"}})
    local host = ck.host(function() return C{} end)
    host:mount()
    K.m = 42
    assert.error_matches(function() ck.action("m"):withBehavior("startAtSender"):send(host.root) end, "^%[unhandledAction%]")
  end)

  it("with a planned send in between: the plan is dropped", function()
    local C, c = scoped("ReachNotFunctionPlanned")
    local a = ck.action("m"):withBehavior("startAtSender")
    C.m = function() end
    a:send(c)
    a:send(c)
    C.m = 42
    assert.error_matches(function() a:send(c) end, "^%[unhandledAction%]")
  end)

  it("by a callable table gives it every argument, whatever the method before took", function()
    local C, c = scoped("ReachCallableArity")
    local got
    C.m = function(self) end
    C.m = setmetatable({}, {__call = function(_, self, sender, x) got = x end})
    c:action("m", {"int"}):send(c, 4)
    assert.are.equal(4, got)
  end)

  it("by a spy passes every argument, whatever the spied function takes (a spy records them)", function()
    local C, c = scoped("ReachSpyArity")
    C.m = function(self, sender) end
    local s = spy.on(C, "m")
    c:action("m", {"int"}):send(c, 4)
    assert.spy(s).was.called_with(c, c, 4)
    C.m = function(self, sender, x) end
    s = spy.on(C, "m")
    c:action("m", {"int"}):send(c, 5)
    assert.spy(s).was.called_with(c, c, 5)
  end)
end)

describe("a nil sender", function()
  it("of a selector action is [badArgument] in every unhandledAction mode", function()
    local before = ck.config.unhandledAction
    for _, mode in ipairs{"error", "warn", "ignore"} do
      ck.config.unhandledAction = mode
      assert.error_matches(function() ck.action("save"):send(nil) end, "^%[badArgument%].*send of \"save\": the sender must be .* got nil")
      assert.error_matches(function() ck.actionSend("save", nil, "ctx") end, "^%[badArgument%].*got nil")
    end
    ck.config.unhandledAction = before
  end)

  it("of a block, scope or target action is no sender at all", function()
    local got = false
    assert.is_true(ck.action(function() got = true end):send(nil))
    assert.is_true(got)
    assert.is_true(ck.action({m = function() end}, "m"):send(nil))
  end)
end)

describe("a handler's error object", function()
  it("whose __tostring raises reaches the caller itself", function()
    local evil = setmetatable({}, {__tostring = function() error("tostring exploded") end})
    local B = ck.component("ReachEvilError", {scope = true, h = function() error(evil) end})
    local host = ck.host(function() return B{} end)
    local ok, e = pcall(function() return host.root:action("h"):send(host.root) end)
    assert.is_false(ok)
    assert.are.equal(evil, e)
  end)
end)

describe("tap and controlEvent", function()
  local host
  before_each(function()
    local C = ck.component("ReachTap", {render = function() return ck.Button{title = "b", action = ck.action("x")} end, x = function() end})
    host = ck.host(function() return C{} end)
    host:mount()
  end)

  it("say [noMatch], not [badQuery], for a query that parses and matches nothing", function()
    assert.is_nil(host:find("Nope"))
    assert.error_matches(function() host:tap("Nope") end, "^%[noMatch%] tap: nothing matches \"Nope\"")
    assert.error_matches(function() host:controlEvent("Nope", "touchUpInside") end, "^%[noMatch%] controlEvent")
    assert.error_matches(function() host:tap("A > > B") end, "^%[badQuery%]")
  end)

  it("number their arguments as Lua numbers a method's, without self", function()
    assert.error_matches(function() host:controlEvent("Button", 42) end, "host:controlEvent: argument #2 %(eventName%)")
    assert.error_matches(function() host.controlEvent(host, "Button", 42) end, "host:controlEvent: argument #2 %(eventName%)")
    assert.error_matches(function() host:tap(5) end, "host:tap: argument #1 %(query%)")
    assert.error_matches(function() ck.action("x"):send(5) end, "action:send of \"x\": argument #1 %(sender%)")
  end)
end)

describe("[updateDuringRender]", function()
  it("names the render that runs, not the component updated", function()
    local O = ck.component("ReachIdle", {scope = true, initialState = 0})
    local o = ck.host(function() return O{} end).root
    local Card = ck.component("ReachCard", {render = function() o:updateState(1, "sync") end})
    local h = ck.host(function() return nil end)
    local ok, e = pcall(function() h:reload(function() return Card{} end) end)
    assert.is_false(ok)
    assert.matches("updateState of ReachIdle called during the render of ReachCard", e, 1, true)
    assert.matches("generation 1 is kept (the host is not mounted)", e, 1, true)
    assert.not_matches("stays mounted", e, 1, true)
  end)

  it("names it for host calls and ck.flush too", function()
    local other = ck.host(function() return nil end)
    local Card = ck.component("ReachFlushCard", {render = function() ck.flush() end})
    local ok, e = pcall(ck.host, function() return Card{} end)
    assert.matches("ck.flush() called during the render of ReachFlushCard", e, 1, true)
    Card = ck.component("ReachUpdateCard", {render = function() other:update() end})
    ok, e = pcall(ck.host, function() return Card{} end)
    assert.matches("host:update() called during the render of ReachUpdateCard", e, 1, true)
  end)
end)

-- Break 13: an unhandled tap said only "from Button", with no file:line; it names the sender by
-- its path and points at the render that made it (and gave it the action).
describe("an unhandled action from a component", function()
  it("names the sender by its path, at the render that made it", function()
    local Card = ck.component("UnhandledCard", {scope = function(p) return p.id end,
      render = function(self, p)
        return ck.Stack{children = {ck.Text{text = "card"}, ck.Button{title = "open", action = ck.action("openCard")}}}
      end})
    local host = ck.host(function() return ck.Stack{children = {Card{id = 1}, Card{id = 2}}} end)
    host:mount()
    -- pcall: assert.error_matches strips a leading file:line, which is what is checked here.
    local ok, message = pcall(host.tap, host, "UnhandledCard#2 Button")
    assert.is_false(ok)
    assert.matches('^%[unhandledAction%] Tests/lua/send_reach_spec.lua:206: nothing handles "openCard" from Stack/UnhandledCard#2/Stack/Button %(made in the render of UnhandledCard%); chain walked: Button %-> Stack %-> UnhandledCard#2', message)
    host:destroy()
  end)
end)
