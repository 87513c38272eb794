-- ckrun-expect: props unchanged
-- ckrun-expect-status: 0
-- Props views attacked through raw access (issue 24, class 9): next, rawget, rawset, rawlen, the
-- state pairs hands out, table.insert/sort/remove, the view a scope function was given kept past
-- its call, a view passed as a struct and as a table argument. None may reach or change the props.
local seen_by_render = {}
local C = ck.component("RawC", {render = function(self, p) seen_by_render[#seen_by_render + 1] = p.title end})
local kept
local S = ck.component("RawS", {scope = function(p) kept = p return p.id end})
local props = {title = "a", id = 1, "x"}
local c = C(props)
local v = c.props
local tries = {
  function() return next(v) end, function() return rawget(v, "title") end, function() rawset(v, "title", "b") end,
  function() return rawlen(v) end, function() local _, s = pairs(v) s.title = "b" end,
  function() local f, s = pairs(v) return f(s, nil) end, function() table.insert(v, "y") end,
  function() table.remove(v) end, function() table.sort(v) end, function() v.title = "b" end,
  function() setmetatable(v, {}) end, function() return table.concat(v) end,
}
local host = ck.host(function() return C(v) end)
host:mount()
local sh = ck.host(function() return S(props) end)
sh:mount()
tries[#tries + 1] = function() kept.title = "b" end
tries[#tries + 1] = function() return kept.title end
tries[#tries + 1] = function() return S(kept) end
tries[#tries + 1] = function() for k in pairs(kept) do end end
ck.struct("RawPoint", {title = "string"})
tries[#tries + 1] = function() ck.action(function(_, p) p.title = "b" end, {"RawPoint"}):send(nil, v) end
tries[#tries + 1] = function() ck.action(function(_, t) rawset(t, "title", "b") t.title = "b" end, {"table"}):send(nil, v) end
for _, f in ipairs(tries) do pcall(f) end
host:update()
collectgarbage()
assert(props.title == "a" and props[1] == "x" and props[2] == nil and c.props.title == "a", "props changed")
assert(seen_by_render[#seen_by_render] == "a", "a render saw other props")
print("props unchanged")
