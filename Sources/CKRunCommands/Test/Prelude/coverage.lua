-- ckrun test: --coverage, which counts the executed lines of the code under test as luacov does.
local pristine = select(7, ...)
-- Every free name reads the standard library as it was at start (the seventh argument): a spec
-- may set `_G.math = nil` or `string.format = nil` before the runner's code below runs
-- (check-layout refuses a shipped Lua file without this line). `_G` in it is the live table.
local _ENV = pristine or _G
local debug = select(3, ...) or debug
local T = select(6, ...)
local S = T.S
local find, byte, format, gsub, sub = string.find, string.byte, string.format, string.gsub, string.sub
local pairs, tostring, concat = pairs, tostring, table.concat
local getinfo = debug.getinfo

-- Coverage's counts as JSON for the Swift side (chunk names are any bytes: all escaped).
local escapes = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }
local function json_string(s)
  if not find(s, '[%c"\\]') then return '"' .. s .. '"' end
  return '"' .. (gsub(s, '[%c"\\]', function(c) return escapes[c] or format("\\u%04x", byte(c)) end)) .. '"'
end

-- --coverage: counts the executed lines of the code under test, as luacov does: not the test
-- file itself, not ckrun's preludes or other chunks without a file, not the system's Lua
-- libraries. The time limit needs no hook of its own until it expires (see deadline).
function T.start_coverage(check_deadline)
  local counts, skip = {}, {}
  T.coverage = counts
  local own = "@" .. tostring(T.file)
  local check = check_deadline or function() end
  local coverage_hook
  coverage_hook = function(_, line)
    -- On a coroutine this hook stands in for the time limit's: each line checks it (a loop
    -- makes a line event each time round). Count events would not do: one that falls while
    -- a hook runs is dropped, and a loop's period can drop every one.
    check()
    local source = getinfo(2, "S").source
    local c = counts[source]
    if c == nil then
      if skip[source] then return end
      if byte(source, 1) ~= 64 or find(source, "^@/usr/share/lua/") or source == own then
        skip[source] = true
        return
      end
      c = {}
      counts[source] = c
    end
    c[line] = (c[line] or 0) + 1
  end
  S.coverage_hook = coverage_hook
  debug.sethook(coverage_hook, "l")
  -- luacov's coroutine wrapper: coroutines made from now on count their lines too (ckwatchdog.c).
  debug.getregistry()["ckrun.on_coroutine"] = function(co) debug.sethook(co, coverage_hook, "l") end
end

function T.coverage_json()
  if not T.coverage then return "{}" end
  debug.sethook()
  local files = {}
  for source, lines in pairs(T.coverage) do
    local parts = {}
    for line, hits in pairs(lines) do parts[#parts + 1] = '"' .. line .. '":' .. hits end
    files[#files + 1] = json_string((gsub(sub(source, 2), "^%./", ""))) .. ":{" .. concat(parts, ",") .. "}"
  end
  return "{" .. concat(files, ",") .. "}"
end
