-- A controller handles its component's actions and keeps long-lived state on itself while
-- components come and go. Run: scripts/ckrun Examples/controller_actions.lua

ck.controller("LikeButtonController", {
  init = function(self) self.likes = 0 end,
  didTapLike = function(self, sender)
    self.likes = self.likes + 1
    self.component:updateState(self.likes)
    print(("%s handled didTapLike from %s: %d like(s)"):format(tostring(self), tostring(sender), self.likes))
  end,
})

local LikeButton = ck.component("LikeButton", {
  scope = true,
  initialState = 0,
  -- No didTapLike here: the walk goes component → its controller.
  render = function(self, props, state)
    return ck.Button{title = ("♥ %d"):format(state), action = self:action("didTapLike")}
  end,
})

ck.run(function() return LikeButton{} end)
app:tap("Button")
app:tap("Button")
ck.flush()
print(app:dump())
