-- ckrun-args: --timeout 1
-- ckrun-expect: [timeout]
-- ckrun-expect-status: 1
-- Issue 24, class 10: a finalizer runs with hooks off and loops; each coroutine it makes is
-- hooked, stopped and its error caught. The watchdog's second tick took those hook runs as
-- proof the overrun had stopped, and the process ran forever. It ends with [timeout].
setmetatable({}, {__gc = function()
  while true do pcall(coroutine.wrap(function() for i = 1, 5000 do end end)) end
end})
collectgarbage()
