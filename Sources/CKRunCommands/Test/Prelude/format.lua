-- ckrun test: readable printing and deep comparison.
-- Readable printing and deep comparison, shared by assertions and spies.
local pristine = select(7, ...)
-- Every free name reads the standard library as it was at start (the seventh argument): a spec
-- may set `_G.math = nil` or `string.format = nil` before the runner's code below runs
-- (check-layout refuses a shipped Lua file without this line). `_G` in it is the live table.
local _ENV = pristine or _G
local T = select(6, ...)
local concat, sort, type, tostring, rawget, next = table.concat, table.sort, type, tostring, rawget, next

T.matchers = setmetatable({}, { __mode = "k" })

local named_escapes = { ["\n"] = "\\n", ["\t"] = "\\t", ["\r"] = "\\r", ['"'] = '\\"', ["\\"] = "\\\\" }
local function quote(s)
  return '"' .. (string.gsub(s, '[%c"\\]', function(c) return named_escapes[c] or string.format("\\%d", string.byte(c)) end)) .. '"'
end

local function safe_tostring(v)
  local ok, text = pcall(tostring, v)
  if ok and type(text) == "string" then return text end
  return "<" .. type(v) .. ": __tostring failed>"
end

local function has_tostring(v)
  local mt = getmetatable(v)
  return type(mt) == "table" and rawget(mt, "__tostring") ~= nil
end

local function key_order(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  if ta == "number" or ta == "string" then return a < b end
  return safe_tostring(a) < safe_tostring(b)
end

local function key_text(k)
  if type(k) == "string" and string.match(k, "^[%a_][%w_]*$") then return k end
  if type(k) == "string" then return "[" .. quote(k) .. "]" end
  return "[" .. safe_tostring(k) .. "]"
end

local render
local function render_table(t, depth, seen, indent)
  if seen[t] then return "<cycle>" end
  if depth > 6 then return "{ ... }" end
  seen[t] = true
  local n = rawlen(t)
  local items, keys = {}, {}
  for i = 1, n do items[#items + 1] = render(rawget(t, i), depth + 1, seen, indent .. "  ") end
  for k in next, t do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
  end
  sort(keys, key_order)
  for _, k in ipairs(keys) do
    items[#items + 1] = key_text(k) .. " = " .. render(rawget(t, k), depth + 1, seen, indent .. "  ")
  end
  seen[t] = nil
  if #items == 0 then return "{}" end
  local flat = "{ " .. concat(items, ", ") .. " }"
  if #flat <= 72 and not string.find(flat, "\n", 1, true) then return flat end
  return "{\n" .. indent .. "  " .. concat(items, ",\n" .. indent .. "  ") .. "\n" .. indent .. "}"
end

function render(v, depth, seen, indent)
  local kind = type(v)
  if kind == "string" then return quote(v) end
  if kind == "table" and not has_tostring(v) then return render_table(v, depth, seen, indent) end
  return safe_tostring(v)
end

-- A value as a person reads it: strings quoted, tables deep with sorted keys.
-- `indent` prefixes continuation lines of a multi-line table.
function T.pretty(v, indent)
  return render(v, 1, {}, indent or "")
end

local function path_key(k)
  if type(k) == "string" and string.match(k, "^[%a_][%w_]*$") then return "." .. k end
  if type(k) == "string" then return "[" .. quote(k) .. "]" end
  return "[" .. safe_tostring(k) .. "]"
end

-- Deep equality: true, or false and the path of the first difference ("" at the top).
-- Matchers (match._, match.is_string(), ...) on either side decide for themselves.
local function same(a, b, path, seen)
  if T.matchers[a] then return a.test(b) and true or false, path end
  if T.matchers[b] then return b.test(a) and true or false, path end
  if a == b then return true end
  if a ~= a and b ~= b then return true end -- NaN is the same as NaN
  if type(a) ~= "table" or type(b) ~= "table" then return false, path end
  if seen[a] == b then return true end
  seen[a] = b
  for k, v in next, a do
    local ok, where = same(v, rawget(b, k), path .. path_key(k), seen)
    if not ok then return false, where end
  end
  for k in next, b do
    if rawget(a, k) == nil then return false, path .. path_key(k) end
  end
  return true
end

function T.deep_same(a, b)
  return same(a, b, "", {})
end

-- "(1, "a", { x = 1 })": the arguments of a call.
function T.pretty_arguments(args, n, indent)
  local parts = {}
  for i = 1, n do parts[i] = T.pretty(args[i], indent) end
  return "(" .. concat(parts, ", ") .. ")"
end
