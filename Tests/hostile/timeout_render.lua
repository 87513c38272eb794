-- ckrun-args: --timeout 1
-- ckrun-expect: [timeout]
local ck = require("ck")
local C = ck.component("Loop", {render = function() while true do end end})
return function() return C{} end
