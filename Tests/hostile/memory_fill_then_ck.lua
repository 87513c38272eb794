-- ckrun-args: --memory-limit 10
-- ckrun-expect: ok
-- With the heap at its limit, ck calls fail cleanly (caught by pcall), never crash. Everything
-- after the fill runs inside functions made before it: outside pcall, any allocation fails.
local ck = require("ck")
local function define(i) ck.component("C" .. i, {render = function() return ck.Text{text = string.rep("x", 1000)} end}) end
local function host() local h = ck.host(function() return ck.Text{text = "x"} end); h:mount(); h:dump(); h:destroy() end
local t = {}
local function fill() for i = 1, 1e8 do t[i] = {i} end end
pcall(fill)
for i = 1, 50 do
  pcall(define, i)
  pcall(host)
end
t = nil
collectgarbage()
print("ok")
