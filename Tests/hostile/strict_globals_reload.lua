-- ckrun-stdin: .reload
-- ckrun-stdin: local _ = io.write("alive\n")
-- ckrun-expect: reloaded
-- ckrun-expect-stdout-last: alive
-- ckrun-expect-status: 0
-- .reload forgets the modules loaded from beside the app through package.loaded: with `package`
-- gone from a strict _G, that lookup ran the script's __index from Swift (an unwind across Swift
-- frames). The runtime reads _G, package and package.loaded raw.
local C = ck.component("C", {render = function() return ck.Text{text = "x"} end})
rawset(_G, "package", nil)
setmetatable(_G, {__index = function(_, k) error("strict: " .. tostring(k), 2) end,
                  __newindex = function(_, k) error("no new global " .. tostring(k), 2) end})
return function() return C{} end
