-- Each test file's state runs under the generational collector, as lua5.4's lua.c sets it
-- before any script (so under busted on lua5.4, and `ckrun script.lua`; atk-busted5 07).
local MODE = collectgarbage("generational")   -- returns the mode in force before the call

describe("the collector of a test file's state", function()
  it("is generational from the start, as under lua5.4 and busted", function()
    assert.equal("generational", MODE)
  end)

  it("switches and reports the previous mode as Lua's does", function()
    assert.equal("generational", collectgarbage("incremental"))
    assert.equal("incremental", collectgarbage("generational"))
  end)
end)
