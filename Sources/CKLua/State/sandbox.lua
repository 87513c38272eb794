-- --sandbox: removes what runs programs, loads native code or bytecode, writes files, reads the
-- environment or ends the process, and hands the debug library's safe part only. docs/sandbox.md
-- lists every choice. Its arguments: the refusal's format, "[sandbox] %s%s is not allowed under
-- --sandbox; %s" (where, what, what to do instead), readable(path) -> true | nil, why
-- (cksandbox.c: no /proc or /sys file, FIFO or device is read), and forwarding(f) -> a C
-- function calling f. Every wrapper a script can call is installed through forwarding: a tail
-- call (`return io.open(p, "w")`) to a Lua wrapper dropped the script's frame and its line.
--
-- It runs before any script. Everything the wrappers below call is a local captured here, never a
-- global or a string method looked up later: a script may replace `string.find`, `type` or the
-- string metatable's __index, and must not change what a wrapper checks.
local message, readable, forwarding = ...
local error, type, select, rawequal, tostring, pcall = error, type, select, rawequal, tostring, pcall
local format, find, sub, gsub, byte = string.format, string.find, string.sub, string.gsub, string.byte
local getinfo, traceback = debug.getinfo, debug.traceback
local load, loadfile = load, loadfile
local searchpath, open = package.searchpath, io.open
local package, io_output = package, io.output

-- "[sandbox] file:line: what ...": the id first, then where the script called it (level 4: the
-- script, above the wrapper that called this and the C function forwarding to it).
local function refuse(name, instead, level)
  local info = getinfo(level or 4, "Sl")
  local where = info and info.currentline > 0 and (info.short_src .. ":" .. info.currentline .. ": ") or ""
  error(format(message, where, name, instead), 0)
end
local function deny(name, instead) return forwarding(function() refuse(name, instead) end) end

-- The results of pcall(f, ...), `f` a standard C function the wrapper called for the script:
-- its error, which pcall left without a place (and, for an argument, named '?'), names the
-- script's line and `name`, as lua5.4 does (`level`: the script's from here; 3 when a wrapper
-- tail-calls this: above it the C function forwarding to the wrapper). A catalogued one stays.
local function passOn(level, name, ok, ...)
  if ok then return ... end
  local err = ...
  if type(err) == "string" and sub(err, 1, 1) ~= "[" then
    local info = getinfo(level, "Sl")
    local where = info and info.currentline > 0 and (info.short_src .. ":" .. info.currentline .. ": ") or ""
    err = where .. gsub(err, "^bad argument #(%d+) to '%?'", "bad argument #%1 to '" .. name .. "'", 1)
  end
  error(err, 0)
end

-- Reading: every reader of a named file asks readable first (level 5: the script, above the
-- wrapper that called this and the C function forwarding to it, or require and its searcher).
local function checkRead(what, path)
  local ok, why = readable(path)
  if not ok then
    local shown = gsub(sub(path, 1, 200), "[%c\"\\\128-\255]", function(c) return format("\\%d", byte(c)) end)
    refuse(format("%s of \"%s\" (%s)", what, shown, why), "read the script's own data files", 5)
  end
end

-- Programs, native code, file writes, the environment, the process.
os.execute = deny("os.execute", "run the program outside ckrun and pass its output in")
io.popen = deny("io.popen", "run the program outside ckrun and pass its output in")
os.remove = deny("os.remove", "leave files alone, or run without --sandbox")
os.rename = deny("os.rename", "leave files alone, or run without --sandbox")
os.tmpname = deny("os.tmpname", "keep data in memory")
io.tmpfile = deny("io.tmpfile", "keep data in memory")
os.getenv = deny("os.getenv", "pass settings as script arguments (arg)")
os.exit = deny("os.exit", "return from the script or raise an error to end it")
package.loadlib = deny("package.loadlib", "use Lua modules (require finds .lua files)")
package.cpath = ""

-- Bytecode: Lua does not verify it, so a crafted binary chunk reads and writes memory. Every
-- loader loads text only; a binary chunk gets a catalogued error instead of Lua's own.
local binaryMessage = "a binary (precompiled) chunk"
-- Where: the script's line; when ckrun's own Lua loads for the script (a REPL line, the searcher
-- beside the script: a chunk named "=(…)"), the chunk's name (`stdin`, the module's file).
local function textOnly(f, err, chunkName)
  if f == nil and type(err) == "string" and find(err, "attempt to load a binary chunk", 1, true) then
    local info = getinfo(4, "Sl")
    local where = ""
    if info and sub(info.source, 1, 2) == "=(" then
      if type(chunkName) == "string" then where = gsub(chunkName, "^[=@]", "") .. ": " end
    elseif info and info.currentline and info.currentline > 0 then
      where = info.short_src .. ":" .. info.currentline .. ": "
    end
    return nil, format(message, where, "loading " .. binaryMessage, "load Lua source text"), true
  end
  return f, err, false
