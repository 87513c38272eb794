-- ckrun-expect: sent
local ck = require("ck")
local types = {}
for i = 1, 250 do types[i] = "int" end
local got
local C = ck.component("Many", {scope = true, render = function() return nil end,
  m = function(self, sender, ...) got = select("#", ...) end})
local h = ck.host(function() return C{} end)
h:mount()
local args = {}
for i = 1, 250 do args[i] = i end
local a = h.root:action("m", types)
for _ = 1, 3 do pcall(a.send, a, h.root, table.unpack(args)) end
print("sent", got)
