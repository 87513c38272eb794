-- Messages that point at the user's code and name what was wrong (issue 16): struct
-- arguments (SPEC §6.4), file:line in build errors and warnings, handler frames in
-- tracebacks, and trace entries delivered outer-first.
local here = "messages_spec.lua"

describe("struct arguments", function()
  ck.struct("MPoint", {x = "number", y = "number"})
  ck.struct("MLine", {from = "MPoint", to = "MPoint", width = "int"})

  local function receiver(types)
    local got = {}
    local a = ck.action(function(sender, ...) got.args = table.pack(...) end, types)
    return a, got
  end

  it("reach the handler as a new table of exactly the declared fields, converted, missing ones zero", function()
    local a, got = receiver({"MPoint"})
    local given = {x = 1}
    a:send(nil, given)
    local p = got.args[1]
    assert.are_not.equal(given, p)
    assert.are.same({x = 1.0, y = 0.0}, p)
    assert.are.equal("float", math.type(p.x))
  end)

  it("name a wrong-typed field", function()
    local a = receiver({"MPoint"})
    -- luassert's error assertions drop the location: the raw message keeps it.
    local ok, err = pcall(function() a:send(nil, {x = 1, y = "two"}) end)
    assert.is_false(ok)
    assert.matches("^%[badArgument%] [^:]*" .. here .. ":%d+: send of a block action: argument #1 %(MPoint%)%.y must be number, got string$", err)
  end)

  it("name a nested field", function()
    local a = receiver({"MLine"})
    assert.error_matches(function() a:send(nil, {from = {x = 0, y = 0}, to = {x = 1, y = false}}) end,
      "argument #1 %(MLine%)%.to%.y must be number, got boolean")
    assert.error_matches(function() a:send(nil, {width = 1.5}) end,
      "argument #1 %(MLine%)%.width must be int, got 1%.5 %(a number that is not an integer%)")
  end)

  it("refuse a field the struct does not declare", function()
    local a = receiver({"MPoint"})
    assert.error_matches(function() a:send(nil, {x = 1, y = 2, z = 3}) end,
      "argument #1 %(MPoint%) has a field z that MPoint does not declare %(it declares x, y%)")
  end)

  it("say that a float is not an integer", function()
    local a = receiver({"int"})
    assert.error_matches(function() a:send(nil, 4.5) end, "argument #1 must be int, got 4%.5 %(a number that is not an integer%)")
    a:send(nil, 4.0)
  end)
end)

