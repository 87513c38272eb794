-- ckrun-expect: built: a
-- ckrun-expect-status: 0
-- ck.config.maxDepth accepts any positive integer; math.maxinteger once trapped the process
-- (Illegal instruction: the depth watched from was maxDepth + 1). A build then runs as usual.
ck.config.maxDepth = math.maxinteger
local h = ck.host(function() return ck.Stack{children = {ck.Text{text = "a"}}} end)
print("built: " .. h:dump():match("text=\"(%a)\""))
