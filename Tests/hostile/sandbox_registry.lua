-- ckrun-args: --sandbox
-- ckrun-expect: ok
if debug and debug.getregistry then
  local r = debug.getregistry()
  for k, v in pairs(r) do if type(k) == "number" and k > 2 then r[k] = nil end end
end
if debug and debug.setupvalue then
  pcall(function()
    local ck = require("ck")
    for i = 1, 5 do pcall(debug.setupvalue, ck.action, i, nil) end
  end)
end
local ck = require("ck")
local C = ck.component("RegC", {scope = true, render = function() return nil end, m = function() end})
local h = ck.host(function() return C{} end)
h:mount()
local a = h.root:action("m")
pcall(a.send, a, h.root)
pcall(a.send, a, h.root)
print("ok")
