-- ckrun-args: --timeout 1
-- ckrun-expect: [timeout]
local ck = require("ck")
ck.component("Any", {render = function() return nil end})
return function() while true do end end
