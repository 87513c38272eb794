-- Issue 13, classes 3 and 6: structures of any depth build, dump, query, unmount and free
-- without recursion in Swift, and Swift work a script sizes stays linear and bounded.
local N = 100000
-- The chain is built by Lua renders, which a loaded debug build runs slowly: 60,000 keeps each
-- test well inside the runner's 10 s. CoreLimitsTests (Swift) runs the 100,000-deep chain.
local DEPTH = 60000

local function chain(name, depth, withView)
  local Node
  Node = ck.component(name, {scope = true, initialState = 0, view = withView and {class = "UIView"} or nil,
    render = function(self) if self.props.d > 0 then return Node{d = self.props.d - 1} end end})
  return ck.host(function() return Node{d = depth} end)
end

describe("a 60,000-deep component chain", function()
  randomize(false) -- one chain, built, mounted, dumped and dropped in turn
  -- One chain through four tests, each within the runner's time limit even in a debug build.
  -- (CoreLimitsTests also destroys one; here it is dropped, which frees through Host's deinit.)
  -- Built in setup: a host a test makes is destroyed after that test (SPEC §9).
  local host
  setup(function() host = chain("DeepNode", DEPTH, true) end)
  it("builds", function()
    assert.are.equal(1, host.generation)
  end)

  it("mounts", function()
    host:mount()
    assert.is_true(host.isMounted)
  end)

  it("dumps in linear size", function()
    local dump = host:dump()
    local lines = select(2, dump:gsub("\n", ""))
    assert.are.equal(DEPTH + 1, lines)
    -- Linear: indentation stops at 64 levels, deeper lines name their depth.
    assert.is_true(#dump < (DEPTH + 1) * 200, "dump is " .. #dump .. " bytes")
    assert.truthy(dump:find("\n" .. ("  "):rep(64) .. "(depth 60000) DeepNode <UIView> state=0\n", 1, true))
  end)

  it("unmounts and is freed when dropped without destroy", function()
    host:unmount()
    host = nil
    collectgarbage()
    collectgarbage()
  end)

  it("answers descendant queries in one pass (no backtracking)", function()
    local host = chain("QueryNode", 10000, false)
    -- Backtracking tried every way to place 12 parts on 10,000 ancestors: it never ended.
    assert.is_nil(host:find(("QueryNode "):rep(12) .. "Missing"))
    assert.are.equal(10001 - 11, #host:findAll(("QueryNode "):rep(11) .. "QueryNode"))
    assert.are.equal(10000, #host:findAll("QueryNode > QueryNode"))
    assert.are.equal(host.root, host:find("QueryNode"))
    host:destroy()
  end)
end)

describe("100,000 nested struct types", function()
  ck.struct("Nest0", {x = "int"})
  for i = 1, N do ck.struct("Nest" .. i, {inner = "Nest" .. (i - 1)}) end
  local got
  local C = ck.component("NestHolder", {scope = true, go = function(self, sender, s) got = s end})
  local host = ck.host(function() return C{} end)
  local action = host.root:action("go", {"Nest" .. N})

  local function depth(t)
    local d = 0
    while type(t) == "table" and t.inner do d, t = d + 1, t.inner end
    return d, t and t.x
  end

  it("make a zero value of full depth", function()
    action:demoted({}):send(host.root)
    assert.are.same({N, 0}, {depth(got)})
  end)

  it("check and convert a table of full depth", function()
    local arg = {x = 5}
    for _ = 1, N do arg = {inner = arg} end
    action:send(host.root, arg)
    assert.are.same({N, 5}, {depth(got)})
    assert.are_not.equal(arg, got)
  end)

  it("are freed when redefined", function()
    for i = 1, N do ck.struct("Nest" .. i, {inner = "int"}) end
    collectgarbage()
  end)
end)

describe("traces", function()
  it("keep at most 1,000 responders of a walk: the first ones and the last", function()
    local host = chain("TraceNode", 5000, true)
    host:mount()
    local leaf = host:findAll("TraceNode")[5001]
    ck.config.unhandledAction = "ignore"
    local entries = ck.trace(function() ck.actionSend("nobodyHandlesThis", leaf) end)
    ck.config.unhandledAction = "error"
    assert.are.equal(1, #entries)
    local line = tostring(entries[1])
    assert.truthy(line:find("… %d+ more"), line:sub(1, 200))
    assert.is_true(#line < 40000)
    host:destroy()
  end)

  -- Issue 28: the [unhandledAction] message listed the whole chain (500 KB at depth 100,000).
  it("and an unhandled action's message keeps the same: the first ones, how many more, the last", function()
    local host = chain("UnhandledNode", 5000, true)
    host:mount()
    local leaf = host:findAll("UnhandledNode")[5001]
    local ok, message = pcall(ck.actionSend, "nobodyHandlesThis", leaf)
    assert.is_false(ok)
    local walked = assert(message:match("chain walked: (.-)%. Define"), message:sub(1, 200))
    local names = {}
    for name in (walked .. " -> "):gmatch("(.-) %-> ") do names[#names + 1] = name end
    assert.are.equal(1002, #names)   -- 999 responders, "… N more", the last one, nil
    assert.are.equal("nil", names[#names])
    assert.are.equal("… 4001 more", names[1000])   -- 5,001 responders walked
    assert.is_true(#message < 40000)
    host:destroy()
  end)
end)
