-- ckrun test: notes the files a test file loads, for --watch (a change to one re-runs the
-- file): what require's searchers find (and, for a module none found, the places they looked,
-- where a module made later would be found), what dofile and loadfile read, the helper, its
-- snapshots. The cost is one call per module load, never per test. Paths are kept as the
-- loaders saw them; the Swift side resolves them.
local pristine = select(7, ...)
-- Every free name reads the standard library as it was at start (the seventh argument): a spec
-- may set `_G.math = nil` or `string.format = nil` before the runner's code below runs
-- (check-layout refuses a shipped Lua file without this line). `_G` in it is the live table.
local _ENV = pristine or _G
-- The whole debug library (the third argument): under --sandbox the test sees only part of it.
local debug = select(3, ...) or debug
local T = select(6, ...)
local G = _G
local type, pairs, gmatch, concat, getinfo = type, pairs, string.gmatch, table.concat, debug.getinfo
local files, seen = {}, {}
-- Module name -> set of places searched in vain, until a searcher finds the module.
local missing = {}

local function note(path)
  if type(path) == "string" and not seen[path] then
    seen[path] = true
    files[#files + 1] = path
  end
end
T.note_loaded = note

-- A searcher's answer, handed on unchanged: a loader and its file (":preload:" is no file),
-- or the places it looked ("no file '...'").
local function noted(name, loader, data, ...)
  if type(loader) == "function" then
    missing[name] = nil
    if data ~= ":preload:" then note(data) end
  elseif type(loader) == "string" then
    local places = missing[name] or {}
    missing[name] = places
    for path in gmatch(loader, "no file '([^']+)'") do places[path] = true end
  end
  return loader, data, ...
end

local function pass(...) return ... end

-- Lua's own dofile and loadfile are called, not tail-called: their argument errors then name
-- them (after these upvalues). A Lua replacement (--sandbox's) is tail-called: it finds the
-- script's line at the level it expects.
local function wrap_loaders()
  local dofile, loadfile = G.dofile, G.loadfile
  if getinfo(loadfile, "S").what == "C" then
    G.loadfile = function(path, ...) note(path) return pass(loadfile(path, ...)) end
  else
    G.loadfile = function(path, ...) note(path) return loadfile(path, ...) end
  end
  if getinfo(dofile, "S").what == "C" then
    G.dofile = function(path) note(path) return pass(dofile(path)) end
  else
    G.dofile = function(path) note(path) return dofile(path) end
  end
end

-- Called by run_file once the searchers are in place (ckrun's sibling searcher is the last):
-- each is wrapped where it stands, so package.searchers keeps its length.
function T.record_loads()
  local searchers = package.searchers
  for i = 1, #searchers do
    local searcher = searchers[i]
    if type(searcher) == "function" then searchers[i] = function(name) return noted(name, searcher(name)) end end
  end
  if type(G.dofile) == "function" and type(G.loadfile) == "function" then wrap_loaders() end
end

-- The noted files, then the places searched for modules never found, separated by "\0" (no
-- path holds one).
function T.loaded_files()
  for _, places in pairs(missing) do
    for path in pairs(places) do note(path) end
  end
  missing = {}
  return concat(files, "\0")
end
