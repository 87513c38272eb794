-- ckrun-args: --timeout 10
-- ckrun-expect: done
-- Descendant queries must not backtrack exponentially.
local ck = require("ck")
local Node
Node = ck.component("A", {render = function(self, p) if p.n > 0 then return Node{n = p.n - 1} end return ck.Text{text = "x"} end})
local h = ck.host(function() return Node{n = 60} end)
h:mount()
local q = string.rep("A ", 30) .. "Button"
print(h:find(q))
print("done")
