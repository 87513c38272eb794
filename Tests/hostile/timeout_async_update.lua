-- ckrun-args: --timeout 1
-- ckrun-expect: [timeout]
local ck = require("ck")
local C = ck.component("U", {scope = true, initialState = 0,
  render = function(self, props, state) return nil end})
ck.after(0, function() app.root:updateState(function() while true do end end) end)
return function() return C{} end
