-- ckrun-mode: test
-- ckrun-args: --sandbox --timeout 1
-- ckrun-expect-status: 1
-- ckrun-expect: [timeout] Tests/hostile/runner_finalizer_spec.lua:15: a C function, a finalizer (__gc) or a debug hook ran past the time limit
-- Issue 24, class 3: the runner's own code between tests runs under the time limit: a finalizer
-- the collector calls there and that never returns ends the process (it hung forever).
local function caller_source()
  for level = 3, 40 do
    local info = debug.getinfo(level, "S")
    if not info then return "" end
    if info.what ~= "C" then return info.source end
  end
  return ""
end
local mt = { __gc = function() if caller_source():find("^=%(ckrun test") then while true do end end end }
it("arms", function() local keep = {} for i = 1, 20000 do keep[i] = setmetatable({}, mt) end end)
for i = 1, 3000 do it("fails " .. i, function() error("on purpose") end) end
