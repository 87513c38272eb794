-- Issue 24, class 8: a test file is handed to Lua as its bytes. The string below is one
-- byte, 0xE9 (Latin-1), not UTF-8: decoding the file first made it three.
describe("a test file", function()
  it("keeps a Latin-1 literal one byte", function()
    assert.are.equal(1, #"é")
    assert.are.equal(0xE9, ("é"):byte())
  end)
end)
