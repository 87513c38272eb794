describe("the typed actions example", function()
  it("promotes to the prop's types and zero-fills demoted arguments", function()
    local lines = {}
    local realPrint = print
    _G.print = function(s) lines[#lines + 1] = s end
    require("typed_actions")
    _G.print = realPrint
    assert.are.same({
      "Canvas.onStroke is typed Point, number",
      "drawAt (3.0, 4.0)",
      "full: point=(1.0, 0.0) pressure=0.0 color=nil closed=false",
    }, lines)
  end)
end)
