describe("the sample actions example", function()
  it("calls each handler with what its arity allows", function()
    local lines = {}
    local realPrint = print
    _G.print = function(s) lines[#lines + 1] = s end
    require("sample_actions")
    _G.print = realPrint
    assert.are.equal(3, #lines)
    assert.is_not_nil(lines[1]:find("event touchUpInside on UIButton", 1, true))
    assert.is_not_nil(lines[2]:find("SampleWithSender: sender <Button", 1, true))
    assert.are.equal("SampleWithNothing: called with no parameters", lines[3])
  end)
end)
