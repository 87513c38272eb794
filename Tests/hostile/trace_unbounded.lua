-- ckrun-args: --memory-limit 40 --timeout 60
-- ckrun-expect: done
local ck = require("ck")
ck.config.onTrace = function() end
local C = ck.component("Tr", {scope = true, render = function() return nil end, m = function() end})
local h = ck.host(function() return C{} end)
h:mount()
local a = h.root:action("m")
for i = 1, 300000 do a:send(h.root) end
print("done")
