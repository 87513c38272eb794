describe("loop", function() it("runs once", function() assert.is_true(true) end) end)
