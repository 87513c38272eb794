-- ck.Stack's layout props (ComponentKit's stack layout: direction, spacing, alignItems,
-- justifyContent): declared, so they are not [unknownProp]; checked where ck.Stack{...} runs,
-- so a wrong value is [badArgument] with that line, the prop and what it takes.
local here = "stack_layout_spec.lua"

local function failure(fn)
  local ok, err = pcall(fn)
  assert.is_false(ok)
  return tostring(err)
end

describe("ck.Stack's layout props", function()
  local warnings
  before_each(function()
    warnings = {}
    ck.config.onWarning = function(message) warnings[#warnings + 1] = message end
  end)

  it("takes every documented value without a warning", function()
    for _, direction in ipairs({"vertical", "horizontal"}) do
      for _, align in ipairs({"start", "center", "end", "stretch"}) do
        for _, justify in ipairs({"start", "center", "end", "spaceBetween"}) do
          local stack = ck.Stack{direction = direction, spacing = 2, alignItems = align, justifyContent = justify, children = {}}
          assert.are.equal(direction, stack.props.direction)
        end
      end
    end
    assert.are.same({}, warnings)
  end)

  it("takes spacing as an integer or an integral float from 0 to 1000", function()
    ck.Stack{spacing = 0}
    ck.Stack{spacing = 3.0}
    ck.Stack{spacing = 1000}
    assert.are.same({}, warnings)
  end)

  it("refuses a direction it does not know, at the line of the call", function()
    local err = failure(function() ck.Stack{direction = "diagonal"} end)
    assert.truthy(err:find("[badArgument]", 1, true), err)
    assert.truthy(err:find(here .. ":%d+:"), err)
    assert.truthy(err:find('ck.Stack{direction = …} must be one of "vertical", "horizontal", got "diagonal"', 1, true), err)
  end)

  it("refuses alignments and justifications it does not know, and values that are not strings", function()
    assert.truthy(failure(function() ck.Stack{alignItems = "middle"} end):find('"stretch", "start", "center", "end", got "middle"', 1, true))
    assert.truthy(failure(function() ck.Stack{justifyContent = "around"} end):find('"spaceBetween", got "around"', 1, true))
    assert.truthy(failure(function() ck.Stack{direction = 1} end):find("got 1", 1, true))
  end)

  it("refuses spacing that is negative, fractional, huge or not a number", function()
    for _, bad in ipairs({-1, 1.5, 1001, 0/0, math.huge, "2"}) do
      local err = failure(function() ck.Stack{spacing = bad} end)
      assert.truthy(err:find("ck.Stack{spacing = …} must be an integer from 0 to 1000", 1, true), err)
    end
  end)

  it("is checked in a render too, where the build says what it ran", function()
    local Row = ck.component("LayoutRow", {render = function() return ck.Stack{direction = "sideways"} end})
    local err = failure(function() ck.host(function() return Row{} end) end)
    assert.truthy(err:find('got "sideways"', 1, true), err)
  end)
end)
