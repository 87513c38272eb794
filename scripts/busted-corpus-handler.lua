-- A busted output handler for scripts/busted-corpus: busted's JSON report reduced to names,
-- messages and places, as plain strings (busted's own json handler fails on some suites, e.g. a
-- declared pending). Writes to $CORPUS_OUT, or standard output.
local json = require 'dkjson'
return function(options)
  local busted = require 'busted'
  local handler = require 'busted.outputHandlers.base'()
  local function entries(list)
    local out = {}
    for _, t in ipairs(list) do
      out[#out + 1] = { name = tostring(t.name), message = t.message ~= nil and tostring(t.message) or nil }
    end
    return out
  end
  busted.subscribe({ 'suite', 'end' }, function()
    local text = json.encode({ successes = entries(handler.successes), failures = entries(handler.failures),
                               errors = entries(handler.errors), pendings = entries(handler.pendings) })
    local path = os.getenv('CORPUS_OUT')
    local f = path and io.open(path, 'w') or io.stdout
    f:write(text, "\n")
    if f ~= io.stdout then f:close() end
    return nil, true
  end)
  return handler
end
