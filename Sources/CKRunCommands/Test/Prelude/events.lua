-- ckrun test: busted's events (its mediator, which busted/core.lua hands out as
-- `subscribe`/`publish`/`unsubscribe`), and the run's own events published to subscribers.
local pristine = select(7, ...)
-- Every free name reads the standard library as it was at start (the seventh argument): a spec
-- may set `_G.math = nil` or `string.format = nil` before the runner's code below runs
-- (check-layout refuses a shipped Lua file without this line). `_G` in it is the live table.
local _ENV = pristine or _G
local T = select(6, ...)
local S, safe = T.S, T.safe
local insert, remove, pairs, tostring, tonumber, type = table.insert, table.remove, pairs, tostring, tonumber, type

-- busted's mediator (mediator_lua, which busted/core.lua hands out), compiled when a file first
-- uses it (most never do; its functions would be loaded into every file's state). Channels are
-- named by lists of names; a publish calls the channel's subscribers in order, then its parent
-- channel's, for as long as each returns a second value; the results are the first values.
-- Only what busted's subscribe/publish/unsubscribe reach is here.
local mediator_source = [==[
local insert, remove, pairs, tostring, tonumber = ...

local function update(sub, options)
  if options then
    sub.fn = options.fn or sub.fn
    sub.options = options.options or sub.options
  end
end

local function new_subscriber(fn, options)
  local sub = { options = options or {}, fn = fn, channel = nil, update = update }
  sub.id = tonumber(tostring(sub):match(":%s*[0xX]*(%x+)"), 16)
  return sub
end

local function new_channel(namespace, parent)
  return { stopped = false, namespace = namespace, callbacks = {}, channels = {}, parent = parent }
end

local function add_subscriber(channel, fn, options)
  local sub = new_subscriber(fn, options)
  local priority = #channel.callbacks + 1
  options = options or {}
  if options.priority and options.priority >= 0 and options.priority < priority then priority = options.priority end
  insert(channel.callbacks, priority, sub)
  return sub
end

local function find_subscriber(channel, id)
  for i = 1, #channel.callbacks do
    if channel.callbacks[i].id == id then return { index = i, value = channel.callbacks[i] } end
  end
  for _, child in pairs(channel.channels) do
    local found = find_subscriber(child, id)
    if found then return found end
  end
end

-- (As mediator_lua: a subscriber found in a sub-channel is removed from this one's list by index.)
local function remove_subscriber(channel, id)
  local found = find_subscriber(channel, id)
  if found and found.value then
    for _, child in pairs(channel.channels) do remove_subscriber(child, id) end
    return remove(channel.callbacks, found.index)
  end
end

local function publish(channel, result, ...)
  for i = 1, #channel.callbacks do
    local sub = channel.callbacks[i]
    if not sub.options.predicate or sub.options.predicate(...) then
      local value, continue = sub.fn(...)
      if value then insert(result, value) end
      if not continue then return result end
    end
  end
  if channel.parent then return publish(channel.parent, result, ...) end
  return result
end

local root = new_channel("root")
local function channel_of(namespace)
  local channel = root
  for i = 1, #namespace do
    local name = namespace[i]
    local child = channel.channels[name]
    if not child then
      child = new_channel(name, channel)
      channel.channels[name] = child
    end
    channel = child
  end
  return channel
end

return {
  subscribe = function(namespace, fn, options) return add_subscriber(channel_of(namespace), fn, options) end,
  publish = function(namespace, ...) return publish(channel_of(namespace), {}, ...) end,
  unsubscribe = function(id, namespace) return remove_subscriber(channel_of(namespace), id) end,
}
]==]
local load = load
local compiled_mediator
local function the_mediator()
  if not compiled_mediator then
    compiled_mediator = load(mediator_source, "=(ckrun test: mediator)", "t")(insert, remove, pairs, tostring, tonumber)
  end
  return compiled_mediator
end
-- The run's events are published once something subscribed (nothing to do per test before).
local mediator = {
  publish = function(namespace, ...) return the_mediator().publish(namespace, ...) end,
  unsubscribe = function(id, namespace) return the_mediator().unsubscribe(id, namespace) end,
  subscribe = function(namespace, fn, options)
    S.subscribed = true
    return the_mediator().subscribe(namespace, fn, options)
  end,
}

-- busted's element fields a subscriber reads, given to an element the first time it is
-- announced (only once something subscribed: nothing per test otherwise): where it was
-- registered (`trace`, as debug.getinfo names it) and its `attributes`.
local function describe_element(el)
  if type(el) == "table" and el.trace == nil and T.file then
    local file = el.source or T.file
    el.trace = { short_src = file, source = "@" .. file, currentline = el.line or 0, what = "Lua" }
    if el.attributes == nil then el.attributes = {} end
  end
end

-- busted's safe_publish: the run's own events reach subscribers as user code of `el`.
local pack, unpack = table.pack, table.unpack
local function announce(descriptor, el, namespace, ...)
  describe_element(el)
  local args = pack(...)
  return safe(descriptor, function() mediator.publish(namespace, unpack(args, 1, args.n)) end, el)
end
T.mediator, T.announce = mediator, announce
