-- Pure keyed rows whose render makes an unkeyed scoped child: the children collide (legal,
-- told apart by order, [scopeCollision]). Keeping a row may never fail a build that succeeds
-- without `pure` (atk-ck4 break 02: inserting a row at the top failed with a [badReturn]
-- "placed in the tree twice" and dropped the state update behind it).
describe("pure rows with colliding scoped children", function()
  local warnings
  before_each(function()
    warnings = 0
    ck.config.onWarning = function(m) if m:match("^%[scopeCollision%]") then warnings = warnings + 1 end end
  end)
  after_each(function() ck.config.onWarning = nil end)

  local function classes(pure)
    local Cell = ck.component("CollCell", {scope = true, initialState = 0})
    local Row = ck.component("CollRow", {pure = pure, render = function(self, p) return Cell{} end})
    return Cell, Row
  end

  local function shape(h)
    local out = {}
    for _, row in ipairs(h:findAll("CollRow")) do
      out[#out + 1] = row.key .. (row.props.label or "") .. ":" .. #h:findAll("CollRow#" .. row.key .. " > CollCell")
    end
    return table.concat(out, " ")
  end

  local function byModel(pure, from, to)
    local _, Row = classes(pure)
    local h = ck.host(function(m)
      local ch = {}
      for i, e in ipairs(m) do
        local k, label = e:match("^(%a)(.*)$")
        ch[i] = Row{key = k, label = label ~= "" and label or nil}
      end
      return ck.Stack{children = ch}
    end, {model = from})
    h:mount()
    h:update(to)
    local s = shape(h)
    h:destroy()
    return s
  end

  local cases = {
    {"inserts at the top", {"a", "b"}, {"c", "a", "b"}},
    {"inserts in the middle", {"a", "b"}, {"a", "c", "b"}},
    {"inserts at the top of three", {"a", "b", "d"}, {"c", "a", "b", "d"}},
    {"reverses", {"a", "b", "c"}, {"c", "b", "a"}},
    {"swaps two", {"a", "b"}, {"b", "a"}},
    {"reorders while one row's props change", {"a", "b"}, {"b", "a2"}},
    {"reorders three while one changes", {"a", "b", "c"}, {"c2", "a", "b"}},
  }
  for _, case in ipairs(cases) do
    it(case[1] .. " as it does without pure", function()
      local plain = byModel(false, case[2], case[3])
      assert.are.equal(plain, byModel(true, case[2], case[3]))
      assert.is_true(warnings > 0, "the collision is reported")
    end)
  end

  local function byState(pure, to)
    local _, Row = classes(pure)
    local List = ck.component("CollList", {scope = true, initialState = {"a", "b"},
      render = function(self, p, s)
        local ch = {}
        for i, k in ipairs(s) do ch[i] = Row{key = k} end
        return ck.Stack{children = ch}
      end})
    local h = ck.host(function() return List{} end)
    h:mount()
    h.root:updateState(to, "sync")
    local s, order = shape(h), table.concat(h.root.state, "")
    h:destroy()
    return s, order
  end

  for _, to in ipairs({{"c", "a", "b"}, {"a", "c", "b"}, {"b", "a"}}) do
    it("applies a state update that moves the rows to " .. table.concat(to), function()
      local s, order = byState(true, to)
      assert.are.equal(table.concat(to), order, "the update is not lost")
      assert.are.equal((byState(false, to)), s)
    end)
  end

  it("keeps each Cell's own state where rows keep their place, and builds again after", function()
    local _, Row = classes(true)
    local h = ck.host(function(m)
      local ch = {}
      for i, k in ipairs(m) do ch[i] = Row{key = k} end
      return ck.Stack{children = ch}
    end, {model = {"a", "b"}})
    h:mount()
    h:find("CollRow#b > CollCell"):updateState(7, "sync")
    h:update({"a", "b", "c"})   -- appended: a and b stay kept with their Cells
    assert.are.equal(7, h:find("CollRow#b > CollCell").state)
    h:update({"c", "a", "b"})
    assert.are.equal("c:1 a:1 b:1", shape(h))
    h:update({"a", "b"})
    assert.are.equal("a:1 b:1", shape(h))
    h:destroy()
  end)
end)
