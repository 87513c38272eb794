-- ckrun-cmd: tree Tests/hostile/latin1_tree.lua
-- ckrun-expect: text="1"
-- Issue 24, class 8: ckrun tree decoded the file as UTF-8 before Lua saw it; the literal below
-- is one byte (0xE9, Latin-1), as lua5.4 reads it, not three.
local n = #"é"
return ck.component("Latin1", {view = function() return {class = "UILabel", attributes = {text = tostring(n)}} end})
