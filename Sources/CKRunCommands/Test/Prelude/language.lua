-- ckrun test: what a spec file calls (busted's `describe`, `it`, hooks…), registered with
-- busted's filters as busted's do (when a test or block registers), and the environments spec
-- code runs in (busted's environment.lua and context.lua).
local pristine = select(7, ...)
-- Every free name reads the standard library as it was at start (the seventh argument): a spec
-- may set `_G.math = nil` or `string.format = nil` before the runner's code below runs
-- (check-layout refuses a shipped Lua file without this line). `_G` in it is the live table.
local _ENV = pristine or _G
local debug = select(3, ...) or debug
local T = select(6, ...)
local S, opts, element, full_name, no_children = T.S, T.opts, T.element, T.full_name, T.no_children
local own_names, mediator = T.S.own_names, T.mediator
local ipairs, pairs, type, select, tostring = ipairs, pairs, type, select, tostring
local find, byte = string.find, string.byte
local error, setmetatable, rawget, rawset, concat = error, setmetatable, rawget, rawset, table.concat
local user_frame = select(4, ...)
local G = _G

-- Registration, with busted's filters.
-- string.find with a pattern of the command line's: a malformed one is raised (as busted's
-- find raises it, an error of the block that registers) named by its option, not the runner's line.
local pcall, gsub = pcall, string.gsub
local function matches(name, pattern, option)
  local ok, found = pcall(find, name, pattern)
  if ok then return found ~= nil end
  error(option .. " '" .. pattern .. "': " .. (gsub(tostring(found), "^[^\n]-:%d+: ", "")), 0)
end
local function has_tag(name, tag, option) return matches(name, "#" .. tag, option) end

-- --shard's key: a hash of the test's full name (FNV-1a, 32 bits), the same in every process
-- whatever order the file registers its tests in (a file may register them from pairs()).
local function name_hash(name)
  local h = 2166136261
  for i = 1, #name do h = ((h ~ byte(name, i)) * 16777619) & 0xffffffff end
  return h
end
-- The full name a block or test registered now would have (full_name's, before it exists).
local function prospective_name(name)
  if S.ctx.descriptor == "file" then return concat({ name }) end
  return concat({ full_name(S.ctx), name }, " ")
end

local function rejected(descriptor, name)
  local is_test = descriptor == "it" or descriptor == "pending"
  local is_block = descriptor == "describe"
  if not (is_test or is_block) then return false end
  if #opts.filters == 0 and #opts.filter_out == 0 and #opts.tags == 0 and #opts.exclude_tags == 0
    and not opts.shard_count then
    return false
  end
  -- A block's full name is matched by --filter-out alone: built (O(depth)) only when needed.
  local full = (is_test or #opts.filter_out > 0) and prospective_name(name)
  if is_test and #opts.filters > 0 then
    local any = false
    for _, f in ipairs(opts.filters) do if matches(full, f, "--filter") then any = true break end end
    if not any then return true end
  end
  for _, f in ipairs(opts.filter_out) do if matches(full, f, "--filter-out") then return true end end
  if is_test and #opts.tags > 0 then
    local any = false
    for _, tag in ipairs(opts.tags) do if has_tag(full, tag, "--tags") then any = true break end end
    if not any then return true end
  end
  for _, tag in ipairs(opts.exclude_tags) do if has_tag(tostring(name), tag, "--exclude-tags") then return true end end
  if is_test and opts.shard_count and (opts.file_index + name_hash(full)) % opts.shard_count ~= opts.shard_index - 1 then
    return true
  end
  return false
end

local hook_kinds = { before_each = true, after_each = true, lazy_setup = true, lazy_teardown = true,
                     strict_setup = true, strict_teardown = true }

local name_types = { string = true, number = true, ["nil"] = true }
local function check_name(what, name, parent)
  local kind = type(name)
  if not name_types[kind] then
    error("the name given to " .. what .. " must be a string or number (got " .. kind .. "): busted's table.concat of the names fails here", 3)
  elseif parent.bad_name then
    error("an insulate or expose block around this " .. what .. " is named with a " .. type(parent.bad_name) .. ", not a string: busted's table.concat of the names fails here", 3)
  end
end

local function register(descriptor, alias, envmode, default_fn)
  local function publish(name, f)
    -- Inside a test or hook the names are rejected (lookup). One reached some other way busted
    -- registers under the test or hook, which never runs it: here it is dropped.
    if no_children[S.ctx.descriptor] then return end
    if S.skip_all or rejected(descriptor, name) then return end
    local src, line, what = user_frame(2, true)
    -- busted's --list names a test's file:line only when a Lua function registered it, not the
    -- file's main chunk (its trace.what == "Lua"): line 0 lists the name alone.
    if opts.list and what ~= "Lua" then line = 0 end
    local el = element(descriptor, name, f, S.ctx, line)
    -- Registered from another file (a module's function that makes tests): its line is there.
    if line ~= 0 and src and src ~= T.file_short_src and src ~= T.file then el.source = src end
    el.envmode = envmode
    -- busted checks no insulate or expose name (its filters join describe, it and pending names
    -- only): such a block's own bad name fails its first test or block instead (check_name).
    local bad = S.ctx.bad_name
    if bad == nil and not name_types[type(name)] then bad = name end
    if bad ~= nil then el.bad_name = bad end
    if hook_kinds[descriptor] then
      local ctx = S.ctx
      local list = ctx[descriptor]
      if not list then list = {}; ctx[descriptor] = list end
      list[#list + 1] = el
      -- busted attaches hooks among the block's children, which --shuffle, randomize() and
      -- --sort order: where each sits among them (order.lua puts them back for that).
      local count = (ctx.hook_count or 0) + 1
      ctx.hook_count = count
      local slots = ctx.hook_slots
      if not slots then slots = {}; ctx.hook_slots = slots end
      slots[#ctx.children + count] = el
    else
      local children = S.ctx.children
      children[#children + 1] = el
    end
  end
  local named = (descriptor == "it" or descriptor == "describe" or descriptor == "pending") and not envmode
  return function(name, fn)
    -- busted joins the names of a test or block (its filters' table.concat, when it registers):
    -- another name is an error of the block registering it, which the rest of the file outlives.
    if named and not (fn == nil and type(name) == "function") then check_name(alias or descriptor, name, S.ctx) end
    if not fn and type(name) == "function" then fn, name = name, alias
    elseif not fn then fn = default_fn end
    if fn then publish(name, fn) else return function(f) publish(name, f) end end
  end
end

local api = {}
T.api = api
-- The suite's environment (busted's root context): what busted exports lives here, not in _G,
-- so a module the tests require sees Lua's own `assert` and no `describe` or `it`.
local exports = setmetatable({}, { __index = G })
T.exports = exports
local function export(name, fn) api[name] = fn; exports[name] = fn end

-- busted's environments (busted/environment.lua, context.lua): each block (the file, a
-- describe, a test, a hook) has its own `env`, made when first written. Spec code's one _ENV
-- reads from the running block's env, then its parents', the suite's, then _G (busted's `or`
-- chain: a false value reads as the next one out); it writes to the running block's env, a
-- hook's to its block's and an expose's to its grandparent's (busted's `unwrap`).
local suite = { descriptor = "suite", env = exports }

local function parent_of(el) return el.parent or (el ~= suite and suite or nil) end

local setupvalue, getupvalue = debug.setupvalue, debug.getupvalue
local spec_env

-- busted's getfenv(fn): the value of its _ENV upvalue, or _G when it names no global.
local function fenv(fn)
  if type(fn) ~= "function" then return G end
  local up = 1
  repeat
    local name, value = getupvalue(fn, up)
    if name == "_ENV" then return value end
    up = up + 1
  until name == nil
  return G
end

-- Whether busted's rejectAll rejects the block function `name` in a test or hook running `fn`:
-- it asks the function's own environment for the name, so a function naming no global (its
-- environment then taken to be _G) gets only randomize rejected.
local function rejects(fn, name)
  local env = fenv(fn)
  if env == spec_env then return true end
  if env == G or type(env) ~= "table" then return rawget(G, name) ~= nil end
  return env[name]
end

-- busted's block.reject: what a rejected name holds.
local function rejection(name)
  return function() error("'" .. name .. "' not supported inside current context block", 2) end
end
-- Every block function busted registers (busted.executors but the hidden `file`).
local block_rejections = {}
for _, name in ipairs({ "describe", "context", "insulate", "expose", "it", "spec", "test", "pending",
                        "setup", "teardown", "before_each", "after_each", "lazy_setup", "lazy_teardown",
                        "strict_setup", "strict_teardown" }) do
  block_rejections[name] = rejection(name)
end
local in_hook = { randomize = rejection("randomize") }
for kind in pairs(hook_kinds) do own_names[kind] = in_hook end
-- init.lua's `it`: a test's `pending` stops it as pending; `finally(fn)` (only in a test) runs fn
-- after the test body, whatever its outcome (the last one given).
own_names.it = { randomize = in_hook.randomize, pending = T.raise_pending,
                 finally = function(fn) S.ctx.finally = fn end }
-- While a test's finally runs, its `pending` is rejected (busted's block.reject before it).
S.in_test, S.in_finally = own_names.it, { randomize = in_hook.randomize, pending = rejection("pending"),
                                     finally = own_names.it.finally }

-- Every key written into a block's env (the keys lookup walks the chain for); order.lua's
-- execute_block writes `randomize` into each block's.
local env_keys = { randomize = true }

local function lookup(_, key)
  local el = S.ctx
  local env, v = el.env, nil
  if env then v = env[key] if v then return v end end
  local own = own_names[el.descriptor]
  if own then
    v = own[key] if v then return v end
    v = block_rejections[key] if v and rejects(el.run, key) then return v end
  end
  -- Only a name some block's env holds is looked for up the chain: a walk per read of `describe`
  -- made nesting N deep cost N^2 (env_keys: every key ever written into an env).
  if env_keys[key] then
    el = el.parent
    while el do
      env = el.env
      if env then v = env[key] if v then return v end end
      el = el.parent
    end
  end
  return exports[key] or G[key]
end

-- How many blocks up a write in `el` lands: busted's unwrap, on hooks and expose blocks.
local function unwrap_levels(el)
  if hook_kinds[el.descriptor] then return 1 end
  if el.envmode == "expose" then return 2 end
end

local function assign(_, key, value)
  local el = S.ctx
  while true do
    local env = el.env
    local levels = not (env and rawget(env, key) ~= nil) and unwrap_levels(el)
    if not levels then
      if env then env[key] = value else el.env = { [key] = value } end
      env_keys[key] = true
      return
    end
    for _ = 1, levels do
      el = parent_of(el)
      if not el then G[key] = value return end
    end
  end
end

-- Spec code's _ENV, one for the whole file as busted's: it reads and writes through the
-- running block.
spec_env = setmetatable({}, { __index = lookup, __newindex = assign })

-- Gives `chunk` the spec environment; without the debug library to do it, the exports go to _G.
local function environment_for(chunk)
  if setupvalue and getupvalue and getupvalue(chunk, 1) == "_ENV" then
    setupvalue(chunk, 1, spec_env)
  else
    for k, v in pairs(exports) do rawset(G, k, v) end
  end
end
export("describe", register("describe", nil))
export("context", register("describe", "context"))
export("insulate", register("describe", "insulate", "insulate"))
export("expose", register("describe", "expose", "expose"))
export("it", register("it", nil))
export("spec", register("it", "spec"))
export("test", register("it", "test"))
for _, kind in ipairs({ "before_each", "after_each", "lazy_setup", "lazy_teardown", "strict_setup", "strict_teardown" }) do
  export(kind, register(kind, nil))
end
-- busted's --lazy makes setup and teardown lazy (runner.lua registers them again, as aliases
-- of lazy_setup and lazy_teardown).
local function alias_setup(lazy)
  export("setup", register(lazy and "lazy_setup" or "strict_setup", "setup"))
  export("teardown", register(lazy and "lazy_teardown" or "strict_teardown", "teardown"))
end
alias_setup(false)
local register_pending = register("pending", nil, nil, function() end)
-- pending("name") declares a pending test; inside a running test it stops the test as pending.
export("pending", function(name, ...)
  if S.ctx.descriptor == "it" then return T.raise_pending(name) end
  return register_pending(name, ...)
end)
api.publish, api.subscribe, api.unsubscribe = mediator.publish, mediator.subscribe, mediator.unsubscribe
T.environment_for, T.alias_setup = environment_for, alias_setup
