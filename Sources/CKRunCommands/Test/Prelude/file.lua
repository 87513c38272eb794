-- ckrun test: a test file's run, from the Swift side's call (T.run_file) to its last result,
-- and the settings the Swift side gives it (T.set).
local pristine = select(7, ...)
-- Every free name reads the standard library as it was at start (the seventh argument): a spec
-- may set `_G.math = nil` or `string.format = nil` before the runner's code below runs
-- (check-layout refuses a shipped Lua file without this line). `_G` in it is the live table.
local _ENV = pristine or _G
local debug = select(3, ...) or debug
local T = select(6, ...)
local S, opts, element, safe, record, outside_error = T.S, T.opts, T.element, T.safe, T.record, T.outside_error
local full_name, runner_turn, executors = T.full_name, T.runner_turn, T.executors
local environment_for, alias_setup = T.environment_for, T.alias_setup
local insert, ipairs, tostring, tonumber, pcall, error = table.insert, ipairs, tostring, tonumber, pcall, error
local find, gsub, gmatch, sub, concat, rawequal, rawget, rawset, type = string.find, string.gsub, string.gmatch, string.sub, table.concat, rawequal, rawget, rawset, type
local G = _G
-- math.random as captured here: the same generator, which a test cannot replace.
local random, randomseed = math.random, math.randomseed
local root

