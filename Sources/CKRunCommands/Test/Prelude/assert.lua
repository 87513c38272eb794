-- ckrun test: the assertions.
-- luassert's assertions: `assert.are.equal`, `assert.is_not_nil`, `assert.has_no.errors`, ...
-- A key is split on "_" into modifiers (is, are, was, has, does, not, no) and an assertion
-- name, as luassert does. Calling `assert(v, message)` is still Lua's plain assert.
local T = _ENV["(ckrun test)"]
local pretty, deep_same = T.pretty, T.deep_same
local pack, unpack, select, type = table.pack, table.unpack, select, type

-- Raises an assertion failure located at the user's line; the runner recognises it by
-- `T.last_failure`, which is how a failure is told from an error.
function T.fail(message, user_message)
  if user_message ~= nil then message = tostring(user_message) .. "\n" .. message end
  local where = T.where()
  local text = where and (where .. ": " .. message) or message
  T.last_failure = text
  error(text, 0)
end

local assertions = {}
local function define(names, arity, check)
  for _, name in ipairs(names) do assertions[name] = { arity = arity, check = check } end
end

local function expected_actual(headline, expected, actual)
  return headline .. "\n  expected: " .. pretty(expected, "  ") .. "\n  actual:   " .. pretty(actual, "  ")
end

define({ "equal", "equals" }, 2, function(expected, actual)
  return expected == actual, function(negated)
    if negated then return "expected values to differ, but both are " .. pretty(actual, "  ") end
    local text = expected_actual("expected values to be equal", expected, actual)
    if type(expected) == "table" and type(actual) == "table" and deep_same(expected, actual) then
      text = text .. "\n  (two different tables with the same contents: assert.are.same compares contents)"
    end
    return text
  end
end)

define({ "same" }, 2, function(expected, actual)
  local ok, path = deep_same(expected, actual)
  return ok, function(negated)
    if negated then return "expected values to differ, but both are " .. pretty(actual, "  ") end
    local text = expected_actual("expected values to be the same", expected, actual)
    if path and path ~= "" then text = text .. "\n  first difference at: " .. path end
    return text
  end
end)

define({ "near" }, 3, function(expected, actual, tolerance)
  local ok = type(expected) == "number" and type(actual) == "number" and type(tolerance) == "number"
    and math.abs(expected - actual) <= tolerance
  return ok, function(negated)
    local within = " within " .. pretty(tolerance)
    if negated then return "expected " .. pretty(actual) .. " not to be near " .. pretty(expected) .. within end
    return expected_actual("expected values to be near each other" .. within, expected, actual)
  end
end)

local function value_assertion(names, describe_it, test)
  define(names, 1, function(value)
    return test(value), function(negated)
      if negated then return "expected a value that is not " .. describe_it .. ", got " .. pretty(value, "  ") end
      return "expected " .. describe_it .. ", got " .. pretty(value, "  ")
    end
  end)
end

value_assertion({ "true" }, "true", function(v) return v == true end)
value_assertion({ "false" }, "false", function(v) return v == false end)
value_assertion({ "nil" }, "nil", function(v) return v == nil end)
value_assertion({ "truthy" }, "truthy (not nil or false)", function(v) return v ~= nil and v ~= false end)
value_assertion({ "falsy" }, "falsy (nil or false)", function(v) return v == nil or v == false end)
for _, kind in ipairs({ "string", "number", "table", "function", "boolean", "userdata", "thread" }) do
  value_assertion({ kind }, "a " .. kind, function(v) return type(v) == kind end)
end

local function callable(fn)
  if type(fn) == "function" then return true end
  local mt = getmetatable(fn)
  return type(mt) == "table" and rawget(mt, "__call") ~= nil
end

local function check_function(fn, name)
  if not callable(fn) then
    error((T.where() or "?") .. ": assert." .. name .. " expects a function as its first argument, got " .. pretty(fn), 0)
  end
end

