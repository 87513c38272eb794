-- ckrun-cmd: -i Tests/hostile/strict_globals_lua_repl.lua
-- ckrun-stdin: 1 + 1
-- ckrun-stdin: io.write("after\n")
-- ckrun-expect: strict: print
-- ckrun-expect-status: 1
-- lua -i prints an expression's values with the global print, which this script removes from a
-- strict _G: the lookup runs the script's __index, which raises. lua.c ends with that error (exit
-- status 1); the lookup must run where the error is caught, not unwind through Swift.
rawset(_G, "print", nil)
setmetatable(_G, {__index = function(_, k)
  if k == "print" then error("strict: " .. tostring(k), 2) end
end})