-- A piece of the file's set-up (a -e statement, the helper), run as a block of the file; false
-- when it failed (the failure is recorded: the file's tests do not run).
local function set_up(name, fn)
  local el = element("helper", name, fn, root, 0)
  local status, message, trace = safe("helper", el.run, el)
  if status == "success" then return true end
  outside_error(el, status, message, trace)
  return false
end

-- The hooks a helper registered through require("busted") (busted registers them at its root
-- suite, around every file's tests): given to each file's element (`add_helper_hooks`).
local helper_hooks = {}
local hook_kinds = { "before_each", "after_each", "lazy_setup", "lazy_teardown", "strict_setup", "strict_teardown" }

local function add_helper_hooks()
  for _, hook in ipairs(helper_hooks) do
    local el = element(hook.descriptor, hook.name, hook.run, root, hook.line)
    el.envmode = hook.envmode
    local list = root[hook.descriptor]
    if not list then list = {}; root[hook.descriptor] = list end
    list[#list + 1] = el
  end
end

-- As busted's helper loader: in _G, not in the spec environment (busted runs it with dofile); a
-- `.lua` file is run, another name required; the -Xhelper options are `arg` meanwhile. What it
-- registers goes to a block of its own, whose hooks every file then gets.
local function run_helper()
  local saved_arg = G.arg
  G.arg = opts.helper_arguments
  local collector, outer = element("file", opts.helper, nil, nil, 0), S.ctx
  S.ctx = collector
  local ok, err = pcall(function()
    -- The live loaders (G): under --watch loads.lua wraps them to note the helper.
    if not find(opts.helper, "%.lua$") then
      -- Called through pcall, require's "module not found" names no place: not this chunk's line.
      local loaded, result = pcall(G.require, opts.helper)
      if not loaded then error(result, 0) end
      return result
    end
    -- Lua's message alone (busted's "cannot open FILE"), not this line's.
    local helper, problem = G.loadfile(opts.helper, "t")
    if not helper then error(problem, 0) end
    helper()
  end)
  G.arg = saved_arg
  S.ctx = outer
  for _, kind in ipairs(hook_kinds) do
    for _, hook in ipairs(collector[kind] or {}) do helper_hooks[#helper_hooks + 1] = hook end
  end
  if not ok then error(err, 0) end
end

-- What a state does once, before its first file (busted's runner.lua, before the files): the
-- paths joined as busted joins them (`;;` made `;`), the -e statements, the helper. False when
-- a statement or the helper failed (recorded against the file that ran it: no test runs after).
-- busted has LuaFileSystem loaded before any spec (Penlight's pl.path requires it) and Debian's
-- lfs sets the global `lfs`, so a spec may use `lfs` unrequired. Loaded as busted's is, before
-- --lpath joins the path; not under --sandbox (no C module loads), nor where lfs is not installed.
local function load_lfs()
  if rawget(G, "lfs") ~= nil or not rawequal(debug, G.debug) then return end
  local ok, lfs = pcall(require, "lfs")
  if ok and type(lfs) == "table" and rawget(G, "lfs") == nil then rawset(G, "lfs", lfs) end
end

-- A module `ck` of the project's own, on --lpath (busted's default ./src/?.lua …) or on the
-- path's relative templates (./?.lua): `require "ck"` finds it, as under busted; the global `ck`
-- stays the runtime (SPEC §1), which a spec beside such a module reaches as `ck`.
local function project_ck()
  local own = {}
  local lpath_count = 0
  for template in gmatch(opts.lpath or "", "[^;]+") do own[#own + 1] = template; lpath_count = lpath_count + 1 end
  local i = 0
  for template in gmatch(package.path, "[^;]+") do
    i = i + 1
    if i > lpath_count and find(template, "^%./") then own[#own + 1] = template end
  end
  return package.searchpath("ck", concat(own, ";")) ~= nil
end

-- The run's `.busted` file, run again in this state: busted runs it in the state its specs share
-- (its cli.lua: loadfile, then the call), so what its top level does (globals, assert:register,
-- say:set, package.path) is there for every spec. Its chunk name is the one busted gives it; its
-- `arg` is the command line, as busted's (the file's own, run_file); what it returns was read
-- before the run (BustedConfig), and its bytes when the run started (TestPlan): every state runs
-- the same ones.
local function run_config()
  local config, problem = load(tostring(opts.config_source), "@" .. tostring(opts.config_name))
  if not config then error(problem, 0) end
  config()
end

-- busted's `arg`: the runner's command line (TestRunSettings.commandLine), arg[0] the program and
-- arg[-1] its interpreter (ckrun is both), never the spec's path, which a module's "am I the
-- main script?" check on arg[0] would take for its own. A new table for each file.
local function command_line()
  local line = opts.command_line
  local arg = { [-1] = line[1], [0] = line[1] }
  for i = 2, #line do arg[i - 1] = line[i] end
  return arg
end

-- LUA_INIT_5_4 or LUA_INIT, as lua5.4 runs it before busted's script (`@FILE` a file, else a chunk).
local function run_lua_init()
  local init, name = tostring(opts.lua_init), "=" .. tostring(opts.lua_init_name)
  local fn, problem
  if find(init, "^@") then fn, problem = loadfile(sub(init, 2)) else fn, problem = load(init, name) end
  if not fn then error(problem, 0) end
  fn()
end

local prepared
local function prepare()
  -- Only --watch needs the files a run loads: a normal run keeps Lua's own dofile and loadfile.
  if opts.record_loads then T.record_loads() end
  if opts.lua_init and not set_up(tostring(opts.lua_init_name), run_lua_init) then return false end
  load_lfs()
  if opts.config_source and not set_up(tostring(opts.config_name), run_config) then return false end
  if opts.lpath and opts.lpath ~= "" then package.path = gsub(opts.lpath .. ";" .. package.path, ";;", ";") end
  if project_ck() then package.loaded.ck = nil end
  -- Under --sandbox no C module loads: package.cpath stays empty.
  if opts.cpath and opts.cpath ~= "" and rawequal(debug, G.debug) then
    package.cpath = gsub(opts.cpath .. ";" .. package.cpath, ";;", ";")
  end
  -- busted's -e statements, in _G once the paths are set, before the helper (its runner.lua's order).
  for _, statement in ipairs(opts.statements) do
    if not set_up(statement, function() assert(load(statement, statement, "t"))() end) then return false end
  end
  return not (opts.helper and opts.helper ~= "" and not set_up(opts.helper, run_helper))
end

-- Runs the file: `chunk` is its loaded main function, `file` its path, `index` its place among
-- the run's files (--shard keys on it), `seed` its math.random seed (each file its own, from
-- --seed when given). Its results are kept as they come (`keep`); it ends in a runner's turn
-- (the Swift side's calls after it run under it). A state shared by several files (busted's
-- auto-insulate = false) runs it once per file.
function T.run_file(chunk, file, index, seed)
  local check_deadline = T.take_powers()
  T.take_isolation()
  T.use_clock(T.clock)
  runner_turn()
  T.file = file
  rawset(G, "arg", command_line())
  T.forget_raised()
  -- Lua's short name of the file (a long path is cut to "...tail"): a place in it is this file's.
  local info = type(chunk) == "function" and debug.getinfo(chunk, "S")
  T.file_short_src = info and info.short_src or file
  opts.file_index, opts.seed = tonumber(index) or 0, tonumber(seed)
  if opts.seed then randomseed(opts.seed) end
  root = element("file", file, chunk, nil, 0)
  T.file_root = root   -- the tests declared so far (assert.lua's same_named_tests)
  S.ctx, S.skip_all = root, S.skip_all and opts.fail_fast
  environment_for(chunk)
  if prepared == nil then prepared = prepare() end
  if not prepared then return end
  if helper_hooks[1] then add_helper_hooks() end
  if opts.coverage then T.start_coverage(check_deadline) end
  if T.reset_snapshots then T.reset_snapshots() end
  executors.file(root)
  if T.write_snapshots then
    local ok, err = pcall(T.write_snapshots)
    runner_turn()
    if not ok then
      local message = tostring(err)
      if not find(message, "^%[%a+%]") then message = "[cannotWrite] cannot write the snapshot file: " .. message end
      record(T.file, 0, "errored", message)
    end
  end
end

-- file:line of the block or test the runner was running (the innermost with a line), for an
-- error that left the file's run located in the runner's own code: a stack overflow under
-- blocks nested deeper than the stack allows names the block it could not run, not run.lua.
function T.running_place()
  local el = S.ctx
  -- Between two block bodies S.ctx is back at the file: the block the runner went into is the place.
  if not (el and el.line and el.line > 0) then el = S.running_block or el end
  while el and not (el.line and el.line > 0) do el = el.parent end
  if el and T.file then return tostring(el.source or T.file) .. ":" .. el.line end
end

function T.current_test_name() return T.current and full_name(T.current) or "?" end

-- Settings from the Swift side, as strings: lists grow, numbers convert, "true" is true.
local lists = { filters = true, filter_out = true, tags = true, exclude_tags = true, helper_arguments = true, statements = true, command_line = true }
function T.set(key, value)
  if lists[key] then insert(opts[key], value)
  elseif value == "true" then opts[key] = true
  else opts[key] = tonumber(value) or value end
  if key == "lazy" then alias_setup(opts.lazy == true) end
end

-- Lua 5.4's math.random after math.randomseed(seed) (xoshiro256**, lmathlib.c; LuaRandom.swift
-- for the file shuffle): math.random(n) each call, from a state of its own.
local function seeded_random(seed)
  local s0, s1, s2, s3 = seed, 0xff, 0, 0
  local function rotl(x, n) return (x << n) | (x >> (64 - n)) end
  local function next_value()
    local result = rotl(s1 * 5, 7) * 9
    local t2, t3 = s2 ~ s0, s3 ~ s1
    s0, s1, s2, s3 = s0 ~ t3, s1 ~ t2, t2 ~ (s1 << 17), rotl(t3, 45)
    return result
  end
  for _ = 1, 16 do next_value() end
  return function(n)
    local limit = n - 1
    local value = next_value()
    if limit & (limit + 1) == 0 then return (value & limit) + 1 end
    local mask = limit
    mask = mask | (mask >> 1); mask = mask | (mask >> 2); mask = mask | (mask >> 4)
    mask = mask | (mask >> 8); mask = mask | (mask >> 16); mask = mask | (mask >> 32)
    value = value & mask
    while value > limit do value = next_value() & mask end
    return value + 1
  end
end

-- busted/utils.lua's shuffle, so a seed gives busted's order. busted reseeds math.random with it
-- (every file then drew the same numbers after its first shuffled block); here an integer seed
-- draws from a generator of its own, the same numbers, and the file's math.random keeps its own
-- seed (SPEC §9: each file's state is seeded distinctly). Without a seed (or with one that is no
-- integer) it goes through math.random as busted's does.
local tointeger = math.tointeger
function T.shuffle(list, seed)
  local own = seed and tointeger(seed)
  local draw = own and seeded_random(own) or random
  if seed and not own then randomseed(seed) end
  for n = #list, 2, -1 do
    local k = draw(n)
    list[n], list[k] = list[k], list[n]
  end
end

function T.take_file_output() return T.take(T.file_output) end
