-- A children list (SPEC §5, 2026-11-25): every entry at a positive integer index, in index
-- order, whatever `#t` says; `nil` and `false` entries are skipped (`cond and X{}`), as
-- ComponentKit's stacks skip nil children; any other value is `[badArgument]` naming it, the
-- line of the `ck.Stack{...}` that built the list, and where in the tree.
local here = "children_lists_spec.lua"

local Item = ck.component("ListItem", {view = {class = "UIView"}})

local function keys(children)
  local host = ck.host(function() return ck.Stack{children = children} end)
  host:mount()
  local got = {}
  for _, c in ipairs(host:findAll("ListItem")) do got[#got + 1] = c.key end
  host:destroy()
  return got
end

-- The raw message of the build: luassert's error assertions drop the location.
local function failure(fn)
  local ok, err = pcall(fn)
  assert.is_false(ok)
  return err
end

describe("a children list", function()
  it("skips a leading nil", function()
    assert.are.same({"b"}, keys({nil, Item{key = "b"}}))
  end)

  it("skips nil and false anywhere, keeping the rest in order", function()
    assert.are.same({"a", "b", "c"}, keys({Item{key = "a"}, false, Item{key = "b"}, nil, Item{key = "c"}}))
  end)

  it("takes `cond and X{}`", function()
    local show = false
    assert.are.same({"always"}, keys({show and Item{key = "maybe"}, Item{key = "always"}}))
  end)

  it("is in index order whatever order the table was filled in", function()
    local t = {}
    t[10], t[3], t[1] = Item{key = "ten"}, Item{key = "three"}, Item{key = "one"}
    assert.are.same({"one", "three", "ten"}, keys(t))
  end)

  it("ignores keys that are not positive integers", function()
    assert.are.same({"a"}, keys({nil, Item{key = "a"}, [0] = Item{key = "zero"}, [-1] = Item{}, [1.5] = Item{}, x = Item{}}))
  end)

  it("is read when ck.Stack{...} runs, as ComponentKit's stacks take theirs: a later change is not seen", function()
    local list = {Item{key = "a"}}
    local stack = ck.Stack{children = list}
    list[1], list[2] = nil, "late"
    local Holder = ck.component("ListHolder", {render = function() return stack end})
    local host = ck.host(function() return Holder{} end)
    host:mount()
    assert.are.equal("a", host:find("ListItem").key)
  end)

  it("of nothing but nil and false is no children", function()
    assert.are.same({}, keys({false, nil, false}))
  end)

  -- Read in C a chunk of 256 entries at a time (ChildLists' common case): whatever sits past a
  -- chunk is kept in order, or reported as when the list is walked entry by entry.
  local function long(n, at)
    local t, want = {}, {}
    for i = 1, n do
      if at[i] == nil then t[i] = Item{key = i}; want[#want + 1] = i else t[i] = at[i] end
    end
    return t, want
  end

  it("longer than one pass reads keeps every entry in index order, skipping nil and false", function()
    local t, want = long(700, {[256] = false, [257] = false, [513] = false})
    t[600] = nil
    table.remove(want, 597)   -- key 600: the 597th kept entry
    assert.are.same(want, keys(t))
  end)

  it("longer than one pass still reports a bad entry, an entry out of order or a dropped child past it", function()
    local t = long(600, {[580] = "late"})
    assert.matches("entry 580 is a string %(\"late\"%), not a component", failure(function() ck.Stack{children = t} end))
    local u, want = long(600, {})
    local shuffled = {}
    for i = 600, 1, -1 do shuffled[i] = u[i] end   -- filled backwards: its keys in the hash part
    assert.are.same(want, keys(shuffled))
    local v = long(300, {})
    v.row = Item{key = "dropped"}
    local seen, before = {}, ck.config.onWarning
    ck.config.onWarning = function(m) seen[#seen + 1] = m end
    local ok, got = pcall(keys, v)
    ck.config.onWarning = before
    assert(ok, got)
    assert.are.equal(300, #got)
    assert.are.equal(1, #seen)
    assert.matches("%[droppedChild%] .*{%[\"row\"%] = …}", seen[1])
  end)
end)

describe("a children list entry that is not a component", function()
  local Screen = ck.component("ListScreen", {render = function(self, p)
    return ck.Stack{children = p.children}
  end})
  local line = debug.getinfo(1, "l").currentline - 2

  it("is [badArgument] naming the value, the ck.Stack line and the render", function()
    local err = failure(function() ck.host(function() return Screen{children = {Item{}, "oops"}} end) end)
    assert.matches("^%[buildFailed%] [^\n]*the first build of a host[^\n]*\n%[badArgument%] [^:]*" .. here .. ":" .. line .. ": ck%.Stack{children = …}: entry 2 is a string %(\"oops\"%), not a component %(in the render of ListScreen%); leave it out, or make it nil or false %(cond and X{}%)", err)
  end)

  it("names the lowest bad index, with a short tostring", function()
    local t = {}
    t[9] = setmetatable({}, {__tostring = function() return ("x"):rep(100) end})
    t[4] = 42
    local err = failure(function() ck.host(function() return Screen{children = t} end) end)
    assert.matches("entry 4 is a number %(42%), not a component", err, 1, false)
    t[4] = nil
    err = failure(function() ck.host(function() return Screen{children = t} end) end)
    assert.matches("entry 9 is a table %(" .. ("x"):rep(40) .. "…%)", err)
  end)

  it("counts true as a value, not as an absent child", function()
    local err = failure(function() ck.Stack{children = {true}} end)
    assert.matches("entry 1 is a boolean %(true%)", err)
  end)

  it("is reported at the render of a scoped built-in's rebuilt copy, which reads its props again", function()
    ck.Stack.scope = true
    finally(function() ck.Stack.scope = nil end)
    local list = {Item{key = "a"}}
    local host = ck.host(function() return ck.Stack{children = list} end)
    host:mount()
    list[2], list[3] = Item{key = "b"}, "late"
    local err = failure(function() host.root:updateState(1, "sync") end)
    assert.matches("entry 3 is a string %(\"late\"%), not a component at Stack;", err)
  end)

  it("is refused when the list is not a table", function()
    assert.matches("children = …} must be a list of components, got a string %(\"x\"%)", failure(function() ck.Stack{children = "x"} end))
  end)
end)

describe("ck.View's child", function()
  it("is [badArgument] at the ck.View line when it is not a component", function()
    local line = debug.getinfo(1, "l").currentline + 1
    local err = failure(function() ck.View{class = "UIView", child = "oops"} end)
    assert.matches("^%[badArgument%] [^:]*" .. here .. ":" .. line .. ": ck%.View{child = …} must be a component or nil, got a string %(\"oops\"%)", err)
  end)
end)

-- `cond and X{}` gives false when cond is false: wherever one child is expected (a render's
-- return, a provider's, a view's child) false is none, as in a children list (SPEC §5).
describe("false where one child is expected", function()
  it("renders nothing from a render, and the component again once it is true", function()
    local Panel = ck.component("FalsePanel", {render = function() return ck.Text{text = "details"} end})
    local Toggle = ck.component("FalseToggle", {scope = true, initialState = true,
      render = function(self, props, open) return open and Panel{} end})
    local host = ck.host(Toggle)
    host:mount()
    host.root:updateState(false, "sync")
    assert.are.equal(2, host.generation)
    assert.is_nil(host:find("FalsePanel"))
    host.root:updateState(true, "sync")
    assert.is_not_nil(host:find("FalsePanel > Text"))
  end)

  it("is no root from a provider and no child of a view", function()
    assert.is_nil(ck.host(function() return false end).root)
    local host = ck.host(function() return ck.View{class = "UIView", child = false} end)
    assert.are.equal("View <UIView, unmounted>\n", host:dump())
  end)

  it("is still [badReturn] when true", function()
    local C = ck.component("TrueRender", {render = function() return true end})
    local ok, err = pcall(ck.host, function() return C{} end)
    assert.is_false(ok)
    assert.matches("%[badReturn%] render of TrueRender", err)
  end)
end)
