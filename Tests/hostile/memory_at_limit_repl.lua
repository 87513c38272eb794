-- ckrun-args: --memory-limit 8
-- ckrun-stdin: x = {} for i = 1, 1e7 do x[i] = i end
-- ckrun-stdin: print("still alive")
-- ckrun-expect: [memoryLimit]
-- ckrun-expect: still alive
-- The REPL/app input loop under a full heap: each input line is pushed, evaluated, reported.
local ck = require("ck")
local Leaf = ck.component("Leaf", {render = function() return ck.Text{text = "hi"} end})
hog = {}
return function() return Leaf{} end
