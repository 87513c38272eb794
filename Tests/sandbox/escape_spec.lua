-- The --sandbox escape list (docs/sandbox.md): one `it` per line of the list. Run only with
-- `ckrun test --sandbox Tests/sandbox` (scripts/test and SandboxTests do); it checks that first.
local here = debug.getinfo(1, "S").short_src:match("^(.*/)") or "./"
local fixtures = here .. "fixtures/"

-- Outside the sandbox this file would write and remove its fixtures: it checks and stops.
if debug.sethook ~= nil then
  describe("--sandbox escape list", function()
    it("must run under ckrun test --sandbox", function() error("run with: ckrun test --sandbox Tests/sandbox") end)
  end)
  return
end

local function refused(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok)
  assert.matches("^%[sandbox%] ", tostring(err))
  assert.matches("is not allowed under %-%-sandbox; %a", tostring(err))
  return err
end

-- A load refusal comes back as nil, message (load's own contract), the message catalogued.
local function loadRefused(f, err)
  assert.is_nil(f)
  assert.matches("^%[sandbox%] .*binary %(precompiled%) chunk is not allowed under %-%-sandbox; load Lua source text", err)
end

describe("--sandbox blocks", function()
  it("runs under --sandbox (this file means nothing otherwise)", function()
    assert.is_false(pcall(os.execute, "true"))
  end)

  it("programs: os.execute and io.popen", function()
    refused(os.execute, "true")
    refused(io.popen, "echo x")
  end)

  it("native code: package.loadlib and the C searchers", function()
    refused(package.loadlib, "libc.so.6", "printf")
    assert.are.equal("", package.cpath)
    -- Only Lua searchers stay after the preload and text-only Lua ones (the searcher beside
    -- the script is appended after them): the C and all-in-one searchers are gone.
    for i = 3, #package.searchers do
      assert.are_not.equal("C", debug.getinfo(package.searchers[i], "S").what)
    end
    assert.is_false(pcall(require, "socket.core"))
  end)

  it("bytecode from load (string and reader function)", function()
    local code = string.dump(function() return "ran" end)
    loadRefused(load(code))
    loadRefused(load(code, "x", "b"))
    local given = false
    loadRefused(load(function() if given then return nil end given = true return code end))
  end)

  it("bytecode from loadfile and dofile", function()
    loadRefused(loadfile(fixtures .. "chunk.luac"))
    loadRefused(loadfile(fixtures .. "chunk.luac", "b", {}))
    refused(dofile, fixtures .. "chunk.luac")
  end)

  it("bytecode from require's Lua searcher", function()
    local path = package.path
    package.path = fixtures .. "?.luac;" .. path
    local ok, err = pcall(require, "chunk")
    package.path = path
    assert.is_false(ok)
    assert.matches("^%[sandbox%] .*binary", err)
  end)

  it("file writes: io.open in any mode but r/rb, io.output with a file, os.remove, os.rename, temp files", function()
    for _, mode in ipairs({"w", "a", "r+", "w+", "a+", "rw", "wb", "r+b"}) do
      refused(io.open, fixtures .. "data.txt", mode)
    end
    refused(io.open, fixtures .. "data.txt", {})
    refused(io.output, fixtures .. "out.txt")
    refused(os.remove, fixtures .. "data.txt")
    refused(os.rename, fixtures .. "data.txt", fixtures .. "moved.txt")
    refused(os.tmpname)
    refused(io.tmpfile)
    assert.is_nil(io.open(fixtures .. "out.txt"))
  end)

  it("the environment: os.getenv", function()
    refused(os.getenv, "HOME")
  end)

  it("ending the process: os.exit (ckrun test guards it: a call fails the test; SandboxTests runs `ckrun --sandbox`)", function()
    -- The guard, not lua5.4's C function, whose call would end the run.
    assert.are.equal("Lua", debug.getinfo(os.exit, "S").what)
  end)

  it("the debug library but traceback and getinfo", function()
    for _, name in ipairs({"getupvalue", "setupvalue", "upvalueid", "upvaluejoin", "sethook", "gethook",
                           "getregistry", "getlocal", "setlocal", "getmetatable", "setmetatable",
                           "getuservalue", "setuservalue", "setcstacklimit", "debug"}) do
      assert.is_nil(debug[name], name)
    end
    assert.are.equal(debug, require("debug"))
    assert.are.equal(debug, package.loaded.debug)
  end)

  it("functions from getinfo: no func field, at any level", function()
    for level = 0, 20 do
      local info = debug.getinfo(level, "flnSu")
      if not info then break end
      assert.is_nil(info.func)
    end
    assert.is_nil(debug.getinfo(string.len, "f").func)
    assert.is_nil(debug.getinfo(coroutine.create(function() end), 0, "f"))
  end)

  it("replaced globals and string tricks: the wrappers use what they captured", function()
    local saved = {find = string.find, sub = string.sub, format = string.format, type = type, rawequal = rawequal}
    string.find = function() return 1 end
    string.sub = function() return "r" end
    string.format = function() return "" end
    rawequal = function() return true end
    type = function() return "string" end
    local mt = getmetatable("")
    local index = mt.__index
    mt.__index = function() return function() return 1 end end
    local ok, err = pcall(io.open, fixtures .. "w.txt", "w")
    local ok2 = pcall(io.open, fixtures .. "w.txt", setmetatable({}, {__eq = function() return true end}))
    mt.__index = index
    string.find, string.sub, string.format = saved.find, saved.sub, saved.format
    type, rawequal = saved.type, saved.rawequal
    assert.is_false(ok)
    assert.matches("^%[sandbox%]", err)
    assert.is_false(ok2)
    assert.is_nil(io.open(fixtures .. "w.txt"))
  end)
end)

describe("--sandbox refuses reads that reach the process, the kernel or a wait", function()
  it("/proc and /sys files, by every reader (os.getenv's secrets are in /proc/self/environ)", function()
    for _, path in ipairs({"/proc/self/environ", "/proc/self/mem", "/proc/self/maps", "/proc/1/cmdline", "/sys/kernel/mm/transparent_hugepage/enabled"}) do
      refused(io.open, path, "rb")
    end
    local err = refused(io.open, "/proc/self/environ", "rb")
    assert.matches('io.open of "/proc/self/environ" %(a file of the process or the kernel', err)
    refused(io.lines, "/proc/self/environ")
    refused(io.input, "/proc/self/environ")
    refused(loadfile, "/proc/self/environ")
    refused(dofile, "/proc/self/environ")
    local path = package.path
    package.path = "/proc/self/?;" .. path
    local ok, e = pcall(require, "environ")
    package.path = path
    assert.is_false(ok)
    assert.matches("^%[sandbox%] ", e)
  end)

  it("a symlink to them, or a device but null, zero, full, random, urandom", function()
    refused(io.open, fixtures .. "environ_link")
    refused(io.open, "/dev/ptmx")
    for _, path in ipairs({"/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"}) do
      assert.is_not_nil(io.open(path, "rb"), path)
    end
    assert.is_not_nil(io.open(fixtures, "r"))
  end)
end)

describe("--sandbox allows", function()
  it("reading files: io.open in r and rb, io.lines, io.input", function()
    assert.are.equal("readable\n", io.open(fixtures .. "data.txt"):read("a"))
    assert.are.equal("readable\n", io.open(fixtures .. "data.txt", "rb"):read("a"))
    for line in io.lines(fixtures .. "data.txt") do assert.are.equal("readable", line) end
    local f = io.open(fixtures .. "data.txt")
    assert.is_nil(f:write("x"))
    f:close()
  end)

  it("standard output and io.output() without a file", function()
    assert.are.equal(io.stdout, io.output())
    assert.is_function(io.write)
  end)

  it("text chunks: load, loadfile, dofile, require of .lua modules", function()
    assert.are.equal(3, load("return 1 + 2")())
    assert.are.equal(7, load("return x", "=env", "t", {x = 7})())
    assert.are.equal("text module", loadfile(fixtures .. "textmod.lua")())
    assert.are.equal("text module", dofile(fixtures .. "textmod.lua"))
    local path = package.path
    package.path = fixtures .. "?.lua;" .. path
    local m = require("textmod")
    package.path = path
    assert.are.equal("text module", m)
  end)

  it("debug.traceback and debug.getinfo with the caller's levels", function()
    assert.matches("stack traceback", debug.traceback("x"))
    local a, b = debug.getinfo(1, "l").currentline, debug.getinfo(1, "l").currentline
    assert.are.equal(a, b)
    assert.are.equal("Lua", debug.getinfo(1, "S").what)
    local function inner() return debug.getinfo(2, "l").currentline end
    local callLine = debug.getinfo(1, "l").currentline + 1
    assert.are.equal(callLine, inner())
    assert.are.equal("C", debug.getinfo(string.len, "S").what)
  end)

  -- Safety attack 05: the wrappers were Lua functions, so `return io.open(p, "w")` (a tail call)
  -- dropped the script's frame and the refusal named no line, or its caller's.
  it("refusals reached through a tail call to name the line that called them", function()
    local calls = {
      function() return io.open("out.txt", "w") end,
      function() return os.getenv("HOME") end,
      function() return os.execute("true") end,
      function() return io.output("out.txt") end,
      function() return io.lines("/proc/self/environ") end,
      function() return dofile("/proc/self/environ") end,
    }
    local first = debug.getinfo(1, "l").currentline - 8
    for i, call in ipairs(calls) do
      local err = refused(call)
      assert.truthy(tostring(err):find("^%[sandbox%] [^\n]*escape_spec%.lua:" .. (first + i) .. ": "), err)
    end
  end)

  it("collectgarbage, os.time, os.clock, os.date, string.dump", function()
    assert.is_number(collectgarbage("count"))
    collectgarbage()
    assert.is_number(os.time())
    assert.is_number(os.clock())
    assert.is_string(os.date("%Y"))
    assert.is_string(string.dump(function() end))
  end)

  it("the component runtime", function()
    local C = ck.component("SandboxC", {scope = true, initialState = 1, render = function() end})
    local host = ck.host(function() return C{} end)
    host:mount()
    assert.are.equal(1, host.root.state)
  end)
end)
