-- assert.tree_snapshot's diff (docs/testing.md, "Snapshots of component trees"): a line diff,
-- so an inserted line is one `+` and the lines after it are unchanged; up to 2 unchanged lines
-- are shown around each change and "..." stands for the others.
-- Each case is a snapshot, the tree now, and the diff expected. The snapshot file is written
-- here before the first comparison (assert.tree_snapshot reads it then) and removed after, so
-- the cases stay in this file and a run leaves nothing behind.

local here = debug.getinfo(1, "S").source:match("^@(.-)[^/]*$")
local snap_dir = here .. "__snapshots__"
local snap_file = snap_dir .. "/snapshot_diff_spec.snap"

-- "Root" and n lines below it, line(i) the i-th.
local function tree(n, line)
  local lines = { "Root" }
  for i = 1, n do lines[i + 1] = line(i) end
  return table.concat(lines, "\n")
end
local function node(i) return "  node " .. i end
local function other(i) return "  other " .. i end
local function changed(changes) return function(i) return changes[i] or node(i) end end
-- n diff lines: mark, a space, line(i).
local function marked(mark, n, line)
  local lines = {}
  for i = 1, n do lines[i] = mark .. " " .. line(i) end
  return table.concat(lines, "\n")
end

local cases = {
  {
    name = "one line inserted at the top",
    snapshot = "List\n  a\n  b\n  c\n  d",
    now = "List\n  new\n  a\n  b\n  c\n  d",
    diff = "  List\n+   new\n    a\n    b\n...",
  },
  {
    name = "one line removed",
    snapshot = "List\n  a\n  b\n  c",
    now = "List\n  a\n  c",
    diff = "  List\n    a\n-   b\n    c",
  },
  {
    name = "two changes far apart",
    snapshot = tree(20, node),
    now = tree(20, changed({ [3] = "  three", [15] = "  fifteen" })),
    diff = "  Root\n    node 1\n    node 2\n-   node 3\n+   three\n    node 4\n    node 5\n...\n"
      .. "    node 13\n    node 14\n-   node 15\n+   fifteen\n    node 16\n    node 17\n...",
  },
  {
    name = "a run of changes, removed lines first",
    snapshot = "Root\n  a\n  b\n  c\n  d",
    now = "Root\n  x\n  y\n  z\n  d",
    diff = "  Root\n-   a\n-   b\n-   c\n+   x\n+   y\n+   z\n    d",
  },
  {
    -- 1200 edits: past the search's limit, shown as all removed then all added.
    name = "every line changed in a large tree",
    snapshot = tree(600, node),
    now = tree(600, other),
    diff = "  Root\n" .. marked("-", 600, node) .. "\n" .. marked("+", 600, other),
  },
  {
    name = "a final newline in both",
    snapshot = "Root\n  A\n",
    now = "Root\n  B\n",
    diff = "  Root\n-   A\n+   B",
  },
}

local function write_snapshot_file()
  os.execute("mkdir -p '" .. snap_dir:gsub("'", "'\\''") .. "'")
  local f = assert(io.open(snap_file, "w"))
  for _, case in ipairs(cases) do f:write("== ", case.name, "\n", case.snapshot, "\n") end
  f:close()
end

describe("assert.tree_snapshot's diff", function()
  setup(write_snapshot_file)
  teardown(function()
    os.remove(snap_file)
    os.remove(snap_dir) -- only when empty: another spec's snapshots stay
  end)

  for _, case in ipairs(cases) do
    it("shows " .. case.name, function()
      local ok, err = pcall(assert.tree_snapshot, case.now, case.name)
      assert.is_false(ok)
      assert.are.equal("Expected the tree to match its snapshot:\n" .. case.diff
        .. "\n(- snapshot, + now; run with --update-snapshots to accept)", tostring(err))
    end)
  end

  it("passes when the tree is its snapshot", function()
    assert.tree_snapshot(cases[1].snapshot, cases[1].name)
  end)
end)

-- A value that is neither a host nor a string: a catalogued error at the spec's line (it was a
-- bare "attempt to call a nil value (method 'dump')" at the runner's own chunk).
describe("assert.tree_snapshot's argument", function()
  it("is a host or a string: anything else is [badArgument] at the caller's line", function()
    for _, bad in ipairs{{}, 42, false} do
      local ok, err = pcall(function() assert.tree_snapshot(bad) end) -- the call
      assert.is_false(ok)
      assert.matches("^%[badArgument%] [^\n]*snapshot_diff_spec%.lua:%d+: assert%.tree_snapshot takes a host", tostring(err))
    end
  end)
end)
