-- ckrun-args: --timeout 1
-- ckrun-expect: [badArgument]
-- ckrun-expect: (tostring failed: [timeout]
-- ckrun-expect-status: 1
-- Issue 26: a children entry that is not a component is named with a short tostring, which is
-- the script's __tostring. It runs after the list's walk (it may change the table), protected
-- and under the turn's limits: one that never returns shows as "(tostring failed: [timeout] …)".
local loop = setmetatable({}, {__tostring = function() while true do end end})
ck.Stack{children = {nil, loop}}
