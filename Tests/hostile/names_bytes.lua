-- ckrun-expect: distinct
local ck = require("ck")
local a = pcall(ck.component, "\254", {render = function() return nil end, m = function() return "a" end})
local b = pcall(ck.component, "\255", {render = function() return nil end, m = function() return "b" end})
local c = pcall(ck.component, "X\0Y", {render = function() return nil end})
local d = pcall(ck.component, "X", {render = function() return nil end})
print("distinct")