end
-- (Never a tail call to textOnly: it names the script's line from its caller's frame.)
-- A mode is honoured as lua5.4 reads it (a number is its text, another type is refused by the
-- loader itself): a text chunk under a mode without "t" is refused with lua5.4's message; a
-- binary chunk is never loaded, whatever the mode (textOnly's refusal).
local function refusesText(mode)
  if mode == nil or (type(mode) ~= "string" and type(mode) ~= "number") then return nil end
  mode = tostring(mode)
  if not find(mode, "t", 1, true) then return format("attempt to load a text chunk (mode is '%s')", mode) end
end
local function loadOnce(loader, called, subject, name, given, ...)
  if loader == loadfile then   -- level 5: loadOnce, loadText, the wrapper, forwarding, the script
    if select("#", ...) == 0 then return passOn(5, called, pcall(loadfile, subject, given)) end
    return passOn(5, called, pcall(loadfile, subject, given, (...)))
  end
  if select("#", ...) == 0 then return passOn(5, called, pcall(load, subject, name, given)) end
  return passOn(5, called, pcall(load, subject, name, given, (...)))
end
local function loadText(loader, called, subject, name, mode, ...)
  -- A mode of another type goes to the loader, whose "bad argument #3" lua5.4 gives.
  local given = (mode == nil or type(mode) == "string" or type(mode) == "number") and "t" or mode
  local f, err = loadOnce(loader, called, subject, name, given, ...)
  local refusal = f ~= nil and refusesText(mode)
  if refusal then return nil, refusal end
  return f, err
end
-- (Never a tail call to textOnly or loadText: they name the script's line from its caller's frame.)
_ENV.load = forwarding(function(chunk, name, mode, ...)
  local f, err = loadText(load, "load", chunk, name, mode, ...)
  f, err = textOnly(f, err, name)
  return f, err
end)
_ENV.loadfile = forwarding(function(filename, mode, ...)
  checkRead("loadfile", filename)
  local f, err = loadText(loadfile, "loadfile", filename, nil, mode, ...)
  f, err = textOnly(f, err, filename)
  return f, err
end)
_ENV.dofile = forwarding(function(filename)
  checkRead("dofile", filename)
  local f, err = loadText(loadfile, "dofile", filename)
  f, err = textOnly(f, err)
  if f == nil then error(err, 0) end
  return f()
end)
-- require: the preload searcher stays; the Lua searcher loads text only; the C searchers go.
local searchers = package.searchers
searchers[2] = function(name)
  local path = package.path
  if type(path) ~= "string" then error("'package.path' must be a string", 2) end
  local filename, err = searchpath(name, path)
  if filename == nil then return err end
  checkRead("require", filename)
  local f, loadErr, binary = textOnly(loadfile(filename, "t"))
  if binary then error(loadErr, 0) end
  if f == nil then
    error(format("error loading module '%s' from file '%s':\n\t%s", tostring(name), filename, tostring(loadErr)), 0)
  end
  return f, filename
end
searchers[3], searchers[4] = nil, nil

-- Files open for reading only: the mode is compared, never searched with a replaceable function.
io.open = forwarding(function(path, mode)
  if mode == nil then mode = "r" end
  if not (rawequal(mode, "r") or rawequal(mode, "rb")) then
    refuse("io.open in mode '" .. (type(mode) == "string" and sub(mode, 1, 16) or type(mode)) .. "'",
      "open files for reading (mode \"r\"), or print results to standard output")
  end
  checkRead("io.open", path)
  return passOn(3, "open", pcall(open, path, mode))
end)
local lines, input = io.lines, io.input
io.lines = forwarding(function(path, ...)
  checkRead("io.lines", path)
  return passOn(3, "lines", pcall(lines, path, ...))
end)
io.input = forwarding(function(...)
  if select("#", ...) > 0 then checkRead("io.input", (...)) end
  return passOn(3, "input", pcall(input, ...))
end)
-- io.output() (no argument) answers the current output, standard output; a file name would open one.
io.output = forwarding(function(...)
  if select("#", ...) > 0 then refuse("io.output with a file", "write to standard output (io.write, print)") end
  return io_output()
end)

-- debug: only traceback and getinfo. getupvalue gave the real io.open, setupvalue changed the
-- runtime's upvalues, sethook removed the time limit, getregistry exposed the runtime's
-- references, setmetatable changed every string's or number's metatable. getinfo's levels are
-- the caller's (this wrapper and its forwarding are not counted), and its `func` field is left out: it would hand
-- out the functions on the stack, the runtime's own among them.
local function withoutFunc(info)
  if type(info) == "table" then info.func = nil end
  return info
end
local function safeGetinfo(a, ...)
  if type(a) == "number" and a > 0 then return withoutFunc(passOn(4, "getinfo", pcall(getinfo, a + 3, ...))) end   -- pcall's level too
  return withoutFunc(passOn(4, "getinfo", pcall(getinfo, a, ...)))
end
local safeDebug = {traceback = traceback, getinfo = forwarding(safeGetinfo)}
debug = safeDebug
package.loaded.debug = safeDebug
