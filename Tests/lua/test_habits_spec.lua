--- Habits a React and busted developer brings to `ckrun test` (issue 25, items 3–5 and 8):
--- test doubles on classes and host responders, each test starting afresh (clock, timers,
--- hosts), a tap building what it queued, state read-only as props are, React's lifecycle names.

-- A counter whose button's handler bumps its state asynchronously (updateState's default);
-- `press = false` leaves the handler to the chain above it.
local function counter(name, def)
  def = def or {}
  def.scope, def.initialState = true, 0
  def.render = function(self, props, state)
    return ck.Button{title = tostring(state), action = ck.action("press", {"Event"})}
  end
  if def.press == false then def.press = nil   -- handled further up the chain
  elseif def.press == nil then
    def.press = function(self, sender, event) self:updateState(function(n) return n + 1 end) end
  end
  return ck.component(name, def)
end

local function mounted(cls, opts)
  local host = ck.host(function() return cls{} end, opts)
  host:mount()
  return host
end

local capturing_warnings = require("captured_warnings")

describe("spies, stubs and mocks", function()
  it("spy.on a component class records each send with its arguments, then revert restores it", function()
    local Counter = counter("SpiedCounter")
    local host = mounted(Counter)
    local s, root, button = spy.on(Counter, "press"), host.root, host:find("Button")
    ck.act(function() host:tap("Button") end)
    assert.spy(s).was.called(1)
    assert.spy(s).was.called_with(match.is_ref(root), match.is_ref(button), match.is_userdata())
    assert.are.equal("1", host:find("Button").props.title)   -- the spy called the method
    s:revert()
    ck.act(function() host:tap("Button") end)
    assert.spy(s).was.called(1)
    assert.are.equal("2", host:find("Button").props.title)
  end)

  it("stub(Class, name) replaces the handler sends call", function()
    local Counter = counter("StubbedCounter")
    local host = mounted(Counter)
    local s = stub(Counter, "press")
    ck.act(function() host:tap("Button"); host:tap("Button") end)
    assert.stub(s).was.called(2)
    assert.are.equal("0", host:find("Button").props.title)  -- the method did not run
    s:revert()
    ck.act(function() host:tap("Button") end)
    assert.are.equal("1", host:find("Button").props.title)
  end)

  it("mock(ControllerClass) spies on every method; match checks the handler's arguments", function()
    local taps = 0
    local K = ck.controller("MockedCounterController", {
      press = function(self, sender, event) taps = taps + 1 end,
      other = function(self) end,
    })
    local host = mounted(counter("MockedCounter", {press = false}))
    assert.are.equal(K, mock(K))
    host:tap("Button")
    assert.are.equal(1, taps)
    assert.spy(K.press).was.called_with(match.is_ref(ck.controllerOf(host.root)), match._, match.is_userdata())
    assert.spy(K.other).was_not.called()
    mock.revert(K)
    assert.is_function(K.press)
  end)

  it("stub and spy.on work on a host responder's methods", function()
    local vc = {name = "ViewController", methods = {press = function(self, sender, event) end}}
    local host = mounted(counter("ResponderCounter", {press = false}), {responders = {vc}})
    local s = spy.on(vc.methods, "press")
    host:tap("Button")
    assert.spy(s).was.called(1)
    assert.spy(s).was.called_with(match.is_ref(vc), match.is_ref(host:find("Button")), match.is_userdata())
    s:revert()
    local st = stub(vc.methods, "press")
    host:tap("Button")
    assert.stub(st).was.called(1)
    st:revert()
  end)

  -- Every class key that takes a function takes a spy or stub (callable tables): render, view,
  -- shouldUpdate, canPerformAction, scope, initialState (React's shallow render, jest.spyOn).
  it("stub and spy.on work on render and the other keys that take a function", function()
    local Child = ck.component("SpiedChild", {render = function() return ck.Text{text = "real"} end})
    local Parent = ck.component("SpiedParent", {scope = true,
      render = function() return ck.Stack{children = {Child{}}} end,
      canPerformAction = function(self, sel) return sel == "save" end, save = function() end})
    local st = stub(Child, "render")
    local host = ck.host(Parent); host:mount()
    assert.is_nil(host:find("SpiedChild Text"))
    assert.stub(st).was.called(1)
    st:revert()
    local s = spy.on(Child, "render")
    host:update(nil)
    assert.spy(s).was.called(1)
    assert.is_not_nil(host:find("SpiedChild Text"))   -- the spy called the render
    s:revert()
    local claim = spy.on(Parent, "canPerformAction")
    ck.action("save"):send(host:find("SpiedChild"))
    assert.spy(claim).was.called_with(match.is_ref(host.root), "save", match._)
    claim:revert()
  end)

  it("spy.on works on view, shouldUpdate, scope and initialState", function()
    local Row = ck.component("SpiedRow", {scope = function(props) return props.id end,
      initialState = function(props) return props.id * 10 end, pure = true,
      shouldUpdate = function(self, old, new) return old.id ~= new.id end,
      view = function(self, props, state) return {class = "UILabel", attributes = {text = tostring(state)}} end})
    local spies = {}
    for _, key in ipairs{"view", "shouldUpdate", "scope", "initialState"} do spies[key] = spy.on(Row, key) end
    local host = ck.host(function(m) return Row{id = m} end, {model = 4}); host:mount()
    host:update(4)
    assert.are.equal("40", host:find("SpiedRow").state and host.view.subviews[1].attributes.text)
    assert.are.equal("SpiedRow#4", host:find("SpiedRow#4").name .. "#" .. tostring(host:find("SpiedRow#4").scope.identifier))
    for key, s in pairs(spies) do assert.spy(s).was.called(); s:revert() end
  end)
end)

describe("each test starts afresh", function()
  randomize(false)   -- the second test checks what the first left
  local left = {}
  local setup_timer_fired = false
  setup(function()
    ck.advance(2)
    ck.after(3, function() setup_timer_fired = true end)   -- outside any test: kept
  end)

  it("(leaves a timer, a host and a moved clock behind)", function()
    ck.after(5, function() error("a timer the first test set") end)
    ck.advance(2)   -- the setup's timer has 1 s left
    local K = ck.controller("LeftBehindController", {invalidateController = function() left.invalidated = true end})
    left.host = mounted(counter("LeftBehind"))
    assert.is_not_nil(K)
  end)

  it("with the clock at 0, no timers from earlier tests and their hosts destroyed", function()
    assert.are.equal(0, ck.now())
    assert.is_true(left.host.isDestroyed)
    assert.is_true(left.invalidated)
    assert.is_false(setup_timer_fired)
    assert.are.equal(1, ck.advance(10))   -- the setup's timer only
    assert.is_true(setup_timer_fired)
  end)

  it("a timer's error names where the timer was set", function()
    local function arm() ck.after(1, function() error("broke") end) end
    arm()
    local ok, err = pcall(ck.advance, 1)
    assert.is_false(ok)
    assert.matches("^%[timerFailed%] [^\n]*test_habits_spec%.lua:%d+: a timer set here", err)
    assert.matches("broke", err)
  end)
end)

describe("ck.act builds what a tap queued", function()
  it("so the tree shows the tap's async update when act returns", function()
    local host = mounted(counter("ActCounter"))
    assert.are.equal(1, ck.act(function() return host:tap("Button") end))
    assert.are.equal("1", host:find("Button").props.title)
    assert.are.equal(1, host.root.state)
  end)

  it("as it does a send's", function()
    local host = mounted(counter("ActSendCounter"))
    ck.act(function() host.root:action("press", {"Event"}):send(nil) end)
    assert.are.equal(1, host.root.state)
  end)

  it("while a tap alone, as a test's own top-level updateState, waits for ck.flush (SPEC §3)", function()
    local tapped = mounted(counter("ActTapWaits"))
    tapped:tap("Button")
    assert.are.equal(0, tapped.root.state)
    local host = mounted(counter("ActTopLevel"))
    host.root:updateState(5)
    assert.are.equal(0, host.root.state)
    ck.flush()
    assert.are.equal(5, host.root.state)
  end)
end)

describe("state", function()
  local function stateful(name, render)
    return ck.component(name, {scope = true, initialState = {count = 1, items = {}}, render = render})
  end

  it("is read-only as props are: writing it raises [immutableComponent] with file:line", function()
    local host = mounted(stateful("ReadOnlyState"))
    local ok, err = pcall(function() host.root.state.count = 2 end)
    assert.is_false(ok)
    assert.matches("^%[immutableComponent%] [^\n]*test_habits_spec%.lua:%d+: cannot set state%.count of ReadOnlyState", err)
    assert.matches("updateState", err)
    assert.are.equal(1, host.root.state.count)
    table.insert(host.root.state.items, "x")   -- tables inside it stay the script's own
    assert.are.same({count = 1, items = {"x"}}, host.root.state)
    -- it says it is a state, not props (the outsider's React attack, 04)
    assert.are.equal("read-only state", getmetatable(host.root.state))
    assert.matches("^read%-only state: ", tostring(host.root.state))
  end)

  it("given to render is read-only too", function()
    local ok, err = pcall(ck.host, function()
      return stateful("ReadOnlyRenderState", function(self, props, state) state.count = 3 end){}
    end)
    assert.is_false(ok)
    assert.matches("cannot set state%.count of ReadOnlyRenderState", err)
  end)
end)

describe("React's lifecycle names", function()
  it("on a component class are flagged with ckrun's equivalent", function()
    local warnings = capturing_warnings(function()
      ck.component("ReactInbox", {render = function() end, componentDidMount = function() end,
                                  getInitialState = function() end, shouldComponentUpdate = function() end})
    end)
    table.sort(warnings)
    assert.are.equal(3, #warnings)
    assert.matches('^%[suspiciousName%] [^\n]*: ck.component%("ReactInbox"%): "componentDidMount" is React\'s name[^\n]*"didMount", a lifecycle method of the controller: ck.controller%("ReactInboxController"', warnings[1])
    assert.matches('"getInitialState" is React\'s name[^\n]*"initialState", a setting of the component class', warnings[2])
    assert.matches('"shouldComponentUpdate" is React\'s name[^\n]*"shouldUpdate"', warnings[3])
  end)

  it("on a controller class too, as is a component's setting there", function()
    local warnings = capturing_warnings(function()
      ck.controller("ReactListController", {componentWillUnmount = function() end, render = function() end})
    end)
    table.sort(warnings)
    assert.are.equal(2, #warnings)
    assert.matches('"componentWillUnmount" is React\'s name[^\n]*"willUnmount"', warnings[1])
    assert.matches('"render" is a setting of component classes[^\n]*ck.component%("ReactList"', warnings[2])
  end)
end)
