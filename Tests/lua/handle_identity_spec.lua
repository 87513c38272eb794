--- A runtime object is one Lua value wherever it comes from (SPEC §1), also after collections:
--- a handle the script obtained is kept while its object lives, so a weak-keyed table keyed by
--- it keeps its entry; once the object ended, its handle goes when the script lets go of it.

local function full_gc() collectgarbage(); collectgarbage() end

describe("a handle the script obtained", function()
  it("is the same value after a collection, as a weak-table key (controller, component, scope, host)", function()
    local meta = setmetatable({}, {__mode = "k"})
    local seen = {}
    ck.controller("HiRowController", {
      didMount = function(self) meta[self] = "mounted" end,
      didUpdateComponent = function(self) seen[#seen + 1] = meta[self] end,
    })
    local Row = ck.component("HiRow", {scope = true, initialState = 0, view = {class = "UIView"}})
    local h = ck.host(function() return Row{} end)
    h:mount()
    meta[h.root.scope], meta[h], meta[h.view], meta[h.root.view] = "scope", "host", "hosting view", "view"
    full_gc()
    h.root:updateState(1, "sync")               -- a new instance of the same scope, controller and view
    assert.are.same({"mounted"}, seen)
    meta[h.root] = "root"
    full_gc()
    assert.are.same({"root", "scope", "host", "hosting view", "view"},
                    {meta[h.root], meta[h.root.scope], meta[h], meta[h.view], meta[h.root.view]})
    h:destroy()
  end)

  it("of a mounted host stays its value when the script dropped it (view.host)", function()
    local weak = setmetatable({}, {__mode = "k"})
    local view
    do
      local h = ck.host(function() return nil end)
      h:mount()
      weak[h], view = "host", h.view
    end
    full_gc()
    assert.are.equal("host", weak[view.host])
    view.host:destroy()
  end)

  it("goes once its component left the tree and the script let go", function()
    local Row = ck.component("HiGone", {scope = true})
    local h = ck.host(function(m) return m and Row{} or nil end, {model = true})
    h:mount()
    local weak = setmetatable({}, {__mode = "k"})
    weak[h.root] = true
    h:update(false)
    full_gc()
    assert.is_nil(next(weak))
  end)

  it("goes with a destroyed host's tree", function()
    local Row = ck.component("HiDestroyed", {scope = true})
    local weak = setmetatable({}, {__mode = "k"})
    local h = ck.host(function() return Row{} end)
    h:mount()
    weak[h.root], weak[h.root.scope] = true, true
    h:destroy()
    full_gc()
    assert.is_nil(next(weak))
  end)

  it("does not keep a host the script dropped", function()
    local Row = ck.component("HiDropped", {scope = true})
    full_gc()
    local handles = ck.stats().handles
    do
      local h = ck.host(function() return Row{} end)
      local _ = h.root.scope
    end
    local n = 0
    repeat full_gc(); n = n + 1 until ck.stats().handles <= handles or n == 10
    assert.is_true(ck.stats().handles <= handles, "handles left: " .. ck.stats().handles - handles)
  end)

  it("stays the same value when hundreds are kept and most let go (the table of kept handles grows and shrinks)", function()
    local Row = ck.component("HiMany", {scope = true, pure = true, view = {class = "UIView"}})
    local h = ck.host(function(n)
      local rows = {}
      for i = 1, n do rows[i] = Row{key = i} end
      return ck.Stack{children = rows}
    end, {model = 300})
    h:mount()
    full_gc()
    local base = ck.stats().handles
    local weak = setmetatable({}, {__mode = "k"})
    for i, c in ipairs(h:findAll("HiMany")) do weak[c], weak[c.scope], weak[c.view] = i, -i, i + 1000 end
    full_gc()
    h:update(7)                                 -- 293 rows leave: their handles are let go
    full_gc()
    local rows = h:findAll("HiMany")
    assert.are.equal(7, #rows)
    for i, c in ipairs(rows) do
      assert.are.same({i, -i, i + 1000}, {weak[c], weak[c.scope], weak[c.view]})
    end
    local left = 0
    for _ in pairs(weak) do left = left + 1 end
    assert.are.equal(21, left)
    rows = nil
    h:destroy()
    full_gc()
    assert.is_nil(next(weak))
    assert.is_true(ck.stats().handles <= base, "handles left: " .. ck.stats().handles - base)
  end)

  it("keeps no more than the live objects over builds that touch every instance", function()
    ck.controller("HiChurnController", {didMount = function(self) local _ = self.component end})
    local Row = ck.component("HiChurn", {scope = true, initialState = 0, view = {class = "UIView"}})
    local h = ck.host(function(g)
      local rows = {}
      for i = 1, 5 do rows[i] = Row{key = g * 10 + i} end
      return ck.Stack{children = rows}
    end, {model = 0})
    h:mount()
    local base
    for g = 1, 300 do
      h:update(g)
      for _, c in ipairs(h:findAll("HiChurn")) do local _ = c.scope, c.view; c:updateState(1, "sync") end
      if g == 20 then full_gc(); base = ck.stats().handles end
    end
    full_gc()
    assert.are.equal(base, ck.stats().handles)
    h:destroy()
  end)
end)
