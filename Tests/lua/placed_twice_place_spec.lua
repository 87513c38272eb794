-- An instance placed twice is named at its second place, with its order among siblings of its
-- name (`Stack/P[2]`, the query that finds it), as raised by what returned it, with where it was
-- made (atk-new 08: "raised in the build of the built-in Stack/P/Text", "again at Stack/P").
local function failure(fn)
  local ok, e = pcall(fn)
  assert.is_false(ok)
  return (tostring(e):gsub("\nstack traceback.*", ""))
end

describe("an instance placed twice in one list", function()
  it("is named at its second place, raised by the provider that returned it", function()
    local P = ck.component("TwiceP", {pure = true, render = function(_, p) return ck.Text{text = p.t} end})
    local outside = P{t = "out"}
    local e = failure(function() return ck.host(function() return ck.Stack{children = {outside, outside}} end) end)
    assert.matches("raised in the host's provider;", e, 1, true)
    assert.matches("TwiceP was placed in the tree twice (again at Stack/TwiceP[2], in what the host's provider returned); it was made in the script's code outside any build at ", e, 1, true)
    assert.matches("placed_twice_place_spec%.lua:13;", e)
    assert.is_nil(e:find("Text", 1, true))
  end)

  it("is named at its second place in a render's list, raised by that render", function()
    local Leaf = ck.component("TwiceLeaf", {render = function() return ck.Text{text = "x"} end})
    local Holder = ck.component("TwiceHolder", {render = function()
      local leaf = Leaf{}
      return ck.Stack{children = {Leaf{}, leaf, leaf}}
    end})
    local e = failure(function() return ck.host(function() return Holder{} end) end)
    assert.matches("raised in the render of TwiceHolder;", e, 1, true)
    assert.matches("again at TwiceHolder/Stack/TwiceLeaf[3], in what the render of TwiceHolder returned); it was made in the render of TwiceHolder", e, 1, true)
  end)
end)
