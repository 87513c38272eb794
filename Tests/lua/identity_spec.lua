--- Identity and names of keyed siblings (the outsider's attack on keyed rows): views follow key
--- identity with or without a scope, keys compare as rawequal does, and one notation names a
--- component (docs/api.md, *Names of components*) in paths, dumps and messages, at most 200
--- bytes of a value each.

-- A host of `Item{key = k}` under a stack, for each key of the model.
local function list_host(Item, model, wrap)
  return ck.host(function(m)
    local rows = {}
    for i, k in ipairs(m) do rows[i] = wrap and wrap(k, Item) or Item{key = k, label = "L" .. tostring(k)} end
    return ck.Stack{children = rows}
  end, {model = model})
end

-- The host view's subviews by the text they show, and how many views `fn` moved.
local function by_text(host)
  local out = {}
  for _, v in ipairs(host.view.subviews) do out[v.attributes.text] = v end
  return out
end

local function moves_during(fn)
  local before = ck.stats().viewMoves
  fn()
  return ck.stats().viewMoves - before
end

-- After `host:update(model)`: how many views still show what they showed, and the moves.
local function reorder(host, model)
  local before = by_text(host)
  local moved = moves_during(function() host:update(model) end)
  local same, n = 0, 0
  for text, v in pairs(by_text(host)) do
    n = n + 1
    if before[text] == v then same = same + 1 end
  end
  return same, n, moved
end

local Label = ck.component("IdLabel", {view = function(self, p)
  return {class = "UILabel", attributes = {text = p.label}}
end})

describe("keyed siblings without a scope", function()
  it("keep their views when reordered, in the fewest moves", function()
    local host = list_host(Label, {1, 2, 3})
    host:mount()
    local same, n, moved = reorder(host, {3, 1, 2})
    assert.are.same({3, 3, 1}, {same, n, moved})
  end)

  it("keep their views as ck.View{key = …} wrappers", function()
    local host = list_host(nil, {1, 2, 3}, function(k)
      return ck.View{key = k, class = "UILabel", attributes = {text = "L" .. k}}
    end)
    host:mount()
    local same, n, moved = reorder(host, {2, 3, 1})
    assert.are.same({3, 3, 1}, {same, n, moved})
  end)

  it("move an unscoped child with its keyed ck.Stack group", function()
    local host = list_host(nil, {"a", "b"}, function(g)
      return ck.Stack{key = g, children = {Label{label = g .. "1"}, Label{label = g .. "2"}}}
    end)
    host:mount()
    local same, n = reorder(host, {"b", "a"})
    assert.are.same({4, 4}, {same, n})
    local texts = {}
    for i, v in ipairs(host.view.subviews) do texts[i] = v.attributes.text end
    assert.are.same({"b1", "b2", "a1", "a2"}, texts)
  end)

  it("pair duplicate keys in order, each old view once", function()
    local host = list_host(Label, {1, 1, 2})
    host:mount()
    local views = host.view.subviews
    host:update({2, 1, 1})
    local now = host.view.subviews
    assert.are.same({views[3], views[1], views[2]}, {now[1], now[2], now[3]})
  end)

  it("do not take the view of a sibling whose key changed", function()
    local host = list_host(Label, {1})
    host:mount()
    local old = host.view.subviews[1]
    host:update({2})
    assert.are_not.equal(old, host.view.subviews[1])
    assert.is_nil(ck.componentOf(old))
  end)
end)

local Scoped = ck.component("IdRow", {scope = true, initialState = function(p) return {born = p.label} end,
  view = function(self, p, s) return {class = "UILabel", attributes = {text = p.label, born = s.born}} end})

describe("keys", function()
  it("that Lua tells apart are different scopes (2^53 + 1 and 2^53, maxinteger and 2^63)", function()
    local warned = {}
    local saved = ck.config.onWarning
    ck.config.onWarning = function(m) warned[#warned + 1] = m end
    for _, pair in ipairs({{9007199254740993, 2 ^ 53}, {math.maxinteger, 2 ^ 63}}) do
      local a, b = pair[1], pair[2]
      local host = list_host(nil, {a, b}, function(k) return Scoped{key = k, label = k == a and "A" or "B"} end)
      host:mount()
      host:update({b, a})
      local shown = {}
      for i, v in ipairs(host.view.subviews) do shown[i] = v.attributes.text .. v.attributes.born end
      assert.are.same({"BB", "AA"}, shown)
      host:destroy()
    end
    ck.config.onWarning = saved
    assert.are.same({}, warned)
  end)

  it("that Lua equates are one identity (2 and 2.0)", function()
    local host = list_host(nil, {2}, function(k) return Scoped{key = k, label = tostring(k)} end)
    host:mount()
    local scope = host:find("IdRow").scope
    host:update({2.0})
    assert.are.equal(scope, host:find("IdRow").scope)
  end)
end)

describe("names of components", function()
  it("keep a key's type: 1 is Row#1, \"1\" is Row#\"1\"", function()
    local host = list_host(nil, {1, "1", "one", 2.5, true, "true", ""}, function(k) return Scoped{key = k, label = "x"} end)
    local paths = {}
    for i, c in ipairs(host:findAll("IdRow")) do paths[i] = c.path end
    assert.are.same({"Stack/IdRow#1", 'Stack/IdRow#"1"', "Stack/IdRow#one", "Stack/IdRow#2.5", "Stack/IdRow#true",
                     'Stack/IdRow#"true"', 'Stack/IdRow#""'}, paths)
    local dump = host:dump()
    assert.matches("\n  IdRow#1 <", dump, 1, true)
    assert.matches('\n  IdRow#"1" <', dump, 1, true)
  end)

  it("quote a key that would break the notation, escaping quotes and backslashes", function()
    local host = list_host(nil, {'a"b', "c\\", "x/y", "p#q", "t\n"}, function(k) return Scoped{key = k, label = "x"} end)
    local labels = {}
    for i, c in ipairs(host:findAll("IdRow")) do labels[i] = c.path:match("[^/]*/(.*)") end
    assert.are.same({'IdRow#"a\\"b"', 'IdRow#"c\\\\"', 'IdRow#"x/y"', 'IdRow#"p#q"', 'IdRow#"t\\010"'}, labels)
  end)

  it("show the identifier and the key: Row#id#2, in paths and in [buildFailed]", function()
    local boom = false
    local Row = ck.component("IdPair", {scope = function() return "id" end, view = {class = "UIView"},
      render = function(self, p) if boom and p.key == 2 then error("boom") end end})
    local host = list_host(nil, {1, 2, 3}, function(k) return Row{key = k} end)
    host:mount()
    local paths = {}
    for i, c in ipairs(host:findAll("IdPair")) do paths[i] = c.path end
    assert.are.same({"Stack/IdPair#id#1", "Stack/IdPair#id#2", "Stack/IdPair#id#3"}, paths)
    boom = true
    local ok, err = pcall(host.update, host, {1, 2, 3})
    assert.is_false(ok)
    assert.matches("raised in the render of Stack/IdPair#id#2;", err, 1, true)
  end)

  it("show at most 200 bytes of a key in warnings and errors", function()
    local K = string.rep("k", 1000000)
    local longest = 0
    local saved = ck.config.onWarning
    ck.config.onWarning = function(m) longest = math.max(longest, #m) end
    local Row = ck.component("IdLong", {scope = true, view = {class = "UILabel"},
      render = function(self, p) if p.boom then error("boom") end end})
    local host = ck.host(function(m) return ck.Stack{children = {Row{key = K}, Row{key = K, boom = m.boom}}} end, {model = {}})
    host:mount()
    local ok, err = pcall(host.update, host, {boom = true})
    ck.config.onWarning = saved
    assert.is_false(ok)
    assert.is_true(longest > 0 and longest < 2000, "a warning of " .. longest .. " bytes")
    local first = err:match("^[^\n]*")
    assert.is_true(#first < 2000, "a first line of " .. #first .. " bytes")
    assert.matches(string.rep("k", 200) .. "… (1000000 bytes)", first, 1, true)
    assert.is_true(#host:dump() < 2000)
  end)
end)

describe("[buildFailed] names where the script raised", function()
  it("a shouldUpdate: its own component, not the one rendered before it", function()
    local Row = ck.component("IdSu", {scope = true, pure = true, view = {class = "UILabel"},
      shouldUpdate = function(self, old, new) if new.key == 2 then error("su boom") end return true end})
    local Other = ck.component("IdOther", {view = {class = "UIView"}})
    local host = list_host(nil, {1, 2}, function(k) return ck.Stack{key = k, children = {Row{key = k}, Other{}}} end)
    host:mount()
    local ok, err = pcall(host.update, host, {1, 2})
    assert.is_false(ok)
    assert.matches("raised in the shouldUpdate of Stack/Stack#2/IdSu#2;", err, 1, true)
  end)

  it("a view function: named as such", function()
    local boom = false
    local Row = ck.component("IdView", {scope = true, view = function(self, p)
      if boom then error("view boom") end
      return {class = "UILabel"}
    end})
    local host = list_host(nil, {1}, function(k) return Row{key = k} end)
    host:mount()
    boom = true
    local ok, err = pcall(host.update, host, {1})
    assert.is_false(ok)
    assert.matches("raised in the view function of Stack/IdView#1;", err, 1, true)
  end)
end)

describe("an error in a controller's callback", function()
  it("reaches the caller with [callbackFailed], the callback and the component's path", function()
    local Row = ck.component("IdCb", {scope = true, view = {class = "UILabel"}})
    ck.controller("IdCbController", {didMount = function(self)
      if self.component.key == 5 then error("dm boom") end
    end})
    local host = list_host(nil, {1, 2}, function(k) return Row{key = k} end)
    host:mount()
    local ok, err = pcall(host.update, host, {5, 1, 2})
    assert.is_false(ok)
    assert.matches("^%[callbackFailed%] IdCbController%.didMount of Stack/IdCb#5 raised: [^\n]*: dm boom", err)
    assert.are.equal(3, #host:findAll("IdCb"))   -- the rest of the pass ran
  end)

  it("names the callback before a limit's error too, which keeps its own id on its line", function()
    local Row = ck.component("IdLimit", {scope = true, view = {class = "UILabel"}})
    ck.controller("IdLimitController", {willUnmount = function() error("[timeout] pretend", 0) end})
    local host = list_host(nil, {1}, function(k) return Row{key = k} end)
    host:mount()
    local ok, err = pcall(host.unmount, host)
    assert.is_false(ok)
    assert.matches("^%[callbackFailed%] IdLimitController%.willUnmount of Stack/IdLimit#1 raised: %[timeout%] pretend", err)
  end)
end)

-- Identifiers and keys compare as rawequal does; NaN is not rawequal to itself, so it names no
-- scope a later build could find: refused where it is given (outsider's ComponentKit attack).
describe("a NaN identifier or key", function()
  local function refused(text, f)
    local ok, err = pcall(ck.host, f)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("[badArgument]", 1, true), tostring(err))
    assert.truthy(tostring(err):find(text, 1, true), tostring(err))
  end

  it("is [badArgument] from a scope function", function()
    local R = ck.component("NanId", {scope = function(p) return p.id end, initialState = 0})
    refused("NanId's scope function returned NaN", function() return R{id = 0/0} end)
  end)

  it("is [badArgument] as a key, on a scoped, pure or built-in class", function()
    local K = ck.component("NanKey", {scope = true})
    local P = ck.component("NanPure", {scope = true, pure = true})
    refused("NanKey{key = nan}", function() return K{key = 0/0} end)
    refused("NanPure{key = nan}", function() return P{key = 0/0} end)
    refused("Text{key = nan}", function() return ck.Text{text = "x", key = 0/0} end)
  end)
end)
