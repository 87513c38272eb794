-- The bridge's limits: every push loop checks the Lua stack, and Lua 5.4.4's own weak spots
-- (nested coroutine.close) end in catalogued errors, not crashes.

-- A call with `n` literal arguments: the caller's frame holds exactly them (no slack from unpack).
local function literalCall(n, prefix)
  local args = {}
  for i = 1, n do args[i] = tostring(i) end
  return load("local f, a, b = ... return " .. prefix .. table.concat(args, ", ") .. ")")
end

local function intTypes(n)
  local t = {}
  for i = 1, n do t[i] = "int" end
  return t
end

describe("many values", function()
  it("sends a scope action with 200 typed arguments, planned and not", function()
    local got = {}
    local C = ck.component("Many200", {scope = true, hit = function(self, sender, ...)
      got[#got + 1] = {n = select("#", ...), last = select(200, ...)}
    end})
    local host = ck.host(function() return C{} end)
    local action = host.root:action("hit", intTypes(200))
    local send = literalCall(200, "f(a, b, ")
    for _ = 1, 3 do assert.is_true(send(action.send, action, nil)) end
    assert.are.equal(3, #got)
    for _, g in ipairs(got) do
      assert.are.equal(200, g.n)
      assert.are.equal(200, g.last)
    end
  end)

  it("sends a selector action with 200 typed arguments up a chain", function()
    local n
    local Leaf = ck.component("Many200Leaf", {})
    local Parent = ck.component("Many200Parent", {hit = function(self, sender, ...) n = select("#", ...) end,
      render = function() return Leaf{} end})
    local host = ck.host(function() return Parent{} end)
    host:mount()
    local action = ck.action("hit", intTypes(200))
    assert.is_true(literalCall(200, "f(a, b, ")(action.send, action, host:find("Many200Leaf")))
    assert.are.equal(200, n)
  end)

  it("calls a handler that returns many values", function()
    local values = {}
    for i = 1, 5000 do values[i] = i end
    local C = ck.component("ManyResults", {scope = true, hit = function() return table.unpack(values) end,
      render = function() return nil, table.unpack(values, 1, 300) end})
    local host = ck.host(function() return C{} end)
    local action = host.root:action("hit")
    for _ = 1, 3 do assert.is_true(action:send(nil)) end
    host:mount()   -- a render's extra results are dropped
    assert.is_true(host.isMounted)
  end)

  it("refuses more values than a stack holds with [stackLimit], not a crash", function()
    local C = ck.component("TooMany", {scope = true, hit = function(self, sender, ...) end})
    local host = ck.host(function() return C{} end)
    local ok, err = pcall(function()
      local action = host.root:action("hit", intTypes(999990))
      return action:send(nil, table.unpack({}, 1, 999990))
    end)
    assert.is_false(ok)
    assert.is_nil(tostring(err):find("unprotected"))
  end)
end)

describe("coroutine.close", function()
  local function closeChain(n)
    local coro = false
    for _ = 1, n do
      local previous = coro
      coro = coroutine.create(function()
        local guard <close> = setmetatable({}, {__close = function()
          -- error(e, 0), not luassert's assert: that wraps the error in a table a level, and
          -- tostring of a chain thousands deep overflows Lua's C-call count, as in lua5.4.
          if previous then local ok, e = coroutine.close(previous); if not ok then error(e, 0) end end
        end})
        coroutine.yield()
      end)
      coroutine.resume(coro)
    end
    return coroutine.close(coro)
  end

  it("closes a few nested coroutines as Lua does", function()
    assert.is_true(closeChain(50))
  end)

  it("closes chains lua5.4 closes: 1,000 deep, and 190 made inside each other (atk-stale 15)", function()
    assert.is_true(closeChain(1000))
    local function nestedChain(n)
      local co = coroutine.create(function()
        local inner = n > 0 and nestedChain(n - 1) or nil
        local x <close> = setmetatable({}, {__close = function() if inner then assert(coroutine.close(inner)) end end})
        coroutine.yield()
      end)
      coroutine.resume(co)
      return co
    end
    assert.is_true(coroutine.close(nestedChain(190)))
  end)

  it("stops 100,000 nested closes with [stackLimit] (Lua 5.4.4 overflows the C stack)", function()
    local ok, err = closeChain(100000)
    assert.is_false(ok)
    assert.matches("%[stackLimit%]", tostring(err))
  end)

  it("keeps working after the limit was hit", function()
    closeChain(1000)
    assert.is_true(closeChain(10))
    local co = coroutine.create(function() coroutine.yield(1) end)
    coroutine.resume(co)
    assert.is_true(coroutine.close(co))
  end)
end)

describe("pcall and xpcall", function()
  it("behave as Lua's: results, errors, handlers, yields", function()
    assert.are.same({true, 1, 2}, {pcall(function() return 1, 2 end)})
    local t = {}
    assert.are.same({false, t}, {pcall(error, t)})
    assert.are.same({false, "h:e"}, {xpcall(error, function(m) return "h:" .. m end, "e")})
    local co = coroutine.wrap(function() return pcall(coroutine.yield, 1) end)
    assert.are.equal(1, co())
    assert.are.same({true, 7}, {co(7)})
    assert.has_error(function() pcall() end)
  end)
end)

describe("numbers from scripts", function()
  it("ck.cancel refuses ids that are not integers with [badArgument]", function()
    for _, id in ipairs({0/0, math.huge, -math.huge, 1e300, 1.5}) do
      local ok, err = pcall(ck.cancel, id)
      assert.is_false(ok)
      assert.matches("^%[badArgument%]", err)
    end
    ck.cancel(math.maxinteger)
    ck.cancel(math.mininteger)
    ck.cancel(-1)
    ck.cancel(2^53)
  end)

  it("ck.after and ck.advance refuse NaN and take huge and negative durations", function()
    assert.matches("^%[badArgument%]", select(2, pcall(ck.after, 0/0, function() end)))
    assert.matches("^%[badArgument%]", select(2, pcall(ck.advance, 0/0)))
    local fired = 0
    local id = ck.after(-5, function() fired = fired + 1 end)
    ck.cancel(ck.after(1e300, function() end))
    ck.cancel(ck.after(math.huge, function() end))
    ck.advance(-1)   -- a negative advance is no advance
    assert.are.equal(0, fired)
    ck.advance(0)    -- the timer set 5 seconds in the past is due now
    assert.are.equal(1, fired)
    ck.cancel(id)
  end)
end)

describe("names", function()
  local function refused(f, ...)
    local ok, err = pcall(f, ...)
    assert.is_false(ok)
    assert.matches("^%[badArgument%].*UTF%-8 text without NUL bytes", err)
    return err
  end

  it("refuses class names that are not UTF-8 or hold NUL, showing their bytes", function()
    assert.matches('"\\254"', refused(ck.component, "\254", {}))
    refused(ck.component, "\255", {})
    assert.matches('"A\\0B"', refused(ck.component, "A\0B", {}))
    refused(ck.controller, "\254\255", {})
    refused(ck.struct, "P\0", {x = "int"})
  end)

  it("refuses such method names and selectors, so that no two of them meet", function()
    refused(ck.component, "BadKey", {["\254"] = function() end})
    refused(ck.controller, "BadKeyController", {["hit\0"] = function() end})
    local ran
    local C = ck.component("Bytes", {scope = true, ["\u{FFFD}"] = function() ran = "replacement" end,
      hit = function() ran = "hit" end})
    refused(function() C["\255"] = function() ran = "255" end end)
    refused(function() C["hit\0x"] = function() end end)
    local host = ck.host(function() return C{} end)
    refused(host.root.action, host.root, "\254")
    refused(host.root.action, host.root, "hit\0x")
    refused(ck.action, "\254")
    refused(ck.action, {["\255"] = function() end}, "\254")
    assert.is_nil(C["\254"])
    host.root:action("hit"):send(nil)
    assert.are.equal("hit", ran)
  end)

  it("keeps arbitrary bytes in values: props, state and arguments", function()
    local got
    local C = ck.component("BytesValue", {scope = true, hit = function(self, sender, s) got = s end})
    local host = ck.host(function() return C{label = "\254\0\255"} end)
    host.root:action("hit", "string"):send(nil, "\255\0\254")
    assert.are.equal("\255\0\254", got)
    assert.are.equal("\254\0\255", host.root.props.label)
  end)
end)
