describe("other", function() it("passes", function() assert.is_true(true) end) end)
