-- The LuaLS annotation files parse and cover every function of the ck module.

local root = (debug.getinfo(1, "S").source:match("^@(.*/)Tests/lua/") or "./")

local function read(path)
  local f = assert(io.open(root .. path, "r"))
  local text = f:read("a")
  f:close()
  return text
end

describe("the LuaLS annotations", function()
  it("parse as Lua", function()
    assert.is_not_nil(load(read("types/ck.lua"), "@types/ck.lua"))
    assert.is_not_nil(load(read("types/testing.lua"), "@types/testing.lua"))
  end)

  it("annotate every function and built-in of ck", function()
    local text = read("types/ck.lua")
    local missing = {}
    for name, value in pairs(ck) do
      if type(value) == "function" and not text:find("function ck." .. name .. "(", 1, true) then
        missing[#missing + 1] = name
      elseif type(value) ~= "function" and not text:find("---@field " .. name .. " ", 1, true) then
        missing[#missing + 1] = name
      end
    end
    table.sort(missing)
    assert.are.same({}, missing)
  end)
end)
