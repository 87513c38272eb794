-- Soak: an app reloaded again and again keeps Lua and Swift memory flat (issue 26). Each `.reload`
-- runs this file again: its classes are redefined (their functions name them, as a class's often
-- do), the running host takes the new ones, state and controllers are kept by identity.
-- scripts/test pipes `.reload` lines into `ckrun Tests/soak/reload.lua`, each followed by a tap,
-- with `soak.mark()` after the warm-up and `soak.check()` at the end. The warm-up is long (3,000):
-- the handle table and the arenas grow to their high-water marks over the first ~2,000 reloads
-- (the same loop of `host:update()`s plateaus too), and measuring earlier shows that growth.
soak = soak or {reloads = -1}
soak.reloads = soak.reloads + 1

local Row
Row = ck.component("SoakRow", {scope = function(p) return p.i end, initialState = function() return {taps = 0} end,
  render = function(self, p, s) return ck.Button{title = p.i .. ":" .. s.taps, action = self:action("tap")} end,
  tap = function(self) self:updateState(function(s) return {taps = s.taps + 1, class = Row} end, "sync") end})
ck.controller("SoakRowController", {didMount = function(self) self.row = Row self.app = app end})
local App
App = ck.component("SoakReloadApp", {render = function()
  local rows = {}
  for i = 1, 5 do rows[i] = Row{i = i, again = function() return App end} end
  return ck.Stack{children = rows}
end})

local function drain()
  local last
  repeat
    last = collectgarbage("count")
    collectgarbage()
  until collectgarbage("count") >= last
end

function soak.mark()
  collectgarbage("incremental")
  drain()
  soak.before, soak.marked = ck.stats(), soak.reloads
end

function soak.check()
  drain()
  local a, b = ck.stats(), soak.before
  print(("%d reloads: Lua %d -> %d bytes, heap %d -> %d bytes, handles %d -> %d, references %d -> %d, arenas %d -> %d, arena values %d -> %d, rescues %d")
    :format(soak.reloads - soak.marked, b.luaBytes, a.luaBytes, b.heapBytes, a.heapBytes, b.handles, a.handles,
            b.references, a.references, b.arenas, a.arenas, b.arenaValues, a.arenaValues, a.rescues))
  local ok = a.handles == b.handles and a.references == b.references and a.arenas == b.arenas
    and a.luaBytes - b.luaBytes < 256 * 1024 and a.heapBytes - b.heapBytes < 1024 * 1024
  print(ok and "reload soak ok" or "reload soak FAILED")
  if not ok then os.exit(1) end
end

return App
