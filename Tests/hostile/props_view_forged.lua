-- ckrun-expect: done
-- ckrun-expect-status: 0
-- Props views attacked through debug: forged views (the metatable on tables and on other
-- userdata), a view's user values overwritten, the metamethods called on anything. Each must
-- raise or work.
local C = ck.component("C", {render = function(self, p) return ck.Text{text = tostring(p.x)} end})
local v = C{x = 1}.props
local M = debug.getmetatable(v)
local fake = debug.setmetatable({}, M)
local tries = {
  function() return fake.x end, function() fake.x = 1 end, function() return #fake end,
  function() for _ in pairs(fake) do end end,
  function() local h = ck.host(function() return C(fake) end) h:mount() return h:dump() end,
}
for _, mm in ipairs({"__index", "__newindex", "__len", "__pairs"}) do
  for _, arg in ipairs({1, "s", true, {}, fake, v, print}) do
    tries[#tries + 1] = function() return M[mm](arg, "x", 1) end
  end
end
local next_fn = pairs(v)
for _, arg in ipairs({1, "s", true, fake, print}) do tries[#tries + 1] = function() return next_fn(arg, nil) end end
tries[#tries + 1] = function() return next_fn(v, "not a key") end
tries[#tries + 1] = function() local h = C{x = 3} debug.setmetatable(h, M) return h.x, #h end
for _, bad in ipairs({5, "s", print, fake, {x = 4}, setmetatable({}, {__index = function() error("boom") end})}) do
  for uv = 1, 3 do
    local w = C{x = 2}.props
    debug.setuservalue(w, bad, uv)
    tries[#tries + 1] = function() return w.x end
    tries[#tries + 1] = function() w.y = 1 end
    tries[#tries + 1] = function() return #w end
    tries[#tries + 1] = function() for _ in pairs(w) do end end
    tries[#tries + 1] = function() local h = ck.host(function() return C(w) end) h:mount() return h:dump() end
  end
end
for _, f in ipairs(tries) do pcall(f) end
collectgarbage()
print("done")
