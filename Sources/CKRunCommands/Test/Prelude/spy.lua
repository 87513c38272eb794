-- ckrun test: spies, stubs and argument matchers.
-- luassert's spies and stubs, and `match` for arguments: spy.new, spy.on, stub,
-- assert.spy(s).was.called(n), .was.called_with(...), .was.not_called().
local T = _ENV["(ckrun test)"]
local pretty, deep_same = T.pretty, T.deep_same
local pack, unpack, insert = table.pack, table.unpack, table.insert

local is_spy = setmetatable({}, { __mode = "k" })
local spy_methods = {}
local spy_mt = { __index = spy_methods }

spy_mt.__call = function(self, ...)
  local args = pack(...)
  insert(self.calls, { vals = args, n = args.n })
  return self.callback(...)
end
spy_mt.__tostring = function(self) return "spy(" .. (self.name or "anonymous") .. ")" end

local function callable(fn)
  if type(fn) == "function" then return true end
  local mt = getmetatable(fn)
  return type(mt) == "table" and rawget(mt, "__call") ~= nil
end

local function new_spy(fn)
  local s = setmetatable({ calls = {}, callback = fn or function() end }, spy_mt)
  is_spy[s] = true
  return s
end

-- Puts `s` in place of target[name]; inside a test it is put back when the test ends.
local function install(s, target, name)
  if type(target) ~= "table" and type(target) ~= "userdata" then
    error("spy.on expects a table as its first argument, got " .. pretty(target), 3)
  end
  s.name, s.target, s.original = name, target, target[name]
  target[name] = s
  if T.running then insert(T.reverts, function() s:revert() end) end
  return s
end

function spy_methods:revert()
  if self.target ~= nil then
    self.target[self.name] = self.original
    self.target = nil
  end
  return self
end

function spy_methods:clear()
  self.calls = {}
  return self
end

-- The stub's results from now on.
function spy_methods:returns(...)
  local results = pack(...)
  self.callback = function() return unpack(results, 1, results.n) end
  return self
end

function spy_methods:invokes(fn)
  self.callback = fn
  return self
end

spy = setmetatable({}, { __call = function(_, fn) return spy.new(fn) end })

function spy.new(fn)
  if fn ~= nil and not callable(fn) then error("spy.new expects a function, got " .. pretty(fn), 2) end
  return new_spy(fn)
end

function spy.on(target, name)
  local original = type(target) == "table" and target[name] or nil
  if original ~= nil and not callable(original) then
    error("spy.on: " .. tostring(name) .. " is not a function but " .. pretty(original), 2)
  end
  return install(new_spy(original), target, name)
end

function spy.is_spy(value) return is_spy[value] == true end

stub = setmetatable({}, { __call = function(_, target, name, ...) return stub.new(target, name, ...) end })

function stub.new(target, name, ...)
  local s = new_spy(nil):returns(...)
  if target == nil then return s end
  return install(s, target, name)
end

-- Argument matchers for called_with and assert.same: match._ matches anything.
match = {}
local function matcher(description, test)
  local m = setmetatable({ test = test }, { __tostring = function() return description end })
  T.matchers[m] = true
  return m
end
match._ = matcher("match._", function() return true end)
for _, kind in ipairs({ "string", "number", "table", "function", "boolean", "userdata", "thread", "nil" }) do
  match["is_" .. kind] = function()
    return matcher("match.is_" .. kind .. "()", function(v) return type(v) == kind end)
  end
end
match.is_truthy = function() return matcher("match.is_truthy()", function(v) return v ~= nil and v ~= false end) end
match.is_falsy = function() return matcher("match.is_falsy()", function(v) return v == nil or v == false end) end
match.is_same = function(x) return matcher("match.is_same(" .. pretty(x) .. ")", function(v) return (deep_same(x, v)) end) end
match.is_equal = function(x) return matcher("match.is_equal(" .. pretty(x) .. ")", function(v) return v == x end) end
match.matches = function(p) return matcher("match.matches(" .. pretty(p) .. ")", function(v) return type(v) == "string" and v:find(p) ~= nil end) end
match.is_not_nil = function() return matcher("match.is_not_nil()", function(v) return v ~= nil end) end
match.any = match._

local function times(n) return n == 1 and "1 time" or (n .. " times") end

local function call_list(s)
  if #s.calls == 0 then return "it was never called" end
  local lines = { "its calls were:" }
  for i, call in ipairs(s.calls) do lines[#lines + 1] = "    " .. i .. ". " .. T.pretty_arguments(call.vals, call.n, "    ") end
  return table.concat(lines, "\n  ")
end

-- Extra trailing nils do not count: f(1) was called with (1, nil) too.
local function called_with(s, args)
  for _, call in ipairs(s.calls) do
    local all = true
    for i = 1, math.max(call.n, args.n) do
      if not deep_same(args[i], call.vals[i]) then all = false break end
    end
    if all then return true end
  end
  return false
end

local spy_assertions = {
  called = function(s, negated, n)
    local count = #s.calls
    local passed = (n == nil and count > 0) or count == n
    if passed == negated then
      if n == nil and not negated then T.fail("expected " .. tostring(s) .. " to be called, but it was never called") end
      if n == nil then T.fail("expected " .. tostring(s) .. " not to be called, but it was called " .. times(count) .. "\n  " .. call_list(s)) end
      if negated then T.fail("expected " .. tostring(s) .. " not to be called " .. times(n)) end
      T.fail("expected " .. tostring(s) .. " to be called " .. times(n) .. ", but it was called " .. times(count) .. "\n  " .. call_list(s))
    end
  end,
  called_with = function(s, negated, ...)
    local args = pack(...)
    if called_with(s, args) == negated then
      local wanted = T.pretty_arguments(args, args.n, "  ")
      if negated then T.fail("expected " .. tostring(s) .. " not to be called with " .. wanted .. ", but it was") end
      T.fail("expected " .. tostring(s) .. " to be called with " .. wanted .. "\n  " .. call_list(s))
    end
  end,
  called_at_least = function(s, negated, n)
    if (#s.calls >= n) == negated then
      T.fail("expected " .. tostring(s) .. (negated and " not" or "") .. " to be called at least " .. times(n) .. ", but it was called " .. times(#s.calls))
    end
  end,
  called_at_most = function(s, negated, n)
    if (#s.calls <= n) == negated then
      T.fail("expected " .. tostring(s) .. (negated and " not" or "") .. " to be called at most " .. times(n) .. ", but it was called " .. times(#s.calls))
    end
  end,
}

local negation = setmetatable({}, { __mode = "k" })
local target_of = setmetatable({}, { __mode = "k" })
local spy_chain_mt = {}

local function spy_chain(s, negated)
  local c = setmetatable({}, spy_chain_mt)
  negation[c], target_of[c] = negated, s
  return c
end

spy_chain_mt.__index = function(self, key)
  if type(key) ~= "string" then return nil end
  local name, negated = T.parse_assertion_key(key, negation[self])
  if name == "" then return spy_chain(target_of[self], negated) end
  local check = spy_assertions[name]
  if not check then error("assert.spy(s) has no assertion named '" .. key .. "'", 2) end
  local s = target_of[self]
  return function(...) check(s, negated, ...) return s end
end

local function spy_assertion(negated, s)
  if not is_spy[s] then error("assert.spy expects a spy (from spy.new, spy.on or stub), got " .. pretty(s), 2) end
  return spy_chain(s, negated)
end
T.special.spy, T.special.stub = spy_assertion, spy_assertion
