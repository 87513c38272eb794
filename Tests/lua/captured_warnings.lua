-- The warnings `fn` gives through ck.config.onWarning, in order; `fn` must not raise. Shared by
-- the specs that check a warning (required as a sibling module).
return function(fn)
  local seen, before = {}, ck.config.onWarning
  ck.config.onWarning = function(m) seen[#seen + 1] = m end
  local ok, err = pcall(fn)
  ck.config.onWarning = before
  assert(ok, err)
  return seen
end
