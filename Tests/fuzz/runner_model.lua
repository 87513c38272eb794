-- The test runner fuzzer's generator and model (runner_fuzz.lua drives them). A random spec file
-- is a tree (describe blocks, tests, declared pendings, hooks, finally, errors, output with
-- control bytes, snapshots); `expect` says what busted 2.1.1 reports for it, from busted's rules
-- (block.lua, init.lua, core.lua) written down here, never from ckrun's runner: a list of
-- { status, name, test } in report order (status: success, failure, error, pending; `test`:
-- the entry is a test or a declared pending, not a hook's or a block's error).
local M = {}

local function rng(seed)
  local state = seed % 2147483648
  return function(n)
    state = (state * 1103515245 + 12345) % 2147483648
    return (state >> 8) % n + 1
  end
end
M.rng = rng

local function pick(r, t) return t[r(#t)] end

-- Names: plain words, tags, and the bytes a report must escape.
local words = { "adds", "works", "#fast", "a b", "x\r\ny", "ok 99 - forged", "tab\there", "nul\0byte", "cr\rok 98 - cr",
                "quote\"s", "back\\slash", "<&>", "]]", "\30ckrun-test-result x", "ls\u{2028}ps\u{2029}" }
local function name(r)
  local n = r(3)
  local parts = {}
  for i = 1, n do parts[i] = pick(r, words) end
  return table.concat(parts, " ")
end

-- What a test, a hook or a block body does: its outcome and the source that has it.
local outcomes = {
  pass = { status = "success", code = "local _ = 1" },
  fail = { status = "failure", code = "assert.is_true(false)" },
  equal = { status = "failure", code = "assert.are.equal(1, 2)" },
  error = { status = "error", code = "error('boom')" },
  error_table = { status = "error", code = "error({ code = 1 })" },
  error_tostring = { status = "error", code = "error(setmetatable({}, { __tostring = function() return 'obj\\r\\nok 97' end }))" },
  index_nil = { status = "error", code = "local t = nil; local _ = t.x" },
  pending = { status = "pending", code = "pending('later\\r\\nok 96')" },
}
local test_outcomes = { "pass", "pass", "pass", "fail", "equal", "error", "error_table", "error_tostring", "index_nil", "pending" }
local hook_outcomes = { "pass", "pass", "pass", "pass", "pass", "pass", "fail", "error" }

-- Output a test or hook writes: control bytes, forged TAP points, worker markers.
local outputs = { "print('out\\r\\nok 95 - forged')", "io.write('\\30ckrun-test-result 0 x\\n')", "io.write('a\\0b\\27[31m\\r')",
                  "print(1, nil, true)", "io.write('no newline')", "print('\\u{85}ok 94\\u{2028}')" }

-- Snapshot keys and texts: keys with line breaks and backslashes, texts with the file format's
-- own markers.
local snapshot_keys = { "k", "k2", "line\nbreak", "cr\rkey", "back\\nslash", "== k" }
local snapshot_texts = { "A", "B", "==x\n\\y", "a\r\nb", "", "tail\n" }

local hook_kinds = { "before_each", "after_each", "setup", "teardown", "lazy_setup", "lazy_teardown" }

-- A random block's children and hooks; `depth` bounds nesting, `budget` the tests.
local function block(r, depth, budget, snapshots)
  local b = { hooks = {}, children = {} }
  for _, kind in ipairs(hook_kinds) do
    local list = {}
    for i = 1, (r(4) == 1 and r(2) or 0) do list[i] = { outcome = pick(r, hook_outcomes), output = r(4) == 1 and pick(r, outputs) } end
    b.hooks[kind] = list
  end
  for _ = 1, r(5) - 1 do
    if budget.tests <= 0 then break end
    local k = r(10)
    if k <= 2 and depth < 3 then
      local child = block(r, depth + 1, budget, snapshots)
      child.kind, child.name = "describe", name(r)
      child.body_error = r(12) == 1 and pick(r, { "error", "fail", "error_table" })
      child.output = r(5) == 1 and pick(r, outputs)
      b.children[#b.children + 1] = child
    elseif k == 3 then
      budget.tests = budget.tests - 1
      b.children[#b.children + 1] = { kind = "pending", name = name(r), with_function = r(2) == 1 }
    else
      budget.tests = budget.tests - 1
      local t = { kind = "it", name = name(r), outcome = pick(r, test_outcomes), output = r(3) == 1 and pick(r, outputs) }
      if r(5) == 1 then t.finally = pick(r, { "pass", "pass", "error", "fail" }) end
      if snapshots and r(4) == 1 then t.snapshot = { key = pick(r, snapshot_keys), text = pick(r, snapshot_texts) } end
      b.children[#b.children + 1] = t
    end
  end
  return b
end

function M.generate(r, snapshots)
  local root = block(r, 0, { tests = 14 }, snapshots)
  root.kind = "file"
  root.body_error = r(40) == 1 and "error"
  return root
end

-- Source: each block's hooks and children in a random interleaving (order within a kind is
-- what counts), a block's body error after its registrations.
local function q(s) return string.format("%q", s):gsub("\\\n", "\\n"):gsub("\r", "\\r") end
M.quote = q

local function render_body(r, b, out, indent)
  local items = {}
  for _, kind in ipairs(hook_kinds) do
    for _, h in ipairs(b.hooks[kind]) do items[#items + 1] = { hook = kind, h = h } end
  end
  -- Hooks keep their order within a kind; children keep theirs; the two lists interleave.
  local merged, hi, ci = {}, 1, 1
  while hi <= #items or ci <= #b.children do
    if ci > #b.children or (hi <= #items and r(2) == 1) then merged[#merged + 1] = items[hi]; hi = hi + 1
    else merged[#merged + 1] = { child = b.children[ci] }; ci = ci + 1 end
  end
  for _, item in ipairs(merged) do
    if item.hook then
      local h = item.h
      out[#out + 1] = indent .. item.hook .. "(function() " .. (h.output or "") .. " " .. outcomes[h.outcome].code .. " end)"
    else
      local c = item.child
      if c.kind == "describe" then
        out[#out + 1] = indent .. pick(r, { "describe", "describe", "context" }) .. "(" .. q(c.name) .. ", function()"
        if c.output then out[#out + 1] = indent .. "  " .. c.output end
        render_body(r, c, out, indent .. "  ")
        if c.body_error then out[#out + 1] = indent .. "  " .. outcomes[c.body_error].code end
        out[#out + 1] = indent .. "end)"
      elseif c.kind == "pending" then
        out[#out + 1] = indent .. "pending(" .. q(c.name) .. (c.with_function and ", function() error('never runs') end)" or ")")
      else
        local body = {}
        if c.finally then body[#body + 1] = "finally(function() " .. outcomes[c.finally].code .. " end)" end
        if c.output then body[#body + 1] = c.output end
        if c.snapshot then body[#body + 1] = "assert.tree_snapshot(" .. q(c.snapshot.text) .. ", " .. q(c.snapshot.key) .. ")" end
        body[#body + 1] = outcomes[c.outcome].code
        out[#out + 1] = indent .. pick(r, { "it", "it", "it", "spec", "test" }) .. "(" .. q(c.name) .. ", function() "
          .. table.concat(body, "; ") .. " end)"
      end
    end
  end
end

function M.render(r, root)
  local out = {}
  render_body(r, root, out, "")
  if root.body_error then out[#out + 1] = outcomes[root.body_error].code end
  return table.concat(out, "\n") .. "\n"
end

-- The model: busted's run of the tree. `file` is the path busted names the file's own error by;
-- `stored` the snapshot entries on disk before the run (key -> text).
function M.expect(root, file, stored)
  local results = {}
  local entries = {}
  for k, v in pairs(stored or {}) do entries[k] = v end
  local function add(status, n, test) results[#results + 1] = { status = status, name = n, test = test } end
  local function hook_status(outcome) return outcomes[outcome].status == "success" and "success" or "error" end

  local function full(parent, n) return parent.full and (parent.full .. " " .. n) or n end
  local hook_names = { before_each = "before_each", after_each = "after_each", setup = "setup", teardown = "teardown",
                       lazy_setup = "lazy_setup", lazy_teardown = "lazy_teardown" }
  -- Runs a block's hooks of `kind`; records each failing one; true when all passed.
  local function run_hooks(b, kind)
    local ok = true
    for _, h in ipairs(b.hooks[kind]) do
      if hook_status(h.outcome) ~= "success" then
        add("error", full(b, hook_names[kind]), false)
        ok = false
      end
    end
    return ok
  end

  local lazy_done = {}
  local function lazy_setup(b)
    if b.parent and not lazy_setup(b.parent) then return false end
    if lazy_done[b] ~= nil then return lazy_done[b] end
    lazy_done[b] = run_hooks(b, "lazy_setup")
    return lazy_done[b]
  end
  -- before_each from the outermost block in; stops below a level that failed (that level's
  -- remaining hooks still run): the level after_each starts from.
  local function before_each(b)
    if b.parent then
      local ok, level = before_each(b.parent)
      if not ok then return false, level end
    end
    return run_hooks(b, "before_each"), b
  end
  local function after_each(b)
    run_hooks(b, "after_each")
    if b.parent then after_each(b.parent) end
  end

  -- A test's entries, as busted's handler makes them: a failure or an error is recorded when it
  -- is raised (the body's, then the finally's: an error there is an error, an assertion's too),
  -- a success or a pending when the test ends with that status (status:update: success gives way
  -- to anything, pending to anything but success).
  local function run_test(t, n)
    local status
    if t.snapshot then
      local old = entries[t.snapshot.key]
      if old == nil then entries[t.snapshot.key] = t.snapshot.text
      elseif old ~= t.snapshot.text then status = "failure" end
    end
    status = status or outcomes[t.outcome].status
    if status == "failure" or status == "error" then add(status, n, true) end
    if t.finally and outcomes[t.finally].status ~= "success" then
      add("error", n, true)
      if status == "success" or status == "pending" then status = "error" end
    end
    if status == "success" or status == "pending" then add(status, n, true) end
  end

  local run_block
  local function run_child(b, c)
    c.parent = b
    if c.kind == "describe" then
      c.full = full(b, c.name)
      run_block(c)
    elseif c.kind == "pending" then
      add("pending", full(b, c.name), true)
    else
      if not lazy_setup(b) then return end
      local ok, level = before_each(b)
      if ok then run_test(c, full(b, c.name)) end
      after_each(level)
    end
  end

  function run_block(b)
    if b.body_error then
      -- busted's full name of the file climbs to the suite: "suite FILE".
      add("error", b.kind == "file" and "suite " .. file or b.full, false)
      return
    end
    if run_hooks(b, "setup") then
      for _, c in ipairs(b.children) do run_child(b, c) end
    end
    if lazy_done[b] ~= nil then
      run_hooks(b, "lazy_teardown")
      lazy_done[b] = nil
    end
    run_hooks(b, "teardown")
  end

  run_block(root)
  return results, entries
end

-- Whether the tree uses anything busted does not have (snapshots).
function M.ckrun_only(b)
  for _, c in ipairs(b.children) do
    if c.snapshot or (c.kind == "describe" and M.ckrun_only(c)) then return true end
  end
  return false
end

-- The snapshot file's format (docs/testing.md), written from its description: "== key" (key's
-- \, LF and CR escaped), then the text's lines, one starting "==" or "\" escaped with "\".
function M.snapshot_file(entries, order)
  local out = {}
  for _, key in ipairs(order) do
    out[#out + 1] = "== " .. key:gsub("\\", "\\\\"):gsub("\n", "\\n"):gsub("\r", "\\r")
    for line in (entries[key] .. "\n"):gmatch("(.-)\n") do
      if line:sub(1, 2) == "==" or line:sub(1, 1) == "\\" then line = "\\" .. line end
      out[#out + 1] = line
    end
  end
  return table.concat(out, "\n") .. "\n"
end

-- Stored snapshots for a file: some keys, some texts.
function M.stored_snapshots(r)
  local entries, order = {}, {}
  for _, key in ipairs(snapshot_keys) do
    if r(3) == 1 then
      entries[key] = pick(r, snapshot_texts)
      order[#order + 1] = key
    end
  end
  return entries, order
end

return M
