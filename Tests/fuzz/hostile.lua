-- Hostile environments for api_fuzz.lua: each changes the process's globals, the string
-- metatable, the memory left or what values and calls look like, for one run, and undoes it after.
-- Errors they raise themselves say "hostile:", which the fuzzer accepts; anything else must still
-- be catalogued, and nothing may crash the process.
local rawset, rawget, setmetatable, getmetatable, error, pcall, tostring, next =
  rawset, rawget, setmetatable, getmetatable, error, pcall, tostring, next
local string_rep, collectgarbage = string.rep, collectgarbage

local M = {}

local function fail(what) return function() error("hostile: " .. what, 2) end end

-- Values and calls every hostile run may add to the fuzzer's.
M.values = {"math.huge", "-math.huge", "0/0", "math.maxinteger", "math.mininteger", "1e308", "-0.0",
            "2^63", "-1e300", "math.pi", "('\\255\\254')", "('\\0')", "setmetatable({}, {__index = function() error('hostile: index') end})",
            "setmetatable({}, {__tostring = function() error('hostile: tostring') end})",
            "setmetatable({}, {__eq = function() return true end, __len = function() return 1e300 end})",
            "coroutine.create(function() end)", "io.stdout", "DEEP", "MANY"}

M.ops = {
  function(r) return "A:send(C, " .. string_rep("1, ", r(200)) .. "1)" end,
  function(r) return "ck.actionSend('tap', C, " .. string_rep("{}, ", r(200)) .. "nil)" end,
  function(r) return "A = ck.action('tap', {" .. string_rep("'any', ", r(100)) .. "'int'})" end,
  function(r) return "A:send(table.unpack(MANY, 1, " .. r(250) .. "))" end,
  function(r) return "local n = select('#', ck.responderChain(C))" end,
  function() return "ck.cancel(" .. "0/0" .. ")" end,
  function(r) return "ck.cancel(" .. ({"math.huge", "-math.huge", "1e300", "math.maxinteger", "math.mininteger", "-1", "2^53"})[r(7)] .. ")" end,
  function(r) return "ck.after(" .. ({"math.huge", "0/0", "-1", "1e300", "math.maxinteger"})[r(5)] .. ", function() end)" end,
  function(r) return "ck.advance(" .. ({"math.huge", "0/0", "-1", "1e300", "math.maxinteger"})[r(5)] .. ")" end,
  function(r) return "H:find(" .. string_rep("'Item ", 1) .. string_rep("Item ", r(40)) .. "Missing')" end,
  function() return "H:findAll(('* '):rep(200) .. 'Item')" end,
  function(r) return "A = C:action('tap', {'Nest" .. r(200) .. "'}) A:send(C, DEEP)" end,
  function(r) return "A = C:action('tap', {'Nest" .. r(200) .. "'}):demoted({}) A:send(C)" end,
  function(r) return "H = ck.host(function() return Chain{d = " .. r(600) .. "} end) H:mount()" end,
  function() return "local co = coroutine.wrap(function() H:update(1) coroutine.yield() end) co()" end,
  function() return "local co = coroutine.create(function() A:send(C) end) coroutine.resume(co)" end,
  function() return "local co = coroutine.wrap(function() return ck.host(function() return Yielder{} end) end) co()" end,
  function() return "coroutine.wrap(function() ck.trace(function() coroutine.yield() end) end)()" end,
  function() return "local co = coroutine.create(function() ck.flush() end) coroutine.resume(co) coroutine.close(co)" end,
  function() return "H:update(DEEP)" end,
  function() return "C:updateState(DEEP)" end,
  function() return "Item{i = DEEP}" end,
  function() return "local s = string.rep('x', 1e5) .. H:dump()" end,
}

