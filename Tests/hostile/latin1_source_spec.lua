-- ckrun-mode: test
-- ckrun-expect-status: 0
-- ckrun-expect: 1 passed, 0 failed
-- Issue 24, class 8: a test file reaches Lua as its bytes, not decoded as UTF-8: this literal is
-- the one Latin-1 byte 0xE9, as under lua5.4 and busted (it was read as U+FFFD, three bytes).
it("latin-1", function() assert.are.equal(1, #"é") assert.are.equal(233, ("é"):byte()) end)