-- error() puts "file:line: " before a string message: accept the message after such prefixes.
local function same_error(actual, expected)
  if type(actual) ~= "string" or type(expected) ~= "string" then return (deep_same(expected, actual)) end
  if actual == expected then return true end
  if #actual <= #expected or actual:sub(-#expected) ~= expected then return false end
  return actual:sub(1, #actual - #expected):find(":%d+: $") ~= nil
end

define({ "error", "errors" }, 2, function(fn, expected)
  check_function(fn, "has_error")
  local ok, err = pcall(fn)
  local passed = not ok and (expected == nil or same_error(err, expected))
  return passed, function(negated)
    if negated then return "expected no error, but the function raised " .. pretty(err, "  ") end
    if ok then return "expected the function to raise an error, but it returned normally" end
    return expected_actual("expected the function to raise a different error", expected, err)
  end
end)

define({ "error_matches", "error_match" }, 2, function(fn, pattern)
  check_function(fn, "error_matches")
  local ok, err = pcall(fn)
  local passed = not ok and type(err) == "string" and err:find(pattern) ~= nil
  return passed, function(negated)
    if negated then return "expected no error matching " .. pretty(pattern) .. ", but the function raised " .. pretty(err, "  ") end
    if ok then return "expected the function to raise an error matching " .. pretty(pattern) .. ", but it returned normally" end
    return "expected the error to match the pattern\n  pattern: " .. pretty(pattern) .. "\n  error:   " .. pretty(err, "  ")
  end
end)

define({ "matches", "match" }, 2, function(pattern, actual)
  local passed = type(actual) == "string" and actual:find(pattern) ~= nil
  return passed, function(negated)
    if negated then return "expected " .. pretty(actual) .. " not to match " .. pretty(pattern) end
    return "expected a string matching the pattern\n  pattern: " .. pretty(pattern) .. "\n  actual:  " .. pretty(actual, "  ")
  end
end)

local function run(name, negated, ...)
  local spec = assertions[name]
  local args = pack(...)
  local passed, explain = spec.check(unpack(args, 1, spec.arity))
  if (passed and true or false) == negated then T.fail(explain(negated), args[spec.arity + 1]) end
  return ...
end

local modifiers = { is = true, are = true, was = true, has = true, does = true, to = true, be = true }
local negators = { ["not"] = true, no = true }

-- "is_not_nil" -> "nil", negated; "are" -> "" (a modifier only).
local function parse(key, negated)
  local tokens = {}
  for token in key:lower():gmatch("[^_]+") do tokens[#tokens + 1] = token end
  local i = 1
  while tokens[i] and (modifiers[tokens[i]] or negators[tokens[i]]) do
    if negators[tokens[i]] then negated = not negated end
    i = i + 1
  end
  return table.concat(tokens, "_", i), negated
end
T.parse_assertion_key = parse

T.special = {} -- assert.spy(s), assert.stub(s): defined with the spies
local negation = setmetatable({}, { __mode = "k" })
local chain_mt = {}

local function chain(negated)
  local c = setmetatable({}, chain_mt)
  negation[c] = negated
  return c
end

chain_mt.__index = function(self, key)
  if type(key) ~= "string" then return nil end
  local name, negated = parse(key, negation[self])
  if name == "" then return chain(negated) end
  local special = T.special[name]
  if special then return function(...) return special(negated, ...) end end
  if not assertions[name] then error("assert has no assertion named '" .. key .. "'", 2) end
  return function(...) return run(name, negated, ...) end
end

-- Lua's assert: returns its arguments, or raises the message as given (no position added).
chain_mt.__call = function(_, ...)
  if select("#", ...) == 0 then error("bad argument #1 to 'assert' (value expected)", 2) end
  local value, message = ...
  if value then return ... end
  if message == nil then message = "assertion failed!" end
  if type(message) == "string" then T.last_failure = message end
  error(message, 0)
end
chain_mt.__tostring = function() return "assert" end

assert = chain(false)
