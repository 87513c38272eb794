--- Every view has the same fields (SPEC §5), the hosting view too: a walk of the view tree from
--- host.view reads them all without a nil check.

describe("the hosting view", function()
  it("has the fields every view has: attributes a table, component nil", function()
    local h = ck.host(function() return ck.Stack{children = {ck.Text{text = "hi"}, ck.View{class = "UIView"}}} end)
    h:mount()
    local function walk(v, out)
      out[#out + 1] = v.class .. ":" .. type(v.attributes) .. ":" .. type(v.subviews) .. ":" .. tostring(v.host == h)
      for _, s in ipairs(v.subviews) do walk(s, out) end
      return out
    end
    assert.are.same({"HostingView:table:table:true", "UILabel:table:table:true", "UIView:table:table:true"}, walk(h.view, {}))
    assert.is_nil(h.view.superview)
    assert.is_nil(h.view.component)
    assert.are.same({}, h.view.attributes)
  end)
end)
