it("never runs: .busted failed", function() end)
