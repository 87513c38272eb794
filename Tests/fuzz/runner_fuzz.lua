-- A seeded fuzzer for `ckrun test`: batches of random spec files (runner_model.lua makes them
-- and says what busted 2.1.1 reports for each), run by the ckrun binary and checked against
-- the model: `-o json` (every entry's status and full name, per file), the same with `--jobs 2`,
-- `-o tap --jobs 2` (one test point per entry, numbered in order: nothing a test prints or is
-- named forges one), and `--shard 1/2` + `--shard 2/2` (each test in exactly one shard).
-- `busted=N` also runs Debian's busted on N files of each batch (those without snapshots) and
-- checks the model against it, busted being the reference.
--   ckrun Tests/fuzz/runner_fuzz.lua [SEED] [BATCHES] [FILES] [checks] [busted=N]
-- checks: a comma list of json,jobs,tap,shard (default: all); "rotate" adds one of jobs, tap and
-- shard in turn every fourth batch (long runs under AddressSanitizer). CKRUN_FUZZ_BIN: the ckrun to test
-- (default: the one running this script). Exit 1 on the first batch with a mismatch (its
-- directory is kept and named).
local seed, batches, files = tonumber(arg[1]) or 1, tonumber(arg[2]) or 1, tonumber(arg[3]) or 40
local checks = {}
for word in (arg[4] and arg[4] ~= "all" and arg[4] or "json,jobs,tap,shard"):gmatch("[^,]+") do checks[word] = true end
local busted_files = tonumber((arg[5] or ""):match("^busted=(%d+)$")) or 0
local here = arg[0]:match("^(.*/)") or "./"
local M = dofile(here .. "runner_model.lua")
local ckrun = os.getenv("CKRUN_FUZZ_BIN") or arg[-1]
local busted = os.getenv("CKRUN_FUZZ_BUSTED") or "lua5.4 /usr/bin/busted"
-- CKRUN_FUZZ_PROGRESS=N: a line every N batches (long runs).
local progress = tonumber(os.getenv("CKRUN_FUZZ_PROGRESS") or "")

local function sh(s) return "'" .. s:gsub("'", "'\\''") .. "'" end
local function run(command)
  local p = assert(io.popen(command, "r"))
  local out = p:read("a")
  local _, _, code = p:close()
  return out, code
end

-- JSON, as ckrun's reports write it (objects, arrays, strings with escapes, numbers, literals).
local function decode(text)
  local i = 1
  local value
  local function space() i = text:find("[^ \t\r\n]", i) or #text + 1 end
  local escapes = { b = "\b", f = "\f", n = "\n", r = "\r", t = "\t", ['"'] = '"', ["\\"] = "\\", ["/"] = "/" }
  local function string_()
    local out = {}
    i = i + 1
    while true do
      local j = text:find('["\\]', i)
      out[#out + 1] = text:sub(i, j - 1)
      if text:sub(j, j) == '"' then i = j + 1 return table.concat(out) end
      local c = text:sub(j + 1, j + 1)
      if c == "u" then
        local code = tonumber(text:sub(j + 2, j + 5), 16)
        if code >= 0xD800 and code < 0xDC00 and text:sub(j + 6, j + 7) == "\\u" then
          code = 0x10000 + (code - 0xD800) * 0x400 + (tonumber(text:sub(j + 8, j + 11), 16) - 0xDC00)
          j = j + 6
        end
        out[#out + 1] = utf8.char(code)
        i = j + 6
      else
        out[#out + 1] = escapes[c]
        i = j + 2
      end
    end
  end
  function value()
    space()
    local c = text:sub(i, i)
    if c == "{" or c == "[" then
      local object, list, close = c == "{", {}, c == "{" and "}" or "]"
      i = i + 1
      space()
      if text:sub(i, i) == close then i = i + 1 return list end
      while true do
        if object then
          space()
          local key = string_()
          space()
          i = i + 1   -- ':'
          list[key] = value()
        else
          list[#list + 1] = value()
        end
        space()
        local sep = text:sub(i, i)
        i = i + 1
        if sep == close then return list end
      end
    elseif c == '"' then
      return string_()
    else
      local literal = text:match("^[%w%.%-+]+", i)
      i = i + #literal
      if literal == "true" then return true elseif literal == "false" then return false elseif literal == "null" then return nil end
      return tonumber(literal)
    end
  end
  return value()
end

-- Entries as "status<TAB>name" keys counted per file (and, with `tests_only`, only tests).
local lists = { successes = "success", failures = "failure", errors = "error", pendings = "pending" }
local function entries(report, tests_only)
  local per_file = {}
  for list, status in pairs(lists) do
    for _, e in ipairs(report[list] or {}) do
      local descriptor = e.element and e.element.descriptor
      if not tests_only or descriptor == "it" or descriptor == "pending" then
        local file = e.trace and e.trace.short_src or "?"
        local counts = per_file[file] or {}
        per_file[file] = counts
        local key = status .. "\t" .. e.name
        counts[key] = (counts[key] or 0) + 1
      end
    end
  end
  return per_file
end

local function model_counts(expected, tests_only)
  local counts = {}
  for _, e in ipairs(expected) do
    if not tests_only or e.test then
      local key = e.status .. "\t" .. e.name
      counts[key] = (counts[key] or 0) + 1
    end
  end
  return counts
end

local function same(a, b)
  for k, n in pairs(a) do if b[k] ~= n then return false, k end end
  for k, n in pairs(b) do if a[k] ~= n then return false, k end end
  return true
end

local function show(counts)
  local keys = {}
  for k, n in pairs(counts) do keys[#keys + 1] = string.format("%d x %q", n, k) end
  table.sort(keys)
  return table.concat(keys, "\n    ")
end

-- A batch: its files, their expectations, then each check.
local failures = 0
local function fail(dir, what, file, want, got, source)
  failures = failures + 1
  io.stderr:write(string.format("runner_fuzz: %s mismatch in %s (batch kept in %s)\n  model:\n    %s\n  got:\n    %s\n",
    what, file, dir, show(want), show(got)))
  if source then io.stderr:write("  source:\n", source, "\n") end
end

local function json_report(dir, options)
  local out = run(sh(ckrun) .. " test -o json " .. options .. " " .. sh(dir) .. " 2>/dev/null")
  local ok, report = pcall(decode, out)
  if not ok or type(report) ~= "table" then
    failures = failures + 1
    io.stderr:write("runner_fuzz: ckrun test -o json " .. options .. " wrote no JSON report (batch kept in " .. dir .. "):\n" .. out:sub(1, 2000) .. "\n")
    return {}
  end
  return report
end

local function check_json(dir, batch, options, label)
  local got = entries(json_report(dir, options))
  for _, f in ipairs(batch) do
    local ok = same(model_counts(f.expected), got[f.path] or {})
    if not ok then fail(dir, label, f.path, model_counts(f.expected), got[f.path] or {}, f.source) return end
  end
end

local function check_shards(dir, batch)
  local union = {}
  for _, shard in ipairs({ "1/2", "2/2" }) do
    for file, counts in pairs(entries(json_report(dir, "--shard " .. shard), true)) do
      local u = union[file] or {}
      union[file] = u
      for k, n in pairs(counts) do u[k] = (u[k] or 0) + n end
    end
  end
  for _, f in ipairs(batch) do
    local want = model_counts(f.expected, true)
    if not same(want, union[f.path] or {}) then fail(dir, "--shard 1/2 + 2/2", f.path, want, union[f.path] or {}, f.source) return end
  end
end

-- TAP: exactly one test point per entry, numbered 1..N, at any line break a reader may take.
local function check_tap(dir, batch)
  local out = run(sh(ckrun) .. " test -o tap --jobs 2 " .. sh(dir) .. " 2>/dev/null")
  local total = 0
  for _, f in ipairs(batch) do total = total + #f.expected end
  local n = 0
  for line in (out:gsub("\r\n", "\n"):gsub("\r", "\n"):gsub("\u{85}", "\n"):gsub("\u{2028}", "\n"):gsub("\u{2029}", "\n") .. "\n"):gmatch("(.-)\n") do
    local number = line:match("^ok (%d+)") or line:match("^not ok (%d+)")
    if number then
      n = n + 1
      if tonumber(number) ~= n then
        failures = failures + 1
        io.stderr:write("runner_fuzz: TAP test point " .. number .. " where " .. n .. " was due (batch kept in " .. dir .. "): " .. line .. "\n")
        return
      end
    end
  end
  if n ~= total or not out:find("\n1%.%." .. total .. "\n$") then
    failures = failures + 1
    io.stderr:write(string.format("runner_fuzz: TAP has %d test points, the model %d (batch kept in %s)\n", n, total, dir))
  end
end

-- busted's own report of one file: "status<TAB>name" lines from a handler of ours.
local handler_source = [[
return function(options)
  local busted = require 'busted'
  local handler = require 'busted.outputHandlers.base'()
  busted.subscribe({ 'suite', 'end' }, function()
    local f = assert(io.open(os.getenv('FUZZ_OUT'), 'w'))
    for list, status in pairs({ successes = 'success', failures = 'failure', errors = 'error', pendings = 'pending' }) do
      for _, e in ipairs(handler[list]) do f:write(status, '\t', (tostring(e.name):gsub('[%z\1-\31\\]', function(c) return ('\\%03d'):format(c:byte()) end)), '\n') end
    end
    f:close()
    return nil, true
  end)
  return handler
end
]]
local function check_busted(dir, f)
  local out = dir .. "/busted.out"
  run("cd " .. sh(dir) .. " && FUZZ_OUT=" .. sh(out) .. " " .. busted .. " -o " .. sh(dir .. "/handler.lua") .. " " .. sh(f.name) .. " >/dev/null 2>&1")
  local got = {}
  local file = io.open(out)
  if not file then failures = failures + 1 io.stderr:write("runner_fuzz: busted wrote no report for " .. f.path .. "\n") return end
  for line in file:lines() do
    local key = line:gsub("\\(%d%d%d)", function(d) return string.char(tonumber(d)) end)
    got[key] = (got[key] or 0) + 1
  end
  file:close()
  os.remove(out)
  -- busted names a file's own error by the path it was given (here the bare name).
  local want = {}
  for k, n in pairs(model_counts(f.expected)) do want[(k:gsub("\tsuite " .. f.path:gsub("%p", "%%%0") .. "$", "\tsuite " .. f.name))] = n end
  if not same(want, got) then fail(dir, "busted", f.path, want, got, f.source) end
end

local function write(path, text)
  local file = assert(io.open(path, "wb"))
  file:write(text)
  file:close()
end

local checked, busted_checked, extra = 0, 0, {}
for b = 1, batches do
  local r = M.rng(seed * 7919 + b)
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir -p " .. sh(dir .. "/__snapshots__")))
  write(dir .. "/handler.lua", handler_source)
  local batch = {}
  for i = 1, files do
    local name = string.format("f%03d_spec.lua", i)
    local tree = M.generate(r, r(3) == 1)
    local stored, order = {}, {}
    if M.ckrun_only(tree) then
      stored, order = M.stored_snapshots(r)
      if #order > 0 then write(dir .. "/__snapshots__/" .. name:gsub("%.lua$", ".snap"), M.snapshot_file(stored, order)) end
    end
    local source = M.render(r, tree)
    write(dir .. "/" .. name, source)
    local path = dir .. "/" .. name
    batch[#batch + 1] = { name = name, path = path, source = source, tree = tree, expected = M.expect(tree, path, stored) }
  end
  local before = failures
  local turn = checks.rotate and b % 4 == 0 and ({ "jobs", "tap", "shard" })[b // 4 % 3 + 1]
  if checks.json then check_json(dir, batch, "", "-o json") end
  if (checks.jobs or turn == "jobs") and failures == before then check_json(dir, batch, "--jobs 2", "-o json --jobs 2") end
  if (checks.tap or turn == "tap") and failures == before then check_tap(dir, batch) end
  if (checks.shard or turn == "shard") and failures == before then check_shards(dir, batch) end
  if turn then extra[turn] = (extra[turn] or 0) + files end
  local sampled = 0
  for _, f in ipairs(batch) do
    if sampled >= busted_files or failures > before then break end
    if not M.ckrun_only(f.tree) then
      check_busted(dir, f)
      sampled, busted_checked = sampled + 1, busted_checked + 1
    end
  end
  if failures > before then
    print(string.format("runner_fuzz: seed %d batch %d failed; %d files checked before it", seed, b, checked))
    os.exit(1)
  end
  checked = checked + files
  os.execute("rm -rf " .. sh(dir))
  if progress and b % progress == 0 then io.stdout:write("runner_fuzz: ", checked, " files checked\n"); io.stdout:flush() end
end
local rotated = {}
for _, check in ipairs({ "jobs", "tap", "shard" }) do
  if extra[check] then rotated[#rotated + 1] = extra[check] .. " also with " .. check end
end
print(string.format("runner_fuzz: %d generated spec files checked (seed %d%s%s), 0 mismatches", checked, seed,
  busted_checked > 0 and (", " .. busted_checked .. " also under busted") or "",
  #rotated > 0 and (", " .. table.concat(rotated, ", ")) or ""))