-- The prelude's extra declarations: nested structs, a chain, a yielding render, deep values.
M.prelude = [[
ck.struct("Nest0", {x = "int"})
for i = 1, 200 do ck.struct("Nest" .. i, {inner = "Nest" .. (i - 1), n = "number"}) end
Chain = ck.component("Chain", {scope = true, initialState = 0, view = {class = "UIView"},
  render = function(self) if (tonumber(self.props.d) or 0) > 0 then return Chain{d = self.props.d - 1} end end})
Yielder = ck.component("Yielder", {render = function() coroutine.yield(1) end})
DEEP = {x = 1}
for _ = 1, 300 do DEEP = {inner = DEEP, n = 1} end
MANY = {}
for i = 1, 300 do MANY[i] = i end
]]

local saved = {}
local function save(t, k) saved[#saved + 1] = {t, k, rawget(t, k)} end
local function restoreAll()
  for i = #saved, 1, -1 do
    local s = saved[i]
    rawset(s[1], s[2], s[3])
    saved[i] = nil
  end
end

local stringMeta = getmetatable("")
local stringIndex = stringMeta.__index
local G = _G

M.environments = {
  plain = {setup = function() end, teardown = function() end},
  strict = {
    setup = function()
      setmetatable(G, {
        __newindex = function(_, k) error("hostile: strict _G: assignment to undeclared global " .. tostring(k), 2) end,
        __index = function(_, k) error("hostile: strict _G: undeclared global " .. tostring(k), 2) end,
      })
    end,
    teardown = function() setmetatable(G, nil) end,
  },
  replaced = {
    setup = function()
      for _, k in next, {"tostring", "tonumber", "type", "pairs", "ipairs", "next", "select", "error",
                         "setmetatable", "getmetatable", "rawequal", "rawlen", "unpack", "print", "require"} do
        save(G, k)
        rawset(G, k, fail("replaced " .. k))
      end
      for _, k in next, {"find", "format", "rep", "sub", "gsub", "match", "byte", "char"} do
        save(string, k)
        rawset(string, k, fail("replaced string." .. k))
      end
      for _, k in next, {"insert", "remove", "concat", "unpack", "sort"} do
        save(table, k)
        rawset(table, k, fail("replaced table." .. k))
      end
      save(coroutine, "yield")
      rawset(coroutine, "yield", fail("replaced coroutine.yield"))
    end,
    teardown = restoreAll,
  },
  metatables = {
    setup = function()
      setmetatable(G, {__index = function(_, k) return fail("_G.__index " .. tostring(k)) end,
                       __newindex = function(t, k, v) rawset(t, k, v) end,
                       __call = fail("_G called"), __len = fail("_G length")})
      stringMeta.__index = function(s, k)
        if k == "format" or k == "rep" then return stringIndex[k] end
        return fail("string method " .. tostring(k))
      end
      stringMeta.__concat = fail("string concat")
      stringMeta.__add = fail("string add")
      stringMeta.__eq = fail("string eq")
      stringMeta.__len = fail("string len")
    end,
    teardown = function()
      setmetatable(G, nil)
      stringMeta.__index = stringIndex
      stringMeta.__concat, stringMeta.__add, stringMeta.__eq, stringMeta.__len = nil, nil, nil, nil
    end,
  },
  memory = {
    -- Fills memory up to the process's --memory-limit (if it is under 128 MB more), then leaves 256 KB.
    setup = function(env)
      local hog = {}
      local ok = pcall(function()
        for i = 1, 2048 do hog[i] = string_rep("m", 65536) .. i end
      end)
      if ok then hog = nil else for _ = 1, 4 do hog[#hog] = nil end end
      env.HOG = hog
      collectgarbage()
    end,
    teardown = function(env) env.HOG = nil collectgarbage() end,
  },
}
M.environments.coroutines = M.environments.plain
M.environments.deep = M.environments.plain
M.environments.numbers = M.environments.plain
M.environments.arguments = M.environments.plain
M.order = {"plain", "strict", "replaced", "metatables", "memory", "coroutines", "deep", "numbers", "arguments"}

-- Each fuzz line of a coroutines run runs inside a coroutine.
function M.wrap(mode, line)
  if mode == "coroutines" then
    return "local co = coroutine.create(function() " .. line .. "\nend) local ok, e = coroutine.resume(co) if not ok then error(e, 0) end"
  end
  return line
end

return M
