-- A prop's, a built-in's, ck.onTap's or a demotion's declared types check an action's types for
-- compatibility; they never widen them: "any" matches anything for compatibility only (SPEC §6.4).
-- An {"int"} action given to an {"any"} prop was retyped {"any"}, and its int handler got a
-- string (attack atk-ck3 06, 07).

describe("an action given where other types are declared", function()
  local function picker(declared)
    local got
    local Picker = ck.component("KeptPicker", {actions = {onPick = declared}})
    local Screen = ck.component("KeptScreen", {
      render = function() return Picker{onPick = ck.action("pick", {"int"})} end,
      pick = function(self, sender, id) got = id end})
    local h = ck.host(function() return Screen{} end)
    h:mount()
    return h:find("KeptPicker"), function() return got end
  end

  it("keeps its own types through an {\"any\"} prop: checked and converted as sent directly", function()
    local p, got = picker({"any"})
    assert.are.same({"int"}, p.props.onPick.types)
    assert.error_matches(function() p.props.onPick:send(p, "str") end, "^%[badArgument%].*argument #1 must be int, got string")
    p.props.onPick:send(p, 2.0)
    assert.are.equal(2, got())
    assert.are.equal("integer", math.type(got()))
  end)

  it("keeps its own types through a longer {\"any\", \"string\"} prop, and gains the declared ones after them", function()
    local p = picker({"any", "string"})
    assert.are.same({"int", "string"}, p.props.onPick.types)
    assert.error_matches(function() p.props.onPick:send(p, "x", "y") end, "argument #1 must be int, got string")
  end)

  it("keeps a struct type through an {\"any\"} prop: the handler gets a new table of exactly its fields", function()
    ck.struct("KeptPt", {x = "number"})
    local got
    local W = ck.component("KeptStructW", {actions = {on = {"any"}}})
    local P = ck.component("KeptStructP", {render = function() return W{on = ck.action("m", {"KeptPt"})} end,
      m = function(self, s, p) got = p end})
    local h = ck.host(function() return P{} end)
    h:mount()
    local w = h:find("KeptStructW")
    assert.error_matches(function() w.props.on:send(w, {x = 1, evil = "extra"}) end, "has a field evil that KeptPt does not declare")
    assert.error_matches(function() w.props.on:send(w, "not a table") end, "must be KeptPt, got string")
    local arg = {x = 1}
    w.props.on:send(w, arg)
    assert.are_not.equal(arg, got)
    assert.are.equal("float", math.type(got.x))
  end)

  it("takes the declared type where its own is \"any\" (a narrower type is safe)", function()
    local W = ck.component("KeptNarrowW", {actions = {on = {"int"}}})
    local a = W{on = ck.action("m", {"any"})}.props.on
    assert.are.same({"int"}, a.types)
  end)

  it("keeps its types through ck.onTap's {\"Event\"} when it is typed so", function()
    local attr = ck.onTap(ck.action("m", {"Event"}))
    assert.are.same({"Event"}, attr.action.types)
  end)

  it("is demoted to {\"any\"} keeping its own first type: the int handler never gets a string", function()
    local got
    local S = ck.component("KeptDemoted", {scope = true, pick = function(self, sender, id, label) got = {id, label} end})
    local h = ck.host(function() return S{} end)
    h:mount()
    local d = h.root:action("pick", {"int", "string"}):demoted({"any"})
    assert.are.same({"int"}, d.types)
    assert.error_matches(function() d:send(h.root, "oops") end, "^%[badArgument%].*argument #1 must be int, got string")
    d:send(h.root, 3.0)
    assert.are.same({3, ""}, {got[1], got[2] or ""})
    assert.are.equal("integer", math.type(got[1]))
    assert.error_matches(function() h.root:action("pick", {"int", "string"}):demoted({"number"}) end,
      "^%[typeMismatch%].*type #1 is int; demote to a prefix of")
  end)

  it("made before its struct was redefined: the message names both definitions", function()
    ck.struct("KeptP", {x = "int"})
    local onPick = ck.action("pick", {"KeptP"})
    ck.struct("KeptP", {x = "int", y = "int"})
    local W = ck.component("KeptRedefW", {actions = {on = {"KeptP"}}})
    local ok, err = pcall(W, {on = onPick})
    assert.is_false(ok)
    assert.matches("^%[typeMismatch%] .*KeptRedefW%.on is declared {\"KeptP\"} but the action's type #1 is an earlier definition of struct KeptP %(defined at [^)]*kept_action_types_spec%.lua:%d+%), which ck%.struct%(\"KeptP\", %.%.%.%) at [^ ]*kept_action_types_spec%.lua:%d+ replaced; make the action again", err)
  end)
end)

describe("a \"function\" argument", function()
  it("takes a callable table (a luassert spy), as every argument that takes a function does", function()
    local S = ck.component("KeptCallableArg", {scope = true, run = function(self, sender, cb) cb(42) end})
    local h = ck.host(function() return S{} end)
    h:mount()
    local cb = spy.new(function() end)
    local a = h.root:action("run", {"function"})
    a:send(h.root, cb)
    a:send(h.root, cb)   -- planned: the C path gives the table to the full path
    assert.spy(cb).was.called_with(42)
    assert.spy(cb).was.called(2)
    assert.error_matches(function() a:send(h.root, setmetatable({}, {})) end, "argument #1 must be function, got table")
  end)
end)

describe("a spy as an action's handler", function()
  it("records the sender and every argument, made with spy.new()", function()
    local C = ck.component("KeptSpyNew", {scope = true})
    local s = spy.new()
    C.m = s
    local h = ck.host(function() return C{} end)
    h:mount()
    h.root:action("m", {"int", "string"}):send(h.root, 5, "x")
    assert.spy(s).was.called_with(h.root, h.root, 5, "x")
  end)

  it("records every argument over a handler written function() end (a host responder's)", function()
    local vc = {name = "VC", methods = {m = function() end}}
    local s = spy.on(vc.methods, "m")
    local C = ck.component("KeptSpyResponder", {})
    local h = ck.host(function() return C{} end, {responders = {vc}})
    h:mount()
    ck.action("m", {"string"}):send(h.root, "a")
    assert.spy(s).was.called_with(vc, h.root, "a")
  end)
end)
