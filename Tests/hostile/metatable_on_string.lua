-- ckrun-expect: ok
local mt = getmetatable("")
mt.__index = function() error("hostile string index") end
mt.__concat = function() error("hostile concat") end
local ck = require("ck")
local C = ck.component("Str", {scope = true, render = function() return ck.Text{text = "x"} end, m = function() end})
local h = ck.host(function() return C{} end)
h:mount()
pcall(function() return h:dump() end)
pcall(function() return tostring(h.root) end)
pcall(function() local a = ck.action("nothing"); a:send(h.root) end)
print("ok")
