-- A script's mistake that ckrun used to absorb in silence (outsider's ComponentKit attack,
-- SPEC ambiguities): each is now said, with its id, where and what to do.

local warnings = require("captured_warnings")

describe("ck.config", function()
  after_each(function() ck.config.unhandledAction = "error" end)

  it("cannot be replaced by a table nothing reads; its fields can be set", function()
    local line = debug.getinfo(1, "l").currentline + 1
    local ok, err = pcall(function() ck.config = {unhandledAction = "warn"} end)
    assert.is_false(ok)
    assert.are.equal("[badArgument] Tests/lua/absorbed_mistakes_spec.lua:" .. line .. ": ck.config cannot be replaced "
      .. "(given table): the runtime reads its settings from ck.config itself, never from a new table; set its "
      .. 'fields instead, e.g. ck.config.unhandledAction = "warn"', err)
    ck.config.unhandledAction = "ignore"
    local h = ck.host(function() return ck.Button{title = "b", action = ck.action("nobodyHandles")} end)
    h:mount()
    assert.has_no.errors(function() h:tap("Button") end)
    h:destroy()
  end)

  it("refuses nil too, and takes itself back (busted's mock(ck) assigns every field again)", function()
    assert.matches("^%[badArgument%] .*ck.config cannot be replaced %(given nil%)", select(2, pcall(function() ck.config = nil end)))
    local config = ck.config
    ck.config = ck.config
    assert.are.equal(config, ck.config)
    ck.scriptHelper = 1
    assert.are.equal(1, ck.scriptHelper)
    ck.scriptHelper = nil
  end)
end)

describe("a component in children at a key that is no list index", function()
  local T = function(s) return ck.Text{text = s} end
  local function texts(h)
    local out = {}
    for i, c in ipairs(h:findAll("Text")) do out[i] = c.props.text end
    return table.concat(out, ",")
  end

  it("is warned [droppedChild], naming the line and the key", function()
    local h, line
    local seen = warnings(function()
      line = debug.getinfo(1, "l").currentline + 1
      h = ck.host(function() return ck.Stack{children = {T"a", row = T"b"}} end)
    end)
    assert.are.equal("a", texts(h))
    assert.are.same({"[droppedChild] Tests/lua/absorbed_mistakes_spec.lua:" .. line .. ': ck.Stack{children = {["row"] = …}}: '
      .. "the component at key \"row\" is not a child, only entries at 1, 2, 3, … are; put it in the list"}, seen)
  end)

  it("is warned for fractional, zero and negative keys, in every built-in list", function()
    local seen = warnings(function()
      ck.host(function() return ck.Stack{children = {[1.5] = T"x"}} end)
      ck.host(function() return ck.Stack{children = {[0] = T"y"}} end)
      ck.host(function() return ck.Stack{children = {[-1] = T"w"}} end)
    end)
    assert.are.equal(3, #seen)
    assert.matches("%[droppedChild%] .*{%[1.5%] = …}", seen[1])
    assert.matches("%[droppedChild%] .*{%[0%] = …}", seen[2])
    assert.matches("%[droppedChild%] .*{%[%-1%] = …}", seen[3])
  end)

  it("is not warned for what is no component (table.pack's n) or for nil and false", function()
    local seen = warnings(function()
      ck.host(function() return ck.Stack{children = table.pack(T"a", false, T"c")} end)
      ck.host(function() return ck.Stack{children = {T"a", nil, T"c"}} end)
    end)
    assert.are.same({}, seen)
  end)
end)

describe("a component whose host was collected", function()
  it("says the host was collected and how to keep it, not that it was destroyed", function()
    local C = ck.component("CollectedHostRoot", {scope = true, initialState = 0})
    local c
    do c = ck.host(function() return C{} end).root end
    collectgarbage(); collectgarbage()
    local ok, err = pcall(function() c:updateState(1, "sync") end)
    assert.is_false(ok)
    assert.matches("^%[deadObject%] .*CollectedHostRoot:updateState on CollectedHostRoot: its host was collected: nothing referred to it", err)
    assert.matches("keep it in a variable", err)
  end)
end)

describe("host:update(model) in a handler while a sync state update is pending", function()
  it("makes one generation that folds both, as coalesced updates do (no empty one after)", function()
    local h, renders, updates = nil, 0, 0
    local C = ck.component("FoldsModelAndState", {scope = true, initialState = 0,
      bump = function(self)
        self:updateState(function(n) return n + 1 end, "sync")
        h:update("second")
      end,
      render = function(self, props, state)
        renders = renders + 1
        return ck.Button{title = props.m .. state, action = ck.action("bump")}
      end})
    ck.controller("FoldsModelAndStateController", {didUpdateComponent = function() updates = updates + 1 end})
    h = ck.host(function(m) return C{m = m or "first"} end)
    h:mount()
    h:tap("Button")
    assert.are.equal(2, h.generation)
    assert.are.equal(2, renders)
    assert.are.equal(1, updates)
    assert.are.equal("second1", h:find("Button").props.title)
    h:destroy()
  end)
end)
