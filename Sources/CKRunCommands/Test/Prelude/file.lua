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
local find, gsub, rawequal = string.find, string.gsub, rawequal
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

-- As busted's helper loader: in _G, not in the spec environment (busted runs it with dofile); a
-- `.lua` file is run, another name required; the -Xhelper options are `arg` meanwhile.
local function run_helper()
  local saved_arg = G.arg
  G.arg = opts.helper_arguments
  local ok, err = pcall(function()
    -- The live loaders (G): under --watch loads.lua wraps them to note the helper.
    if find(opts.helper, "%.lua$") then assert(G.loadfile(opts.helper, "t"))() else G.require(opts.helper) end
  end)
  G.arg = saved_arg
  if not ok then error(err, 0) end
end

-- What a state does once, before its first file (busted's runner.lua, before the files): the
-- paths joined as busted joins them (`;;` made `;`), the -e statements, the helper. False when
-- a statement or the helper failed (recorded against the file that ran it: no test runs after).
local prepared
local function prepare()
  -- Only --watch needs the files a run loads: a normal run keeps Lua's own dofile and loadfile.
  if opts.record_loads then T.record_loads() end
  if opts.lpath and opts.lpath ~= "" then package.path = gsub(opts.lpath .. ";" .. package.path, ";;", ";") end
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
  opts.file_index, opts.seed = tonumber(index) or 0, tonumber(seed)
  if opts.seed then randomseed(opts.seed) end
  root = element("file", file, chunk, nil, 0)
  S.ctx, S.skip_all = root, S.skip_all and opts.fail_fast
  environment_for(chunk)
  if prepared == nil then prepared = prepare() end
  if not prepared then return end
  if opts.coverage then T.start_coverage(check_deadline) end
  if T.reset_snapshots then T.reset_snapshots() end
  executors.file(root)
  if T.write_snapshots then
    local ok, err = pcall(T.write_snapshots)
    runner_turn()
    if not ok then record(T.file, 0, "errored", "[testFailure] cannot write the snapshot file: " .. tostring(err)) end
  end
end

function T.current_test_name() return T.current and full_name(T.current) or "?" end

-- Settings from the Swift side, as strings: lists grow, numbers convert, "true" is true.
local lists = { filters = true, filter_out = true, tags = true, exclude_tags = true, helper_arguments = true, statements = true }
function T.set(key, value)
  if lists[key] then insert(opts[key], value)
  elseif value == "true" then opts[key] = true
  else opts[key] = tonumber(value) or value end
  if key == "lazy" then alias_setup(opts.lazy == true) end
end

-- busted/utils.lua's shuffle, so a seed gives busted's order: it reseeds math.random (without a
-- seed it goes on from math.random's state).
function T.shuffle(list, seed)
  if seed then randomseed(seed) end
  for n = #list, 2, -1 do
    local k = random(n)
    list[n], list[k] = list[k], list[n]
  end
end

function T.take_file_output() return T.take(T.file_output) end
