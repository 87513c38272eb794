-- A parent re-rendering kept rows claims their scopes without moving them: each stays placed
-- aside in the parent's old map of child scopes, which the commit keeps whole when every scope in
-- it stayed, else carries them over beside the scopes claimed anew (issue 28:
-- `BuildContext.place`, `Commit.commitScopes`). Each case checks that every scope that stays
-- keeps its state, and that one that left is gone.

-- A keyed list of stateful pure rows (state: key * 10 at first); `keys` is the model.
local function list(name)
  local Row = ck.component(name, {scope = true, pure = true, initialState = function(p) return p.key * 10 end,
    view = function(self, p) return {class = "UILabel", attributes = {text = tostring(p.key)}} end})
  local host = ck.host(function(keys)
    local c = {}
    for i, k in ipairs(keys) do c[i] = Row{key = k} end
    return ck.Stack{children = c}
  end, {model = {}})
  host:mount()
  local function states()
    local out = {}
    for i, row in ipairs(host:findAll(name)) do out[i] = row.key .. "=" .. tostring(row.state) end
    return table.concat(out, " ")
  end
  return host, states
end

local function range(from, to, skip)
  local out = {}
  for k = from, to do if not (skip and skip[k]) then out[#out + 1] = k end end
  return out
end

describe("kept rows' scopes", function()
  it("keep their state while rows leave one build after another (the old map less what left)", function()
    local host, states = list("KeptStateRow")
    host:update(range(1, 40))
    for _, row in ipairs(host:findAll("KeptStateRow")) do row:updateState(row.key, "sync") end
    local gone = {}
    for _, leaving in ipairs({{7}, {1, 2, 3}, {40}, {20, 21, 22, 23, 24, 25, 26, 27, 28}, {39, 38, 4}}) do
      for _, k in ipairs(leaving) do gone[k] = true end
      host:update(range(1, 40, gone))
      local want = {}
      for _, k in ipairs(range(1, 40, gone)) do want[#want + 1] = k .. "=" .. k end
      assert.are.equal(table.concat(want, " "), states())
    end
    -- A key that left comes back as a new scope: its initial state, not the one it had.
    host:update({7, 5})
    assert.are.equal("7=70 5=5", states())
    host:update({7, 5})
    assert.are.equal("7=70 5=5", states())
  end)

  it("stay apart from a sibling claiming a kept row's identity in the same build", function()
    local warnings = {}
    ck.config.onWarning = function(m) warnings[#warnings + 1] = m end
    local host, states = list("KeptTwinRow")
    host:update({1, 2, 3})
    host:find("KeptTwinRow#1"):updateState(5, "sync")
    host:update({1, 2, 3, 1})                        -- the second 1 collides with the kept one
    ck.config.onWarning = nil
    assert.are.equal("1=5 2=20 3=30 1=10", states())
    assert.is_not_nil((warnings[1] or ""):match("^%[scopeCollision%]"))
    host:update({1, 2, 3})
    assert.are.equal("1=5 2=20 3=30", states())
    host:update({3, 1})
    assert.are.equal("3=30 1=5", states())
  end)

  it("are all kept when nothing changed, and a new row among them is claimed too", function()
    local host, states = list("KeptNewRow")
    host:update({1, 2, 3})
    host:find("KeptNewRow#2"):updateState(7, "sync")
    host:update({1, 2, 3})
    assert.are.equal("1=10 2=7 3=30", states())
    host:update({1, 4, 2, 3})
    assert.are.equal("1=10 4=40 2=7 3=30", states())
    host:update({4, 3})
    assert.are.equal("4=40 3=30", states())
  end)

  it("keep their state when, in one build, rows change props, leave, arrive and move", function()
    local Row = ck.component("KeptMixedRow", {scope = true, pure = true, initialState = function(p) return p.key * 10 end,
      view = function(self, p) return {class = "UILabel", attributes = {text = p.label}} end})
    local host = ck.host(function(rows)
      local c = {}
      for i, r in ipairs(rows) do c[i] = Row{key = r[1], label = r[2]} end
      return ck.Stack{children = c}
    end, {model = {}})
    host:mount()
    local function shown()
      local out = {}
      for i, row in ipairs(host:findAll("KeptMixedRow")) do out[i] = row.key .. "=" .. tostring(row.state) .. ":" .. row.props.label end
      local views = {}
      for i, v in ipairs(host.view.subviews) do views[i] = v.attributes.text end
      return table.concat(out, " ") .. " | " .. table.concat(views, " ")
    end
    host:update({{1, "a"}, {2, "b"}, {3, "c"}, {4, "d"}, {5, "e"}})
    for _, row in ipairs(host:findAll("KeptMixedRow")) do row:updateState(row.key, "sync") end
    -- 2 changes its label, 3 leaves, 6 arrives, 5 moves to the front; 1 and 4 are kept.
    host:update({{5, "e"}, {1, "a"}, {2, "B"}, {6, "f"}, {4, "d"}})
    assert.are.equal("5=5:e 1=1:a 2=2:B 6=60:f 4=4:d | e a B f d", shown())
    -- Everything kept but one row that leaves; then all kept and nothing leaves.
    host:update({{5, "e"}, {1, "a"}, {2, "B"}, {4, "d"}})
    assert.are.equal("5=5:e 1=1:a 2=2:B 4=4:d | e a B d", shown())
    host:update({{4, "d"}, {2, "B"}, {1, "a"}, {5, "e"}})
    assert.are.equal("4=4:d 2=2:B 1=1:a 5=5:e | d B a e", shown())
    -- A row that left comes back new; the rows kept through all of it still have their state.
    host:update({{3, "c"}, {4, "d"}, {2, "B"}, {1, "a"}, {5, "e"}})
    assert.are.equal("3=30:c 4=4:d 2=2:B 1=1:a 5=5:e | c d B a e", shown())
  end)

  it("stay apart from a kept row's twin claimed before it, in any order of the two", function()
    ck.config.onWarning = function() end
    local host, states = list("KeptTwinFirstRow")
    host:update({1, 2})
    host:find("KeptTwinFirstRow#1"):updateState(5, "sync")
    host:update({2, 1, 1})
    host:update({1, 1, 2})
    ck.config.onWarning = nil
    assert.are.equal("1=5 1=10 2=20", states())
    host:update({2, 1})
    assert.are.equal("2=20 1=5", states())
  end)
end)
