-- ckrun-args: --timeout 20
-- ckrun-expect: done
-- Lua 5.4.4 segfaults on deeply nested coroutine.close (fixed upstream in 5.4.5): guarded.
local function nest(n)
  local co = coroutine.create(function()
    local inner = n > 0 and nest(n - 1)
    local t <close> = setmetatable({}, {__close = function() if inner then coroutine.close(inner) end end})
    coroutine.yield()
  end)
  coroutine.resume(co)
  return co
end
local ok, e = pcall(function() local co = nest(150000); coroutine.close(co) end)
print("done", ok)
