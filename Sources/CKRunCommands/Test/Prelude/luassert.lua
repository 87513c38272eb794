-- ckrun test: loads luassert (Debian's lua-luassert, exactly what busted uses) for assert.lua,
-- first of the preludes: nothing it needs comes from the others (SpecPrelude.compileAhead
-- compiles it, luassert's modules and the others on a thread of their own as ckrun starts).
local pristine = select(7, ...)
-- Every free name reads the standard library as it was at start (the seventh argument): a spec
-- may set `_G.math = nil` or `string.format = nil` before the runner's code below runs
-- (check-layout refuses a shipped Lua file without this line). `_G` in it is the live table.
local _ENV = pristine or _G
-- The whole debug library (the third argument): under --sandbox the test sees only part of it.
local debug = select(3, ...) or debug
local T = select(6, ...)
local G = _G

-- The first state of a process records luassert's modules (the Swift side keeps their
-- bytecode) and hands them to later states as package.preload entries, which skips compiling.
local record = select(2, ...)
-- The first state's lookup of luassert's modules compiled ahead from the very files found here
-- (CompiledChunks.module): it records them too.
local precompiled = select(8, ...)
local searchers = package.searchers
-- Under --sandbox the test's `debug` is traceback and getinfo only; luassert's modules also
-- need getmetatable and setmetatable (on the tables they copy), given in their environment.
local module_env
if not rawequal(debug, G.debug) then
  local gmt, smt = debug.getmetatable, debug.setmetatable
  module_env = setmetatable({ debug = {
    getmetatable = gmt, getinfo = G.debug.getinfo, traceback = debug.traceback,
    setmetatable = function(t, mt)
      if type(t) ~= "table" then error("debug.setmetatable: tables only under --sandbox", 2) end
      return smt(t, mt)
    end,
  } }, { __index = G, __newindex = G })
end
local function with_env(f)
  if module_env and type(f) == "function" and debug.getupvalue(f, 1) == "_ENV" then debug.setupvalue(f, 1, module_env) end
  return f
end
local recorder
if (record and not T.preloaded) or module_env then
  recorder = function(name)
    if not (string.find(name, "^luassert") or string.find(name, "^say") or string.find(name, "^term")) then return nil end
    local path = package.searchpath(name, package.path)
    local f = path and precompiled and precompiled(name, path)
    if not f then
      f = path and loadfile(path)
      if not f then return nil end
      if record then record(name, f) end
    end
    return with_env(f), path
  end
  table.insert(searchers, 2, recorder)
end
for _, name in ipairs(T.preloaded or {}) do with_env(package.preload[name]) end
local ok, luassert = pcall(require, "luassert")
if not ok then
  error("[testFailure] ckrun test needs luassert (" .. string.match(tostring(luassert), "^[^\n]*") ..
    "); install Debian's lua-luassert (scripts/setup does) or put luassert on LUA_PATH", 0)
end
local spy, stub, mock, match = require "luassert.spy", require "luassert.stub", require "luassert.mock", require "luassert.match"
if recorder then
  for i = #searchers, 1, -1 do if searchers[i] == recorder then table.remove(searchers, i) end end
end
-- The preloaded modules leave package.preload as they found it.
for _, name in ipairs(T.preloaded or {}) do package.preload[name] = nil end
T.luassert_modules = { luassert, spy, stub, mock, match }
