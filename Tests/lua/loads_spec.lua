-- `ckrun test --watch` re-runs a test file when a file it loaded changes: each test file's run
-- notes what it loads (Prelude/loads.lua), and the Swift side reads the list with
-- T.loaded_files() as these tests do. The wrappers that note loads change nothing else.
-- The runner's table is no global: ckrun's hidden --runner-internals makes it one for this file
-- (scripts/test runs it so); without it the file has nothing to check.
local T = rawget(_G, "(ckrun test)")
if not T then
  pending("the runner's internals (run with ckrun test --runner-internals)")
  return
end
-- Only --watch records loads; this file turns recording on for itself.
if not T.opts.record_loads then T.record_loads() end
local here = debug.getinfo(1, "S").short_src:match("^(.*/)") or "./"

local function loaded()
  local set = {}
  for path in T.loaded_files():gmatch("[^%z]+") do set[path] = true end
  return set
end

describe("the files a test file loads (for --watch)", function()
  it("notes a module require found beside the test file, and no luassert module (preloaded)", function()
    require("sibling_module")
    local files = loaded()
    assert.is_true(files[here .. "sibling_module.lua"])
    assert.is_nil(files[":preload:"])
  end)

  it("notes what dofile and loadfile read", function()
    assert.are.equal("sibling", dofile(here .. "sibling_module.lua").name)
    assert.is_function(loadfile(here .. "sibling_package/init.lua"))
    assert.is_true(loaded()[here .. "sibling_package/init.lua"])
  end)

  it("notes the places searched for a module no searcher found (a module made there later is a change)", function()
    assert.is_false(pcall(require, "no_module_for_loads_spec"))
    local files = loaded()
    assert.is_true(files[here .. "no_module_for_loads_spec.lua"])
    assert.is_true(files["./src/no_module_for_loads_spec.lua"])
  end)

  it("keeps package.searchers' length and each loader's results and argument errors", function()
    assert.are.equal(5, #package.searchers)
    assert.are.equal(2, select("#", loadfile(here .. "no_such_file.lua")))
    assert.are.equal(1, select("#", loadfile(here .. "sibling_module.lua")))
    assert.are.equal(1, select("#", dofile(here .. "sibling_package/init.lua")))
    local ok, err = pcall(loadfile, {})
    assert.is_false(ok)
    assert.matches("bad argument #1 to 'loadfile'", err)
    ok, err = pcall(dofile, here .. "no_such_file.lua")
    assert.is_false(ok)
    assert.matches("cannot open .*no_such_file%.lua", err)
  end)
end)
