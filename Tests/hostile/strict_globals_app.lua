-- A strict _G (a common idiom) must not break an app: ckrun sets its own globals raw.
setmetatable(_G, {__newindex = function(_, k) error("strict: assignment to undeclared global " .. tostring(k), 2) end,
                  __index = function(_, k) error("strict: undeclared global " .. tostring(k), 2) end})
local ck = require("ck")
local Counter = ck.component("Counter", {scope = true, initialState = 0,
  render = function(self, props, state) return ck.Button{title = tostring(state), action = self:action("inc")} end,
  inc = function(self) self:updateState(function(n) return n + 1 end, "sync") end})
return function() return Counter{} end
