-- `Class(props)` of a pure class with `scope = true` finds the instance it last made or kept for
-- the props' key in C and asks the runtime only whether the build keeps it (issue 28: ckclass.c,
-- `Runtime.keepRecorded`). Each case below is one the answer must refuse, or keep, exactly as a
-- construction that compares would.

-- A list of rows under a scoped parent; `rows` is {key, label} pairs; returns the host and a
-- function giving each built row in order.
local function list(Row, rows)
  local List = ck.component("KeyedList", {scope = true, initialState = rows, render = function(self, p, s)
    local children = {}
    for i, r in ipairs(s) do children[i] = Row{key = r[1], label = r[2]} end
    return ck.Stack{children = children}
  end})
  local host = ck.host(function() return List{} end)
  host:mount()
  local function rows() return host:findAll(Row.name) end
  return host, rows
end

local function labels(host)
  local out = {}
  for i, v in ipairs(host.view.subviews) do out[i] = v.attributes.text end
  return table.concat(out, " ")
end

local function labelRow(name, extra)
  local def = {scope = true, pure = true, view = function(self, p)
    return {class = "UILabel", attributes = {text = tostring(p.label)}}
  end}
  for k, v in pairs(extra or {}) do def[k] = v end
  return ck.component(name, def)
end

describe("a pure keyed row found again by its key", function()
  it("is kept through a reorder with equal props, and its view moves with it", function()
    local Row = labelRow("ByKeyRow")
    local host, rows = list(Row, {{1, "a"}, {2, "b"}, {3, "c"}})
    host.root:updateState({{1, "a"}, {2, "b"}, {3, "c"}}, "sync")   -- recorded once more
    local a, b, c = table.unpack(rows())
    host.root:updateState({{3, "c"}, {1, "a"}, {2, "b"}}, "sync")
    local now = rows()
    assert.are.equal(c, now[1])
    assert.are.equal(a, now[2])
    assert.are.equal(b, now[3])
    assert.are.equal("c a b", labels(host))
  end)

  it("is rebuilt when its props differ only in a value whose __eq says equal (the compare is raw)", function()
    local same = {__eq = function() return true end}
    local Row = labelRow("RawEqRow")
    local host, rows = list(Row, {{1, setmetatable({}, same)}})
    host.root:updateState({{1, setmetatable({}, same)}}, "sync")
    local first = rows()[1]
    host.root:updateState({{1, setmetatable({}, same)}}, "sync")
    assert.are_not.equal(first, rows()[1])
  end)

  it("is rebuilt when its props table reaches a prop only through __index", function()
    local Row = labelRow("IndexedPropsRow")
    local List = ck.component("IndexedList", {scope = true, initialState = 0, render = function(self, p, s)
      local props = {key = 1}
      if s == 0 then props.label = "x" else setmetatable(props, {__index = {label = "x"}}) end
      return ck.Stack{children = {Row(props)}}
    end})
    local host = ck.host(function() return List{} end)
    host:mount()
    host.root:updateState(0, "sync")
    local first = host:find("IndexedPropsRow")
    host.root:updateState(1, "sync")
    assert.are_not.equal(first, host:find("IndexedPropsRow"))
  end)

  it("is rebuilt with its new state when its scope has an update pending", function()
    local Row = labelRow("PendingKeyedRow", {initialState = 0})
    local host, rows = list(Row, {{1, "a"}, {2, "b"}})
    host.root:updateState({{1, "a"}, {2, "b"}}, "sync")
    local first = rows()[2]
    first:updateState(7)
    host.root:updateState({{1, "a"}, {2, "b"}}, "sync")
    assert.are_not.equal(first, rows()[2])
    assert.are.equal(7, rows()[2].state)
    assert.are.equal(0, rows()[1].state)
  end)

  it("gives a second row with the same key its own scope, as every construction does", function()
    local Row = labelRow("TwinKeyedRow", {initialState = 0})
    local host, rows = list(Row, {{1, "a"}, {1, "b"}})
    rows()[2]:updateState(5)
    ck.flush()
    host.root:updateState({{1, "a"}, {1, "b"}}, "sync")
    local now = rows()
    assert.are_not.equal(now[1], now[2])
    assert.are_not.equal(now[1].scope, now[2].scope)
    assert.are.same({0, 5}, {now[1].state, now[2].state})
    assert.are.equal("a b", labels(host))
  end)

  it("is not taken from another parent whose rows have the same keys", function()
    local Row = labelRow("SharedKeyRow", {initialState = 0})
    local Pane = ck.component("KeyedPane", {scope = function(p) return p.name end, render = function(self, p)
      local children = {}
      for i = 1, 3 do children[i] = Row{key = i, label = p.name .. i} end
      return ck.Stack{children = children}
    end})
    local host = ck.host(function(m) return ck.Stack{children = {Pane{name = "L", n = m}, Pane{name = "R", n = m}}} end,
      {model = 1})
    host:mount()
    host:update(2)
    local before = host:findAll("SharedKeyRow")
    host:update(3)
    local after = host:findAll("SharedKeyRow")
    assert.are.equal(6, #after)
    for i = 1, 6 do assert.are.equal(before[i], after[i]) end
    assert.are.equal("L1", after[1].props.label)
    assert.are.equal("R1", after[4].props.label)
  end)

  -- A redefined class makes new instances (the keep rule: the very class object, built since the
  -- last definition); from then on they are found again by key as before.
  it("follows a class redefined under its name: new instances once, then kept by key again", function()
    local Row = labelRow("RedefinedKeyedRow")
    local App = function() return ck.component("RedefinedApp", {scope = true, initialState = 0, render = function()
      return ck.Stack{children = {Row{key = 1, label = "a"}, Row{key = 2, label = "b"}}}
    end}) end
    local A = App()
    local host = ck.host(function() return A{} end)
    host:mount()
    host.root:updateState(1, "sync")
    local first = host:findAll("RedefinedKeyedRow")
    Row = ck.component("RedefinedKeyedRow", {scope = true, pure = true, view = function(self, p)
      return {class = "UILabel", attributes = {text = "new " .. p.label}}
    end})
    A = App()
    host:reload(function() return A{} end)
    host.root:updateState(2, "sync")
    local now = host:findAll("RedefinedKeyedRow")
    assert.are_not.equal(first[1], now[1])
    assert.are_not.equal(first[2], now[2])
    assert.are.equal(Row, now[1].class)
    host.root:updateState(3, "sync")
    assert.are.equal(now[1], host:findAll("RedefinedKeyedRow")[1])
    assert.are.equal(now[2], host:findAll("RedefinedKeyedRow")[2])
    assert.are.equal("new a new b", labels(host))
  end)

  -- C counts a row's props when it builds the row and walks only the next props when it
  -- compares: every key of the next props must match and they must be as many.
  describe("compared with the props it was built with, key for key", function()
    local function rowsOf(name, propsFor)
      local Row = labelRow(name .. "Row")
      local List = ck.component(name .. "List", {scope = true, initialState = 1, render = function(self, p, s)
        return ck.Stack{children = {Row(propsFor(s)), Row{key = 2, label = "b"}}}
      end})
      local host = ck.host(function() return List{} end)
      host:mount()
      return host, function() return host:findAll(Row.name) end
    end

    it("is rebuilt when the next props drop a key", function()
      local host, rows = rowsOf("DroppedKey", function(s)
        if s == 1 then return {key = 1, label = "a", extra = true} end
        return {key = 1, label = "a"}
      end)
      local first, second = table.unpack(rows())
      host.root:updateState(2, "sync")
      assert.are_not.equal(first, rows()[1])
      assert.are.equal(second, rows()[2])
      assert.is_nil(rows()[1].props.extra)
    end)

    it("is rebuilt when the next props add a key", function()
      local host, rows = rowsOf("AddedKey", function(s)
        if s == 1 then return {key = 1, label = "a"} end
        return {key = 1, label = "a", extra = true}
      end)
      local first = rows()[1]
      host.root:updateState(2, "sync")
      assert.are_not.equal(first, rows()[1])
      assert.is_true(rows()[1].props.extra)
    end)

    it("is kept when the next props have the same keys and values in another order", function()
      local host, rows = rowsOf("SameKeys", function(s)
        if s == 1 then return {key = 1, label = "a", n = 3, on = false} end
        local t = {on = false}
        t.n, t.label, t.key = 3, "a", 1
        return t
      end)
      local first = rows()[1]
      host.root:updateState(2, "sync")
      assert.are.equal(first, rows()[1])
    end)

    it("is rebuilt when a value changes and the keys stay", function()
      local host, rows = rowsOf("ChangedValue", function(s) return {key = 1, label = s == 1 and "a" or "z"} end)
      local first = rows()[1]
      host.root:updateState(2, "sync")
      assert.are_not.equal(first, rows()[1])
      assert.are.equal("z b", labels(host))
    end)

    it("keeps a replaced row's plain props readable while the script holds the row", function()
      local host, rows = rowsOf("HeldPlain", function(s) return {key = 1, label = "v" .. s} end)
      local held = rows()[1]
      for s = 2, 20 do host.root:updateState(s, "sync") end
      collectgarbage()
      collectgarbage()
      assert.are.equal("v1", held.props.label)
      assert.are.equal("v20 b", labels(host))
    end)
  end)
end)
