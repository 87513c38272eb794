-- types/testing.lua (LuaLS annotations) declares every global the test prelude gives a spec
-- file (issue 25): the names the runner exports, the ones a block or test defines for itself
-- (randomize, finally) and ckrun's own assertions. It reads the runner's table, which only
-- ckrun's hidden --runner-internals makes a global (scripts/test runs this file so).
local T = rawget(_G, "(ckrun test)")
if not T then
  pending("the runner's internals (run with ckrun test --runner-internals)")
  return
end

local function read(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("a")
  f:close()
  return text
end
local here = debug.getinfo(1, "S").short_src:match("^(.*/)") or "./"
local declared = read(here .. "../../types/testing.lua")

-- A global is declared by `function NAME(` or `NAME = ` at the start of a line.
local function declares(name)
  return declared:find("\nfunction " .. name .. "%(") or declared:find("\n" .. name .. " = ")
end

describe("types/testing.lua", function()
  it("declares every global the runner exports", function()
    local missing = {}
    for name in pairs(T.exports) do
      if not declares(name) then missing[#missing + 1] = name end
    end
    table.sort(missing)
    assert.are.same({}, missing)
  end)

  it("declares the names a block or a test defines for itself", function()
    assert.is_function(randomize)
    assert.is_function(finally)
    assert.truthy(declares("randomize"), "randomize")
    assert.truthy(declares("finally"), "finally")
  end)

  it("declares ckrun's own assertions and the doubles' modules", function()
    assert.truthy(declared:find("\n%-%-%-@field tree_snapshot "), "assert.tree_snapshot")
    for _, name in ipairs({ "stub", "mock", "match", "spy" }) do
      assert.truthy(declared:find("\n" .. name .. " = {}"), name)
    end
  end)
end)
