-- The library's calls into the `ck` module (CKRuntime): each is one public Lua call a Swift
-- method of Host or Runtime makes, so the library goes through the API scripts use.
local ck, pristine = ...
-- The global table itself, before any script could replace `_G` (glue.setGlobal).
local globals = _G
-- Every free name reads the standard library as it was at start: a script may set `string =
-- nil` or `error = print` (check-layout refuses a shipped Lua file without this line).
local _ENV = pristine or _G
local glue = {}

function glue.host(provider, model, responders)
  return ck.host(provider, {model = model, responders = responders})
end

function glue.responder(name, methods)
  return {name = name, methods = methods}
end

function glue.mount(host) host:mount() end
function glue.unmount(host) host:unmount() end
function glue.update(host, model) host:update(model) end
function glue.flush(host) host:flush() end
function glue.destroy(host) host:destroy() end
function glue.generation(host) return host.generation end

local function found(host, query)
  local c = host:find(query)
  if c == nil then
    error("[noMatch] the query " .. string.format("%q", query) .. " matched no component; check it against host:dump()", 0)
  end
  return c
end

-- Props and state are read-only views (userdata): a plain copy, one level, through __pairs.
local function plain(v)
  if type(v) ~= "userdata" then return v end
  local t = {}
  for k, x in pairs(v) do t[k] = x end
  return t
end

function glue.find(host, query)
  local c = host:find(query)
  if c == nil then return nil end
  return c.name, c.key, plain(c.state), plain(c.props)
end

function glue.count(host, query) return #host:findAll(query) end

-- SPEC §6.2's kinds, from Swift: the found component is the sender (and the target or scope).
local makers = {
  selector = function(c, selector, types) return ck.action(selector, types) end,
  target = function(c, selector, types) return ck.action(c, selector, types) end,
  scope = function(c, selector, types) return c:action(selector, types) end,
}

function glue.send(host, kind, query, selector, types, ...)
  local c = found(host, query)
  return makers[kind](c, selector, types):send(c, ...)
end

-- A prepared action and its sender, sent many times by glue.sendPrepared.
function glue.prepare(host, kind, query, selector, types)
  local c = found(host, query)
  return makers[kind](c, selector, types), c
end

function glue.sendPrepared(action, sender, ...) return action:send(sender, ...) end

function glue.tap(host, query) return host:tap(query) end
function glue.controlEvent(host, query, name, text) return host:controlEvent(query, name, text) end
function glue.appear(host) host:appear() end
function glue.disappear(host) host:disappear() end

function glue.addPath(directory)
  package.path = directory .. "/?.lua;" .. directory .. "/?/init.lua;" .. package.path
end

function glue.require(name) return require(name) end

function glue.setGlobal(name, value) rawset(globals, name, value) end

return glue