describe("errors and warnings found during a build", function()
  it("[controllerWithoutScope] names the line that built the component", function()
    local K = ck.component("MUnscoped", {})
    ck.controller("MUnscopedController", {})
    local P = ck.component("MParent", {scope = true, render = function() return K{} end})
    local ok, err = pcall(function() return ck.host(function() return P{} end) end)
    assert.is_false(ok)
    assert.is_not_nil(err:find("^%[buildFailed%] [^\n]*the first build of a host[^\n]*\n%[controllerWithoutScope%] [^:]*" .. here .. ":%d+: MUnscoped has controller"), err)
  end)

  it("[badReturn] names where the render was defined", function()
    local R = ck.component("MBadReturn", {render = function() return 42 end})
    local ok, err = pcall(function() return ck.host(function() return R{} end) end)
    assert.is_false(ok)
    assert.is_not_nil(err:find("^%[buildFailed%] [^\n]*the first build of a host[^\n]*\n%[badReturn%].*render of MBadReturn %(defined at [^:]*" .. here .. ":%d+%) returned an integer"), err)
  end)

  it("[scopeCollision] names the line that built the second sibling", function()
    local warnings = {}
    ck.config.onWarning = function(m) warnings[#warnings + 1] = m end
    local S = ck.component("MCollide", {scope = true})
    ck.host(function() return ck.Stack{children = {S{}, S{}}} end)
    ck.config.onWarning = nil
    assert.are.equal(1, #warnings)
    assert.is_not_nil(warnings[1]:find("^%[scopeCollision%] [^:]*" .. here .. ":%d+: two sibling scopes"), warnings[1])
  end)
end)

describe("tracing", function()
  it("delivers nested sends to ck.config.onTrace outer-first, each once", function()
    local C = ck.component("MTraced", {scope = true,
      outer = function(self, sender) self:action("inner"):send(sender) end,
      inner = function() end})
    local host = ck.host(function() return C{} end)
    host:mount()
    local lines = {}
    ck.config.onTrace = function(e) lines[#lines + 1] = e.selector end
    host.root:action("outer"):send(nil)
    ck.config.onTrace = nil
    assert.are.same({"outer", "inner"}, lines)
  end)

  it("still delivers what a send that raised had traced", function()
    local C = ck.component("MTracedError", {scope = true, boom = function() error("no") end})
    local host = ck.host(function() return C{} end)
    local lines = {}
    ck.config.onTrace = function(e) lines[#lines + 1] = e.selector end
    pcall(function() host.root:action("boom"):send(nil) end)
    host.root:action("boom")   -- the tracer is balanced again:
    ck.config.onTrace = nil
    assert.are.same({"boom"}, lines)
  end)
end)

-- Issue 29: what a newcomer needed from each message.
describe("messages name what they are about", function()
  local function raised(f)
    local ok, err = pcall(f)
    assert.is_false(ok)
    return err
  end

  it("a send's argument errors name its selector", function()
    local C = ck.component("MPolishSender", {scope = true, pick = function(self, sender, id) end})
    local host = ck.host(function() return C{} end)
    host:mount()
    local a = ck.action("pick", {"int"}):withBehavior("startAtSender")
    assert.matches('%[badArgument%] [^:]*' .. here .. ':%d+: send of "pick": argument #1 must be int, got string$',
      raised(function() a:send(host.root, "3") end))
    assert.matches('send of "pick": 2 arguments after the sender, but the action is typed {"int"}; pass at most 1',
      raised(function() a:send(host.root, 1, 2) end))
    a:send(host.root, 1)   -- a planned send answers in C: its errors are the same
    assert.matches('send of "pick": argument #1 must be int, got string$', raised(function() a:send(host.root, "3") end))
    host:destroy()
  end)

  it("[tooManyArguments] and [doesNotRespond] name the class whose method was found, or both", function()
    local C = ck.component("MPolishList", {scope = true, render = function() return nil end,
      own = function(self, sender, a, b) end})
    ck.controller("MPolishListController", {add = function(self, sender, text, extra) end})
    local host = ck.host(function() return C{} end)
    assert.matches("MPolishListController:add takes 3 arguments after self, but the action provides the sender and 1 more %(typed {\"string\"}%)",
      raised(function() host.root:action("add", {"string"}) end))
    assert.matches("%[tooManyArguments%] [^:]*" .. here .. ":%d+: MPolishList:own takes 3 arguments after self, but the action provides only the sender;",
      raised(function() ck.action(host.root, "own") end))
    assert.matches('neither MPolishList nor its controller class MPolishListController has a method "gone"; define function MPolishListController:gone',
      raised(function() host.root:action("gone") end))
    host:destroy()
  end)

  it("[badReturn] says how to return several children, and where an instance went twice", function()
    local Two = ck.component("MPolishTwo", {render = function() return {ck.Text{}, ck.Text{}} end})
    assert.matches("returned a table at MPolishTwo; return one component built with Class%(props%), or nil %(for several children, return ck%.Stack{children = {…}}%)",
      raised(function() ck.host(Two) end))
    local Dup = ck.component("MPolishDup", {render = function()
      local t = ck.Text{}
      return ck.Stack{children = {t, t}}
    end})
    assert.matches("^%[buildFailed%] [^\n]*the first build of a host[^\n]*\n%[badReturn%] [^:]*" .. here .. ":%d+: Text was placed in the tree twice %(again at MPolishDup/Stack/Text%[2%], in what the render of MPolishDup returned%)",
      raised(function() ck.host(Dup) end))
    local Thrice = ck.component("MPolishThrice", {render = function()
      local t = ck.Text{}
      return ck.Stack{children = {ck.Button{}, t, false, t, t}}
    end})
    assert.matches("Text was placed in the tree twice %(again at MPolishThrice/Stack/Text%[2%],", raised(function() ck.host(Thrice) end))
  end)

  it("[updateLoop] names the callback that queued the updates and its line", function()
    local L = ck.component("MPolishLoopy", {scope = true, initialState = 0})
    ck.controller("MPolishLoopyController", {didUpdateComponent = function(self)
      self.component:updateState(function(n) return n + 1 end)
    end})
    local host = ck.host(function() return L{} end)
    host:mount()
    for _, mode in ipairs({"async", "sync"}) do
      local err = raised(function()
        host.root:updateState(1, mode)
        host:flush()
      end)
      assert.matches("^%[updateLoop%] [^:]*" .. here .. ":%d+: state updates re%-triggered builds 100 times in a row %(still updating: MPolishLoopy; the last were queued by MPolishLoopyController%.didUpdateComponent at [^:]*" .. here .. ":%d+%)", err)
    end
    host:destroy()
  end)

  it("a send's wrong sender names its selector too", function()
    assert.matches('action:send of "pick": argument #1 %(sender%) must be a component, controller, view or responder table, got number',
      raised(function() ck.action("pick", {"int"}):send(5) end))
    assert.matches('ck%.actionSend of "pick": argument #2 %(sender%)', raised(function() ck.actionSend("pick", 5) end))
    assert.matches('action:send of a block action: argument #1 %(sender%)', raised(function() ck.action(function() end):send(5) end))
  end)

  it("a view function's [badReturn] says where it is defined", function()
    local line = debug.getinfo(1, "l").currentline + 1
    local V = ck.component("MPolishView", {view = function() return "UIView" end})
    assert.matches("^%[buildFailed%] [^\n]*the first build of a host[^\n]*\n%[badReturn%] [^:]*" .. here .. ":" .. line .. ": the view of MPolishView is a string",
      raised(function() ck.host(V) end))
  end)
  -- docs/api.md: a message shows at most 200 bytes of any value, then … and its length (the
  -- outsider's break 07: a 50 MB selector made a 100 MB [unhandledAction]).
  it("quotes a long value as 200 bytes and its length, in every message that quotes one", function()
    local big = string.rep("A", 1000)
    local B = ck.component("MPolishBig", {scope = true, go = function() end,
      render = function(self) return ck.Button{title = "t", action = self:action("go")} end})
    local h = ck.host(B)
    h:mount()
    local cases = {
      function() ck.action("x", {big}) end,
      function() ck.actionSend(big, h:find("Button")) end,
      function() h:tap(big) end,
      function() h:find(big .. " >") end,
      function() ck.action(h.root, big) end,
      function() ck.host(ck.component("MPolishBig2", {controller = big, render = function() end})) end,
      function() ck.config[big] = 1 end,
      function() ck.struct(big, {[1] = "int"}) end,
    }
    for i, f in ipairs(cases) do
      local e = raised(f)
      assert.is_true(#e < 900, i .. ": " .. #e .. " bytes: " .. e:sub(1, 120))
      assert.truthy(e:find("… %(100%d bytes%)"), i .. ": " .. e:sub(1, 300))
    end
  end)
  -- The outsider's small defects (breaks 10 and 04): an options field is its argument's part, an
  -- assignment has no argument number, one argument is singular, NaN reads one way.
  it("names an options field, an assignment, a count and NaN as the script wrote them", function()
    local h = ck.host(function() return ck.Text{text = "t"} end)
    assert.matches("host:dump: argument #1 %(options%.depth%) must be an integer, got nan$", raised(function() h:dump({depth = 0/0}) end))
    assert.matches("host:dump: argument #1 %(options%.width%) must be an integer, got 1%.5$", raised(function() h:dump({width = 1.5}) end))
    assert.matches(":%d+: ck%.config%.maxDepth must be a positive integer, got number %-1$", raised(function() ck.config.maxDepth = -1 end))
    assert.matches(":%d+: ck%.config%.onWarning must be a function %(or a table with __call%), got number 42$", raised(function() ck.config.onWarning = 42 end))
    assert.matches(": 1 argument after the sender,", raised(function() ck.action(function() end):send(nil, 1) end))
    assert.matches("ck%.cancel: argument #1 %(id%) must be an integer, got nan$", raised(function() ck.cancel(0/0) end))
  end)
end)
