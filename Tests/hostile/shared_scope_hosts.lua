-- ckrun-expect: [badReturn]
-- ckrun-expect: belongs to another host
-- ckrun-expect: A whole: 1 A's
-- ckrun-expect-status: 0
-- Outsider attack on ComponentKit semantics (break 10): host B's provider returns the scoped
-- instance host A's render built. B shared A's scope: mounting B took A's view, B's updateState
-- changed A's state. Now B's build is [badReturn] and A keeps its view and state.
local stash
local S = ck.component("S", {scope = true, initialState = "A's",
  render = function(self, p, s) return ck.Text{text = s} end})
local A = ck.component("A", {render = function() stash = S{}; return stash end})
local ha = ck.host(function() return A{} end)
ha:mount()
print(select(2, pcall(ck.host, function() return stash end)))
print("A whole: " .. #ha.view.subviews .. " " .. ha:find("S").state)
