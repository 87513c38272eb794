-- ckrun-expect: [badArgument] Tests/hostile/ck_module_fields.lua:11: ck.config cannot be replaced (given table)
-- ckrun-expect: cannot change a protected metatable
-- ckrun-expect: table index is NaN
-- ckrun-expect: still live: warn true 2
-- ckrun-expect-stdout-last: done
-- ck.config is read by the runtime itself, so the module table guards it with a locked
-- metatable and a C __newindex: replacing it (by a table whose metamethods raise, by nil) is
-- refused, the metatable cannot be swapped, odd keys are stored (or refused) as Lua would, and
-- the settings stay live whatever was tried.
local evil = setmetatable({}, {__index = function() error("boom") end, __eq = function() error("eq") end})
print("replace:", pcall(function() ck.config = evil end))
print("setmetatable:", pcall(setmetatable, ck, {}))
print("nan key:", pcall(function() ck[0/0] = 1 end))
ck[1] = true; ck[evil] = 2; ck.config = ck.config
ck.config.unhandledAction = "warn"
print("still live: " .. ck.config.unhandledAction .. " " .. tostring(ck[1]) .. " " .. ck[evil])
print("done")
