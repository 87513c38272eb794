-- Every message names a class as tostring does: at most 200 bytes of the name, then `…` and its
-- length (atk-new 18: cut in the path, printed whole in "made in the render of …").
local long = "Long" .. string.rep("C", 3000)

local function failure(fn, ...)
  local ok, e = pcall(fn, ...)
  assert.is_false(ok)
  return (tostring(e):gsub("\nstack traceback.*", ""))
end

local function assert_cut(e)
  assert.is_nil(e:find(string.rep("C", 201), 1, true), e)
  assert.matches("… (3004 bytes)", e, 1, true)
end

describe("a long class name in a message", function()
  it("is cut in [unhandledAction]'s 'made in the render of'", function()
    local C = ck.component(long, {render = function() return ck.Button{title = "t", action = ck.action("nobody")} end})
    local h = ck.host(function() return C{} end)
    h:mount()
    local e = failure(h.tap, h, "Button")
    assert_cut(e)
    assert.matches("(made in the render of Long", e, 1, true)
    assert.is_true(#e < 1500, #e .. " bytes")
    h:destroy()
  end)

  it("is cut in [noScope]", function()
    local C = ck.component(long .. "S", {render = function() return nil end})
    local h = ck.host(function() return C{} end)
    local e = failure(function() h.root:updateState(1) end)
    assert.is_nil(e:find(string.rep("C", 201), 1, true), e)
    h:destroy()
  end)

  it("is cut in a controller's [callbackFailed]", function()
    ck.controller(long .. "Controller", {didMount = function() error("boom") end})
    local C = ck.component(long, {scope = true, controller = long .. "Controller", render = function() return nil end})
    local e = failure(function() local h = ck.host(function() return C{} end); h:mount() end)
    assert.is_nil(e:find(string.rep("C", 201), 1, true), e)
  end)

  it("is cut in a props error of Class(props)", function()
    local C = ck.component(long .. "P", {render = function() return nil end})
    local e = failure(C, 42)
    assert.is_nil(e:find(string.rep("C", 201), 1, true), e)
  end)

  it("is cut in [tooManyArguments]", function()
    local C = ck.component(long .. "T", {scope = true, render = function() return nil end,
      pick = function(self, sender, a, b) end})
    local h = ck.host(function() return C{} end)
    local e = failure(function() return h.root:action("pick") end)
    assert.is_nil(e:find(string.rep("C", 201), 1, true), e)
    h:destroy()
  end)
end)
