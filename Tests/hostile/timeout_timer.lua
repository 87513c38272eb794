-- ckrun-args: --timeout 1
-- ckrun-expect: [timeout]
local ck = require("ck")
local C = ck.component("T", {render = function() return nil end})
ck.after(1, function() while true do end end)
return function() return C{} end
