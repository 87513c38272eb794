-- The seed's SampleComponent variants: a button's action handled by a scope handler that
-- takes no parameters, the sender, or the sender and the event (promotion by arity).
-- Run: scripts/ckrun Examples/sample_actions.lua, then  app:tap("SampleWithEvent Button")

local function sample(name, handler)
  return ck.component(name, {
    scope = true,
    render = function(self) return ck.Button{title = name, action = self:action("someAction", {"Event"})} end,
    someAction = handler,
  })
end

local SampleWithEvent = sample("SampleWithEvent", function(self, sender, event)
  print(("SampleWithEvent: sender %s, event %s on %s"):format(tostring(sender), event.type, event.view.class))
end)

local SampleWithSender = sample("SampleWithSender", function(self, sender)
  print(("SampleWithSender: sender %s (the event is not passed)"):format(tostring(sender)))
end)

local SampleWithNothing = sample("SampleWithNothing", function(self)
  print("SampleWithNothing: called with no parameters")
end)

local Samples = ck.component("Samples", {
  render = function() return ck.Stack{children = {SampleWithEvent{}, SampleWithSender{}, SampleWithNothing{}}} end,
})

ck.run(function() return Samples{} end)
for _, name in ipairs({"SampleWithEvent", "SampleWithSender", "SampleWithNothing"}) do
  app:tap(name .. " Button")
end
