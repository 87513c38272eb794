-- ckrun-cmd: --timeout 1 tree Tests/hostile/tree_state_tostring_loop.lua
-- ckrun-expect: [timeout]
-- ckrun-expect-status: 0
-- Issue 24, class 3: ckrun tree formatted the tree outside any limit; a state key whose
-- __tostring never returns hung it. Formatting is a turn: the key shows as "(tostring failed:
-- [timeout] ...)" and the tree is printed.
local loop = setmetatable({}, {__tostring = function() while true do end end})
return ck.component("Held", {scope = true, initialState = {[loop] = 1},
  render = function() return ck.Text{text = "x"} end})
