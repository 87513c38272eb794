it("b", function() end)
