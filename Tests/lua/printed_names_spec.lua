-- A component's printed name is a query that finds it, whatever bytes its id holds (attack
-- atk-repl 13: ids that are not UTF-8 printed as <string>, alike, and no query found them).
describe("a printed name", function()
  it("shows an id that is not UTF-8 as its bytes, and finds it", function()
    local S = ck.component("S", {scope = function(p) return p.id end})
    local h = ck.host(function() return ck.Stack{children = {S{id = "caf\xe9"}, S{id = "caf\xe8"}, ck.Text{key = "na\xefve"}}} end)
    local a, b = h:findAll("S")[1], h:findAll("S")[2]
    assert.are.equal('Stack/S#"caf\\233"', a.path)
    assert.are.equal('Stack/S#"caf\\232"', b.path)
    assert.are.equal(a, h:find('S#"caf\\233"'))
    assert.are.equal(b, h:find('S#"caf\\232"'))
    assert.is_nil(h:find('S#"café"'))   -- é is two bytes, not the byte 233
    assert.truthy(h:dump():find('Text#"na\\239ve"', 1, true), h:dump())
    h:destroy()
  end)

  it("writes a control byte in three digits, so what follows it is not read into it", function()
    local S = ck.component("S", {scope = function(p) return p.id end})
    local h = ck.host(function() return ck.Stack{children = {S{id = "\t1"}, S{id = "["}}} end)
    local tab = h:findAll("S")[1]
    assert.are.equal('Stack/S#"\\0091"', tab.path)
    assert.are.equal(tab, h:find('S#"\\0091"'))
    h:destroy()
  end)
end)
