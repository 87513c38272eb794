-- Messages name the code that made a component and the place it stands in (attack atk-mem 05, 14).
local function err(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok)
  return tostring(e)
end

describe("[unhandledAction] from a component sender", function()
  it("names the render that made it, not the one that placed it", function()
    local Card = ck.component("MakerCard", {scope = function(p) return p.id end,
      render = function(_, p) return ck.Stack{children = {p.header, ck.Text{text = "body"}}} end})
    local renderLine = debug.getinfo(1, "l").currentline + 1
    local List = ck.component("MakerList", {render = function()
      local ch = {}
      for i = 1, 3 do ch[i] = Card{id = i, header = ck.Button{title = "h" .. i, action = ck.action("headerTap")}} end
      return ck.Stack{children = ch}
    end})
    local host = ck.host(List, {model = {}})
    host:mount()
    local e = err(host.tap, host, "MakerCard#2 Button")
    assert.matches("^%[unhandledAction%] [^:]*message_places_spec%.lua:" .. renderLine .. ": nothing handles \"headerTap\" from MakerList/Stack/MakerCard#2/Stack/Button %(made in the render of MakerList%)", e)
  end)

  it("names the host's provider at its line, and top-level code", function()
    local Wrap = ck.component("MakerWrap", {render = function(_, p) return ck.Stack{children = {p.a, p.b}} end})
    local early = ck.Button{title = "early", action = ck.action("earlyTap")}
    local providerLine = debug.getinfo(1, "l").currentline + 1
    local host = ck.host(function()
      return Wrap{a = ck.Button{title = "late", action = ck.action("lateTap")}, b = early}
    end)
    host:mount()
    local late = err(host.tap, host, "Button")
    assert.matches("^%[unhandledAction%] [^:]*message_places_spec%.lua:" .. providerLine .. ": nothing handles \"lateTap\" from MakerWrap/Stack/Button %(made in the host's provider%)", late)
    local top = err(host.tap, host, "Button[2]")
    assert.matches("nothing handles \"earlyTap\" from MakerWrap/Stack/Button%[2%] %(made in the script's code outside any build%)", top)
  end)

  -- atk-stale 05: not the line of the tap, which says nothing about where the sender came from.
  it("names the line that built a sender outside any build: top level, pcall, coroutine, timer", function()
    local Wrap = ck.component("SiteWrap", {render = function(_, p) return ck.Stack{children = p.list} end})
    local topLine = debug.getinfo(1, "l").currentline + 1
    local top = ck.Button{title = "top", action = ck.action("fromTop")}
    local pcallLine = debug.getinfo(1, "l").currentline + 1
    local _, caught = pcall(ck.Button, {title = "p", action = ck.action("fromPcall")})
    local coLine = debug.getinfo(1, "l").currentline + 1
    local fromCo = coroutine.wrap(function() return ck.Button{title = "c", action = ck.action("fromCo")} end)()
    local host = ck.host(function(m) return Wrap{list = m} end, {model = {top, caught, fromCo}})
    host:mount()
    local function check(query, selector, line)
      assert.matches("^%[unhandledAction%] [^:]*message_places_spec%.lua:" .. line .. ": nothing handles \"" .. selector
        .. "\" from SiteWrap/Stack/" .. query:gsub("%[", "%%["):gsub("%]", "%%]") .. " %(made in the script's code outside any build%)", err(host.tap, host, query))
    end
    check("Button", "fromTop", topLine)
    check("Button[2]", "fromPcall", pcallLine)
    check("Button[3]", "fromCo", coLine)
    local timerLine = debug.getinfo(1, "l").currentline + 1
    ck.after(1, function() host:update({ck.Button{title = "t", action = ck.action("fromTimer")}}) end)
    ck.advance(2)
    check("Button", "fromTimer", timerLine)
  end)

  it("names the initialState or update function that built a sender, whose it is, at its line", function()
    local initLine = debug.getinfo(1, "l").currentline + 2
    local C = ck.component("SiteInit", {scope = true,
      initialState = function() return {btn = ck.Button{title = "i", action = ck.action("fromInit")}} end,
      render = function(_, _, s) return ck.Stack{children = {s.btn}} end})
    local host = ck.host(function() return C{} end)
    host:mount()
    assert.matches("^%[unhandledAction%] [^:]*message_places_spec%.lua:" .. initLine .. ": nothing handles \"fromInit\" from SiteInit/Stack/Button %(made in the initialState of SiteInit%)", err(host.tap, host, "Button"))
    local updateLine = debug.getinfo(1, "l").currentline + 1
    host.root:updateState(function() return {btn = ck.Button{title = "u", action = ck.action("fromUpdate")}} end, "sync")
    assert.matches("^%[unhandledAction%] [^:]*message_places_spec%.lua:" .. updateLine .. ": nothing handles \"fromUpdate\" from SiteInit/Stack/Button %(made in an update function queued for SiteInit%)", err(host.tap, host, "Button"))
  end)
end)

