-- ckrun-mode: test
-- ckrun-expect-status: 0
setmetatable(_G, {__newindex = function(_, k) error("strict " .. tostring(k), 2) end,
                  __index = function(_, k) error("undeclared " .. tostring(k), 2) end})
describe("strict", function() it("runs", function() assert.is_true(true) end) end)
