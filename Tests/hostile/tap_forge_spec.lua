-- ckrun-cmd: test -o tap Tests/hostile/tap_forge_spec.lua
-- ckrun-expect-status: 1
-- ckrun-expect-stdout-last: 1..4
-- ckrun-expect-no-line: ^\s*(not )?ok 9[0-9]
-- Issue 24, class 7: one escaper per report format, for every field: a CR LF, a lone CR or a
-- Unicode line separator in a name, an output or a message never starts a TAP line.
it("name\r\nok 90 - forged by a name", function() end)
it("output", function() io.write("x\r\nok 91 - forged by output\rok 92 - by a CR\r\n") end)
it("fails", function() error("m\r\nok 93 - forged by a message\u{2028}ok 94 - by LS") end)
pending("pending\r\nok 95 - forged by a pending test")
io.write("file output\r\nok 96 - forged by the file's output\n")
