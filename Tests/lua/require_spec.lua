-- SPEC §9: `require` looks beside the test file (and in the project root) with an extra
-- searcher after Lua's own; package.path stays as lua sets it.

describe("require beside the script", function()
  it("finds <dir>/?.lua and <dir>/?/init.lua beside the test file", function()
    assert.are.equal("sibling", require("sibling_module").name)
    assert.are.equal("sibling package", require("sibling_package").name)
  end)

  it("leaves package.path alone and appends one searcher after Lua's", function()
    assert.is_nil(package.path:find("Tests/lua", 1, true))
    assert.are.equal(5, #package.searchers)
  end)

  it("lists the places it looked when a module is missing", function()
    local ok, err = pcall(require, "no_such_module_here")
    assert.is_false(ok)
    assert.is_not_nil(err:find("no file '[^']*Tests/lua/no_such_module_here.lua' %(beside the test file [^)]*require_spec%.lua%)"), err)
  end)

  it("says why it looked in each directory, and adds no empty line (issue 29)", function()
    local ok, err = pcall(require, "no_such_module_here")
    assert.is_false(ok)
    local root = "no file '[^']*/no_such_module_here%.lua' %(in the project root: the directory ckrun test runs in%)"
    assert.is_not_nil(err:find(root), err)
    assert.is_nil(err:find("\n\t\n"), err)
  end)
end)
