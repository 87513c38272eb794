--- SPEC §5: when keyed siblings are reordered their views move with them, so a superview's
--- subviews are always in the order of the components that own them (issue 28), and only the
--- views outside the longest run already in order move (`ck.stats().viewMoves`).

-- Each mounted view's subviews against the views of the components under it, in tree order
-- (`findAll` is depth-first, parents first), as paths: a failure reads "components: … views: …".
local function assert_views_in_order(host)
  local expected, views = {[host.view] = {}}, {host.view}
  for _, c in ipairs(host:findAll("*")) do
    local v = c.view
    if v and ck.componentOf(v) == c then
      expected[v] = expected[v] or {}
      views[#views + 1] = v
      local under = expected[v.superview]
      assert.is_not_nil(under, "the superview of " .. c.path .. "'s view is not a mounted view")
      under[#under + 1] = v
    end
  end
  for _, v in ipairs(views) do
    local want, got = {}, {}
    for i, w in ipairs(expected[v]) do want[i] = ck.componentOf(w).path end
    for i, w in ipairs(v.subviews) do got[i] = ck.componentOf(w) and ck.componentOf(w).path or "(unmounted)" end
    assert.are.same(want, got)
    for i, w in ipairs(expected[v]) do assert.are.equal(w, v.subviews[i]) end
  end
end

-- The fewest moves that turn `before` into `after` (lists of views): the kept views outside a
-- longest increasing subsequence of their old positions (quadratic: an oracle, not the code's way).
local function fewest_moves(before, after)
  local old = {}
  for i, v in ipairs(before) do old[v] = i end
  local xs = {}
  for _, v in ipairs(after) do if old[v] then xs[#xs + 1] = old[v] end end
  local best, longest = {}, 0
  for i = 1, #xs do
    best[i] = 1
    for j = 1, i - 1 do
      if xs[j] < xs[i] and best[j] + 1 > best[i] then best[i] = best[j] + 1 end
    end
    if best[i] > longest then longest = best[i] end
  end
  return #xs - longest
end

-- Views moved while `fn` runs (nil without the counter: the order is checked first).
local function moves_during(fn)
  local before = ck.stats().viewMoves
  fn()
  return before and ck.stats().viewMoves - before
end

-- Updates the host's model, checks every superview's order, then returns the views moved.
local function update_checked(host, model)
  local moved = moves_during(function() host:update(model) end)
  assert_views_in_order(host)
  return moved
end

local function keys(host, query)
  local out = {}
  for i, c in ipairs(host:findAll(query)) do out[i] = c.key end
  return out
end

local function range(n)
  local t = {}
  for i = 1, n do t[i] = i end
  return t
end

-- A table view of keyed rows, each a label; the model is the list of keys in order.
local Row = ck.component("KRow", {scope = true, view = function(self, p)
  return {class = "UILabel", attributes = {text = tostring(p.key)}}
end})
local function rows_app(order)
  return ck.host(function(m)
    local rows = {}
    for i, k in ipairs(m) do rows[i] = Row{key = k} end
    return ck.View{class = "UITableView", child = ck.Stack{children = rows}}
  end, {model = order})
end

local function views_by_key(host, query)
  local out = {}
  for _, c in ipairs(host:findAll(query)) do out[c.key] = c.view end
  return out
end

describe("keyed reorders", function()
  it("move the views of swapped rows with their components", function()
    local host = rows_app({1, 2, 3, 4})
    host:mount()
    local before = views_by_key(host, "KRow")
    local moved = moves_during(function() host:update({4, 2, 3, 1}) end)
    assert.are.same({4, 2, 3, 1}, keys(host, "KRow"))
    assert_views_in_order(host)
    local table_view = host:find("View").view
    for i, k in ipairs({4, 2, 3, 1}) do
      assert.are.equal(before[k], table_view.subviews[i])   -- the same view, moved
    end
    assert.are.equal(2, moved)
  end)

  it("move a swap of rows 2 and 999 of 1,000 in 2 moves", function()
    local order = range(1000)
    local host = rows_app(order)
    host:mount()
    order[2], order[999] = order[999], order[2]
    assert.are.equal(2, update_checked(host, order))
    -- and back again
    order[2], order[999] = order[999], order[2]
    assert.are.equal(2, update_checked(host, order))
  end)

  it("move n - 1 views to reverse n rows", function()
    local host = rows_app(range(10))
    host:mount()
    local reversed = {}
    for i = 1, 10 do reversed[i] = 11 - i end
    assert.are.equal(9, update_checked(host, reversed))
  end)

  it("move one view to rotate the rows by one either way", function()
    local host = rows_app({1, 2, 3, 4, 5})
    host:mount()
    assert.are.equal(1, update_checked(host, {5, 1, 2, 3, 4}))
    assert.are.equal(1, update_checked(host, {1, 2, 3, 4, 5}))
    assert.are.equal(1, update_checked(host, {2, 3, 4, 5, 1}))
  end)

  it("insert a row in the middle without moving the others", function()
    local host = rows_app({1, 2, 3, 4})
    host:mount()
    local before = views_by_key(host, "KRow")
    assert.are.equal(0, update_checked(host, {1, 2, 9, 3, 4}))
    local subviews = host:find("View").view.subviews
    assert.are.equal(5, #subviews)
    assert.are.equal(before[3], subviews[4])
    assert.are.equal("9", subviews[3].attributes.text)
  end)

  it("remove rows and reorder the rest in one build", function()
    local host = rows_app({1, 2, 3, 4, 5, 6})
    host:mount()
    local before = host:find("View").view.subviews
    local moved = moves_during(function() host:update({6, 2, 4, 1}) end)
    local after = host:find("View").view.subviews
    assert.are.equal(4, #after)
    assert_views_in_order(host)
    assert.are.equal(fewest_moves(before, after), moved)
    assert.are.equal(2, moved)
  end)

  it("move the views when the list's own state reorders its rows (a state update)", function()
    local List = ck.component("KList", {scope = true, initialState = {1, 2, 3, 4},
      render = function(self, p, order)
        local rows = {}
        for i, k in ipairs(order) do rows[i] = Row{key = k} end
        return ck.View{class = "UITableView", child = ck.Stack{children = rows}}
      end})
    local host = ck.host(function() return List{} end)
    host:mount()
    local moved = moves_during(function() host.root:updateState({3, 4, 1, 2}, "sync") end)
    assert.are.same({3, 4, 1, 2}, keys(host, "KRow"))
    assert_views_in_order(host)
    assert.are.equal(2, moved)
  end)

  it("move pure rows kept from the previous generation", function()
    local Pure = ck.component("KPure", {scope = true, pure = true, view = {class = "UILabel"}})
    local host = ck.host(function(m)
      local rows = {}
      for i, k in ipairs(m) do rows[i] = Pure{key = k} end
      return ck.View{class = "UITableView", child = ck.Stack{children = rows}}
    end, {model = {1, 2, 3, 4, 5}})
    host:mount()
    local first = host:find("KPure#1")
    local moved = moves_during(function() host:update({5, 4, 3, 2, 1}) end)
    assert.are.equal(first, host:find("KPure#1"))   -- kept, not rebuilt
    assert_views_in_order(host)
    assert.are.equal(4, moved)
  end)

  it("move the views below rows that have no view of their own", function()
    -- Each row is a composite without a view whose two labels go into the table's view.
    local Pair = ck.component("KPair", {scope = true, render = function(self, p)
      return ck.Stack{children = {ck.Text{text = p.key .. "a"}, ck.Text{text = p.key .. "b"}}}
    end})
    local host = ck.host(function(m)
      local rows = {}
      for i, k in ipairs(m) do rows[i] = Pair{key = k} end
      return ck.View{class = "UITableView", child = ck.Stack{children = rows}}
    end, {model = {"1", "2", "3"}})
    host:mount()
    local before = host:find("View").view.subviews
    local moved = moves_during(function() host:update({"3", "2", "1"}) end)
    assert_views_in_order(host)
    local texts = {}
    for i, v in ipairs(host:find("View").view.subviews) do texts[i] = v.attributes.text end
    assert.are.same({"3a", "3b", "2a", "2b", "1a", "1b"}, texts)
    assert.are.equal(fewest_moves(before, host:find("View").view.subviews), moved)
    assert.are.equal(4, moved)
  end)

  it("move views nested below several composites without views, and rows with subviews", function()
    local Wrap = ck.component("KWrap", {render = function(self, p) return p.child end})
    local Cell = ck.component("KCell", {scope = true, render = function(self, p)
      -- a row whose own view holds two labels of its own
      local inner = ck.View{class = "UIView", child = ck.Stack{children = {
        ck.Text{text = p.key .. "-1"}, ck.Text{text = p.key .. "-2"}}}}
      return Wrap{child = Wrap{child = inner}}
    end})
    local Group = ck.component("KGroup", {render = function(self, p)
      local rows = {}
      for i, k in ipairs(p.order) do rows[i] = Cell{key = k} end
      return ck.Stack{children = rows}
    end})
    local host = ck.host(function(m)
      return ck.View{class = "UITableView", child = Wrap{child = Group{order = m}}}
    end, {model = {"a", "b", "c", "d"}})
    host:mount()
    for _, order in ipairs({{"d", "c", "b", "a"}, {"b", "d", "a", "c"}, {"c", "a", "e", "b"}}) do
      host:update(order)
      assert.are.same(order, keys(host, "KCell"))
      assert_views_in_order(host)
    end
    assert.is_nil(host:find("KCell#a").view)   -- no view of its own: its views are below it
  end)

  it("keep every superview in component order through seeded random permutations", function()
    math.randomseed(28)
    local next_key = 100
    for _, n in ipairs({2, 7, 40}) do
      local order = range(n)
      local host = rows_app(order)
      host:mount()
      for _ = 1, 60 do
        -- a random permutation, then sometimes a removal and an insertion
        for i = #order, 2, -1 do
          local j = math.random(i)
          order[i], order[j] = order[j], order[i]
        end
        if #order > 1 and math.random() < 0.3 then table.remove(order, math.random(#order)) end
        if math.random() < 0.3 then
          next_key = next_key + 1
          table.insert(order, math.random(#order + 1), next_key)
        end
        local before = host:find("View").view.subviews
        local moved = moves_during(function() host:update(order) end)
        assert.are.same(order, keys(host, "KRow"))
        assert_views_in_order(host)
        assert.are.equal(fewest_moves(before, host:find("View").view.subviews), moved)
      end
      host:destroy()
    end
  end)

  it("move no view when only a row's content changes, and none on a first mount", function()
    local Counter = ck.component("KCounter", {scope = true, initialState = 0, view = function(self, p, s)
      return {class = "UILabel", attributes = {text = p.key .. ":" .. s}}
    end})
    local host
    local moved = moves_during(function()
      host = ck.host(function(m)
        local rows = {}
        for i, k in ipairs(m) do rows[i] = Counter{key = k} end
        return ck.View{class = "UITableView", child = ck.Stack{children = rows}}
      end, {model = {"x", "y", "z"}})
      host:mount()
    end)
    assert.are.equal(0, moved)
    moved = moves_during(function() host:find("KCounter#y"):updateState(1, "sync") end)
    assert.are.equal(0, moved)
    assert_views_in_order(host)
    assert.are.equal("y:1", host:find("View").view.subviews[2].attributes.text)
  end)
end)

-- Break 14: two unscoped siblings (built-ins too) with one key were silent; scoped ones get
-- [scopeCollision]. React warns for any keyed children with the same key.
describe("duplicate keys among siblings without a scope", function()
  it("are warned about as [duplicateKey], at the render that gave them, naming both", function()
    local warnings = {}
    ck.config.onWarning = function(m) warnings[#warnings + 1] = m end
    local Item = ck.component("DupItem", {render = function(self, p) return ck.Text{text = p.label} end})
    local List = ck.component("DupList", {render = function()
      return ck.Stack{children = {Item{key = "a", label = "1"}, Item{key = "a", label = "2"},
                                  ck.Text{key = 7, text = "x"}, ck.Text{key = 7, text = "y"}, ck.Text{key = 8, text = "z"}}}
    end})
    local host = ck.host(function() return List{} end)
    ck.config.onWarning = nil
    assert.are.same({
      "[duplicateKey] Tests/lua/keyed_reorder_spec.lua:287: two siblings have the same class and key: DupItem#a, entries 1 and 2 of the children list of DupList/Stack (made in the render of DupList); their views are told apart by order, which breaks when they move. Give each a distinct key",
      "[duplicateKey] Tests/lua/keyed_reorder_spec.lua:287: two siblings have the same class and key: Text#7, entries 3 and 4 of the children list of DupList/Stack (made in the render of DupList); their views are told apart by order, which breaks when they move. Give each a distinct key",
    }, warnings)
    host:destroy()
  end)

  -- Attack atk-mem 11: a provider's Stack had no file:line, and "children 1 and 3" counted placed
  -- children where the script's list had the duplicates at entries 1 and 4 (a false between).
  it("are named by the entries of the script's list, at the provider's line", function()
    local warnings = {}
    ck.config.onWarning = function(m) warnings[#warnings + 1] = m end
    local line = debug.getinfo(1, "l").currentline + 1
    local host = ck.host(function()
      return ck.Stack{children = {ck.Text{key = "a", text = "1"}, false, ck.Text{key = "b", text = "x"}, ck.Text{key = "a", text = "2"}}}
    end)
    host:mount()
    ck.config.onWarning = nil
    assert.are.same({
      "[duplicateKey] Tests/lua/keyed_reorder_spec.lua:" .. line .. ": two siblings have the same class and key: Text#a, entries 1 and 4 of the children list of Stack (made in the host's provider); their views are told apart by order, which breaks when they move. Give each a distinct key",
    }, warnings)
    host:destroy()
  end)
end)
