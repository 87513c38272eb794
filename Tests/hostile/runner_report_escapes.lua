-- ckrun-mode: test
-- ckrun-expect-status: 1
-- ckrun-expect: e\u{1b}[8m
-- ckrun-expect: a\u{0}b\u{1b}[1A\u{1b}[2K\xFF
-- ckrun-expect-no-line: 
-- Outsider attack after issue 24 (B3): the text report wrote a test's message and output raw, so
-- ESC[8m concealed the summary line and ESC[1A ESC[2K erased report lines; 0xFF became U+FFFD.
-- Every field of the text report goes through its escaper, bytes that are not UTF-8 as \xNN.
it("x", function() io.write("a\0b\27[1A\27[2K\255\r\n") error("e\27[8m") end)
