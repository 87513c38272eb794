-- ck.View's `class` prop is checked where ck.View{...} runs, as ck.Stack's layout props are: a
-- value that is no class name is [badArgument] with that line, the value and what to do (it
-- was checked at mount, with no line, no value, and a "view function" the script never wrote).
local here = "view_class_prop_spec.lua"

local function failure(fn)
  local ok, err = pcall(fn)
  assert.is_false(ok)
  return tostring(err)
end

describe("ck.View's class prop", function()
  it("refuses a value that is no class name, at the line of the call, naming the value", function()
    for _, bad in ipairs({5, true, {}}) do
      local err = failure(function() ck.View{class = bad} end)
      assert.truthy(err:find("^%[badArgument%] [^\n]*" .. here .. ":%d+: ck%.View{class = …} must be a view class name"), err)
      assert.truthy(err:find("got " .. (type(bad) == "number" and "5" or type(bad)), 1, true), err)
    end
  end)

  it("refuses a missing class in a render too, with the render's line", function()
    local err = failure(function() ck.host(function() return ck.View{} end) end)
    assert.truthy(err:find("%[badArgument%] [^\n]*" .. here .. ":%d+: ck%.View{class = …} must be a view class name[^\n]*got nil"), err)
  end)

  it("takes a class name", function()
    local h = ck.host(function() return ck.View{class = "UIView"} end)
    assert.truthy(h:dump():find("UIView", 1, true))
  end)
end)
