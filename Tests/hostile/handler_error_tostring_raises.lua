-- ckrun-expect: caught the object itself
-- ckrun-expect: tostring exploded
-- ckrun-expect-status: 1
-- Outsider attack (break 11): a handler raises an error object whose __tostring raises. The
-- message handler that adds the traceback ran that __tostring unprotected, so the caller got
-- the __tostring's error string instead of the object raised. A pcall now gets the object;
-- uncaught, it is reported as lua5.4 reports one (the __tostring's error) with status 1.
local evil = setmetatable({}, {__tostring = function() error("tostring exploded") end})
local B = ck.component("Evil", {scope = true, h = function() error(evil) end})
local host = ck.host(function() return B{} end)
local ok, e = pcall(function() return host.root:action("h"):send(host.root) end)
print(not ok and rawequal(e, evil) and "caught the object itself" or "caught something else")
host.root:action("h"):send(host.root)
