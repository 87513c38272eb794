-- The examples of the ComponentKit pages the project started from (shared/seeds).

describe("the seed's component actions", function()
  it("SampleComponent: a scope handler taking the sender and the event", function()
    local got
    local Sample = ck.component("SampleComponent", {scope = true,
      render = function(self) return ck.Button{action = self:action("someAction", {"Event"})} end,
      someAction = function(self, sender, event) got = {self = self, sender = sender, event = event} end})
    local host = ck.host(function() return Sample{} end)
    host:mount()
    assert.are.equal(1, host:tap("Button"))
    assert.are.equal(host.root, got.self)
    assert.are.equal(host:find("Button"), got.sender)
    assert.are.equal("touchUpInside", got.event.type)
  end)

  it("SampleOtherComponentThatDoesntCareAboutEvents: a handler taking only the sender", function()
    local got
    local Sample = ck.component("SampleOtherComponentThatDoesntCareAboutEvents", {scope = true,
      render = function(self) return ck.Button{action = self:action("someAction")} end,
      someAction = function(self, sender, ...) got = {sender = sender, extra = select("#", ...)} end})
    local host = ck.host(function() return Sample{} end)
    host:mount()
    host:tap("Button")
    assert.are.equal(host:find("Button"), got.sender)
  end)

  it("SampleOtherComponentThatDoesntCareAboutAnyParameters: a handler taking nothing", function()
    local calls = 0
    local Sample = ck.component("SampleOtherComponentThatDoesntCareAboutAnyParameters", {scope = true,
      render = function(self) return ck.Button{action = self:action("someAction")} end,
      someAction = function(self) calls = calls + 1 end})
    local host = ck.host(function() return Sample{} end)
    host:mount()
    host:tap("Button")
    assert.are.equal(1, calls)
  end)

  it("SampleControllerDelegatingComponent: the controller handles its component's action", function()
    local handledBy
    ck.controller("SampleControllerDelegatingComponentController", {someAction = function(self) handledBy = self end})
    local Sample = ck.component("SampleControllerDelegatingComponent", {scope = true,
      render = function(self) return ck.Button{action = self:action("someAction")} end})
    local host = ck.host(function() return Sample{} end)
    host:mount()
    host:tap("Button")
    assert.are.equal(ck.controllerOf(host.root), handledBy)
  end)

  it("promotes an action with fewer types to a prop that expects more", function()
    local got
    local Picker = ck.component("Picker", {actions = {onPick = {"any", "any"}}, view = {class = "UIControl"}})
    local Owner = ck.component("PickerOwner", {scope = true,
      render = function(self) return Picker{onPick = self:action("actionWithSender", {"any"})} end,
      actionWithSender = function(self, sender, firstParam) got = {sender, firstParam} end})
    local host = ck.host(function() return Owner{} end)
    host:mount()
    assert.are.same({"any", "any"}, host:find("Picker").props.onPick.types)
    host:find("Picker").props.onPick:send(host:find("Picker"), "first", "second")
    assert.are.same({host:find("Picker"), "first"}, got)
  end)

  it("demotes explicitly, filling what the caller does not provide with zeros", function()
    local got
    local Owner = ck.component("DemotingOwner", {scope = true,
      someMethodWithSender = function(self, sender, p1, p2, p3) got = {p1, p2, p3} end})
    local host = ck.host(function() return Owner{} end)
    local full = host.root:action("someMethodWithSender", {"any", "int", "bool"})
    full:demoted({"any"}):send(nil, "only")
    assert.are.same({"only", 0, false}, got)
  end)
end)

describe("the seed's responder chain", function()
  it("handles a control action in the component that owns the button view", function()
    local tapped = false
    local Some = ck.component("SomeComponent", {view = {class = "UIButton", attributes = {ck.onControl(ck.action("didTapButton"))}},
      didTapButton = function() tapped = true end})
    local host = ck.host(function() return Some{} end)
    host:mount()
    host:tap("SomeComponent")
    assert.is_true(tapped)
  end)

  it("handles a tap gesture on any view", function()
    local tapped = false
    local Some = ck.component("SomeGestureComponent", {view = {class = "UIView", attributes = {ck.onTap(ck.action("didTapView"))}},
      didTapView = function() tapped = true end})
    local host = ck.host(function() return Some{} end)
    host:mount()
    host:tap("SomeGestureComponent")
    assert.is_true(tapped)
  end)
end)

describe("the seed's song controller", function()
  it("updates state asynchronously after a simulated download, keeping the controller", function()
    ck.controller("MySongComponentController", {
      init = function(self, component) self.song = component.props.song end,
      didTapPlay = function(self)
        ck.after(0.5, function() self:songStateDidChange(true) end)
      end,
      songStateDidChange = function(self, isPlaying)
        self.component:updateState(function() return isPlaying end)
      end,
      didUpdateComponent = function(self) self.updates = (self.updates or 0) + 1 end,
    })
    local MySong = ck.component("MySongComponent", {
      scope = function(props) return props.song.id end,
      initialState = false,
      render = function(self, props, state)
        return ck.Stack{children = {
          ck.Text{text = props.song.title .. (state and " ▶" or "")},
          ck.Button{title = state and "Pause" or "Play", action = self:action("didTapPlay")},
        }}
      end,
    })
    local host = ck.host(function(song) return MySong{song = song} end, {model = {id = 42, title = "Yesterday"}})
    host:mount()
    local controller = ck.controllerOf(host.root)
    assert.are.equal("Yesterday", controller.song.title)
    host:tap("Button")
    assert.is_false(host.root.state)
    ck.advance(0.5)
    assert.is_true(host.root.state)
    assert.are.equal(2, host.generation)
    assert.are.equal("Yesterday ▶", host:find("Text").props.text)
    assert.are.equal("Pause", host:find("Button").view.attributes.title)
    assert.are.equal(controller, ck.controllerOf(host.root))
    assert.are.equal(1, controller.updates)
  end)
end)