describe("[notMounted] from a replaced sender of a mounted host", function()
  it("names its place and says it was replaced, not to mount the host", function()
    local Row = ck.component("ReplacedSenderRow", {scope = function(p) return p.id end, initialState = {},
      render = function() return ck.Button{title = "r", action = ck.action("nobody")} end})
    local List = ck.component("ReplacedSenderList", {scope = true, initialState = {gen = 0},
      render = function(_, _, s) return ck.Stack{children = {Row{id = 1, g = s.gen}}} end,
      bump = function(self) self:updateState(function(o) return {gen = o.gen + 1} end) end})
    local host = ck.host(List)
    host:mount()
    local b = host:find("Button")
    host.root:bump()
    host:flush()
    local e = err(function() return ck.action("nobody"):send(b) end)
    assert.matches("^%[notMounted%] [^:]*message_places_spec%.lua:%d+: \"nobody\" was sent from ReplacedSenderList/Stack/ReplacedSenderRow#1/Button, which is not mounted", e)
    assert.matches("its host is mounted, but this instance is from generation 1 and a later build replaced it %(the host is at generation 2%): send from the current one", e)
    assert.is_nil(e:find("mount the host first", 1, true))
  end)
end)

-- The advice [notMounted] gives fits why the sender is not mounted (attack atk-stale 01, 03, 13).
describe("[notMounted] says why the sender is not mounted", function()
  local Row = ck.component("WhyRow", {scope = function(p) return p.id end,
    render = function(_, p) return ck.Button{title = "b", action = ck.action("pick")} end})
  local List = ck.component("WhyList", {scope = true, initialState = 1,
    render = function(_, _, s) return ck.Stack{children = {Row{id = 1, n = s}, Row{id = 2, n = s}}} end})

  it("a replaced instance: no [N] on a name it does not share, and send from the current one", function()
    local host = ck.host(List)
    host:mount()
    local old = host:find("WhyRow#2 Button")
    host.root:updateState(2, "sync")
    local e = err(host.tap, host, old)
    assert.matches("host:tap was given WhyList/Stack/WhyRow#2/Button, which is not mounted", e)
    local s = err(function() ck.action("pick"):send(old) end)
    assert.matches("sent from WhyList/Stack/WhyRow#2/Button, which is not mounted.*a later build replaced it", s)
  end)

  it("one built and never placed, one built outside any build, one of a destroyed host", function()
    local orphan
    local host = ck.host(ck.component("WhyOrphanRoot", {render = function()
      orphan = ck.Button{title = "o", action = ck.action("x")}
      return ck.Text{text = "t"}
    end}))
    host:mount()
    assert.matches("built and never placed in the tree %(no render returned it%)", err(function() ck.action("x"):send(orphan) end))
    local loose = ck.Button{title = "l", action = ck.action("x")}
    assert.matches("built outside any host's build and belongs to no host", err(function() ck.action("x"):send(loose) end))
    local h2 = ck.host(List)
    h2:mount()
    local b = h2:find("Button")
    h2:destroy()
    assert.matches("its host was destroyed: make a new host", err(function() ck.action("pick"):send(b) end))
  end)
end)
