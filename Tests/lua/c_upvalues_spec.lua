-- debug.setupvalue on a C function changed C state read unchecked: `debug.setupvalue(ck.now, 1,
-- 99); ck.now()` ended the process with SIGILL, a class's call table with SIGSEGV (an outsider's
-- safety attack). A C function's upvalues are refused; a Lua function's are set as in lua5.4.
describe("debug.setupvalue", function()
  it("refuses a C function's upvalues, ckrun's and the standard library's", function()
    local Card = ck.component("UpvalueCard", {})
    for _, f in ipairs{ck.now, getmetatable(Card) and getmetatable(Card).__call or ck.after, string.gmatch("ab", ".")} do
      local ok, err = pcall(debug.setupvalue, f, 1, 99)
      assert.is_false(ok)
      assert.matches("^%[badArgument%] debug%.setupvalue: argument #1 is a C function", tostring(err))
    end
    assert.is_number(ck.now())
  end)

  it("sets a Lua function's upvalues", function()
    local x = 1
    local function get() return x end
    assert.are.equal("x", debug.setupvalue(get, 1, 5))
    assert.are.equal(5, get())
  end)
end)
