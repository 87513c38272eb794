-- One configurator for component and controller classes, and the mistakes it no longer lets
-- pass in silence: misspelled lifecycle names and unknown props of built-ins warn once, as
-- catalogued warnings through ck.config.onWarning.

local warnings = require("captured_warnings")

describe("class configuration", function()
  it("clears a controller's canPerformAction with nil, as a component's", function()
    local K = ck.controller("ClearsPredicateController", {canPerformAction = function() return false end,
      hit = function() end})
    local C = ck.component("ClearsPredicate", {scope = true, controller = "ClearsPredicateController",
      canPerformAction = function() return false end, hit = function() end})
    local host = ck.host(function() return C{} end)
    host:mount()
    local probe = ck.action("hit")
    assert.is_false(pcall(probe.send, probe, host.root))
    C.canPerformAction = nil
    assert.is_false(pcall(probe.send, probe, host.root))   -- the controller still refuses
    K.canPerformAction = nil
    assert.is_true(probe:send(host.root))
    assert.is_nil(K.canPerformAction)
  end)

  it("configures both kinds from one table of special keys", function()
    local warnings, onWarning = {}, ck.config.onWarning
    ck.config.onWarning = function(m) warnings[#warnings + 1] = m end
    local K = ck.controller("SpecialController", {canPerformAction = function() return true end, render = function() end})
    ck.config.onWarning = onWarning
    assert.is_function(K.canPerformAction)
    assert.is_function(K.render)   -- `render` is a plain method name on a controller, with a warning
    assert.are.equal(1, #warnings)
    assert.matches('^%[suspiciousName%] [^\n]*: ck.controller%("SpecialController"%): "render" is a setting of component classes', warnings[1])
  end)
end)

describe("names that look mistaken", function()
  it("warns once about a misspelled lifecycle method on a controller, with a suggestion", function()
    local got = warnings(function()
      ck.controller("MisspeltController", {didMout = function() end, willUnmont = function() end, didMount = function() end})
      ck.controller("MisspeltController2", {didMout = function() end})
    end)
    assert.are.equal(3, #got)
    assert.matches('^%[suspiciousName%] .*"didMout".*did you mean "didMount"%?', got[1] .. got[2] .. got[3])
    for _, w in ipairs(got) do assert.matches("^%[suspiciousName%]", w) end
  end)

  it("warns about lifecycle-like and setting-like handlers on a component", function()
    local got = warnings(function()
      local C = ck.component("LooksLikeLifecycle", {didMount = function() end})
      C.rendr = function() end
      C.tapped = function() end
    end)
    assert.are.equal(2, #got)
    -- Spelt right, so no "looks like" or "did you mean" (attack atk-mem 12).
    assert.matches('ck%.component%("LooksLikeLifecycle"%): "didMount" is a controller lifecycle method, and nothing calls it on a component class; define it in ck%.controller%("LooksLikeLifecycleController", {didMount = function%(self%) %.%.%. end}%)', got[1])
    assert.matches('did you mean "render"%?', got[2])
  end)

  it("says a near lifecycle name on a component looks like one", function()
    local got = warnings(function() ck.component("NearLifecycle", {didMout = function() end}) end)
    assert.are.equal(1, #got)
    assert.matches('"didMout" looks like the lifecycle method "didMount", which only controllers get', got[1])
  end)

  it("warns once about props a built-in does not read, at the line that passed them", function()
    local line = debug.getinfo(1, "l").currentline + 3
    local got = warnings(function()
      local host = ck.host(function() return ck.Stack{children = {
        ck.Button{title = "go", onTap = function() end}, ck.Button{onTap = 1}, ck.Text{txt = "x"}}} end)
      host:mount()
    end)
    assert.are.equal(2, #got)
    local all = table.concat(got, "\n")
    assert.matches('%[unknownProp%] [^\n]*class_config_spec%.lua:' .. line .. ': ck.Button{onTap = …}: Button has no prop "onTap"; its props are title, action, events, key', all)
    assert.matches('%[unknownProp%] [^\n]*class_config_spec%.lua:' .. line .. ': ck.Text{txt = …}: .*did you mean "text"%?', all)
  end)

  -- JSX's and Roact's children and text are positional; a built-in's were dropped silently.
  it("warns once a class about entries at keys that are not names (ck.Stack{A{}, B{}}, ck.Text{\"hi\"})", function()
    local got = warnings(function()
      local _ = ck.Stack{ck.Text{text = "a"}, ck.Text{text = "b"}}
      local _ = ck.Stack{ck.Text{text = "c"}}
      local _ = ck.Text{"hello"}
    end)
    assert.are.equal(2, #got)
    assert.matches('%[unknownProp%] [^\n]*class_config_spec%.lua:%d+: ck.Stack{…}: Stack reads only named props.*put children in children = {…}', got[1])
    assert.matches('%[unknownProp%] .*ck.Text{…}: .*name them, as ck.Text{text = …}', got[2])
  end)

  it("warns when a built-in is built, before any build or mount", function()
    local got = warnings(function() local _ = ck.Text{text = "t", colour = "red"} end)
    assert.are.equal(1, #got)
    assert.matches('%[unknownProp%] .*ck.Text{colour = …}', got[1])
  end)
end)

-- luassert's way to watch a callback: spy.on and stub replace it with a callable table (an
-- outsider's spec failed with [badArgument] "must be a function").
describe("ck.config callbacks", function()
  it("take luassert's spies and stubs, and their revert", function()
    local s = spy.on(ck.config, "onWarning")
    ck.config.onWarning("[x] spied")
    assert.spy(s).was.called_with("[x] spied")
    ck.config.onWarning:revert()
    local st = stub(ck.config, "onWarning")
    local X = ck.component("ConfigSpyTwin", {scope = true})
    ck.host(function() return ck.Stack{children = {X{}, X{}}} end)
    assert.stub(st).was.called()
    st:revert()
    assert.is_function(ck.config.onWarning)
    assert.is_false(pcall(function() ck.config.onTrace = setmetatable({}, {}) end))
  end)
end)
