-- ckrun test: output capture and the os.exit guard. Runs first in each test file's fresh state;
-- its one argument is the message the guarded os.exit raises.
-- Captures what Lua prints, so test output lands in reports instead of on the terminal,
-- and guards os.exit, so a test cannot end the runner.
local pristine = select(7, ...)
-- Every free name reads the standard library as it was at start (the seventh argument): a spec
-- may set `_G.math = nil` or `string.format = nil` before the runner's code below runs
-- (check-layout refuses a shipped Lua file without this line). `_G` in it is the live table.
local _ENV = pristine or _G
-- The whole debug library (the third argument): under --sandbox the test sees only part of it.
local debug = select(3, ...) or debug
local exit_message = ...
-- The runner's internals, shared by its chunks: the Swift side hands the table to each (the
-- sixth argument) and keeps it; no global, no package.loaded entry names it.
local T = select(6, ...)
local stdout = io.stdout
local methods = getmetatable(stdout).__index
local file_write = methods.write
local io_output = io.output
local concat, select, tostring, type, sub = table.concat, select, tostring, type, string.sub

-- A buffer keeps the first OUTPUT_CAP bytes written to it, then one line saying the rest was cut:
-- what the runner and the report do with a test's output after the test is bounded by the cap
-- (400 MB of io.write took 483 s and 1.26 GB after the test had returned).
local OUTPUT_CAP = 1000000
local CUT = "\n[cut: output past 1000000 bytes not kept]\n"
local function gather(sink, text)
  local kept = sink.kept or 0
  if kept >= OUTPUT_CAP then return end
  if kept + #text > OUTPUT_CAP then
    sink[#sink + 1] = sub(text, 1, OUTPUT_CAP - kept)
    sink[#sink + 1], sink.kept = CUT, OUTPUT_CAP
    return
  end
  sink[#sink + 1], sink.kept = text, kept + #text
end
T.gather = gather

-- Empties a buffer.
function T.clear(buffer)
  for i = #buffer, 1, -1 do buffer[i] = nil end
  buffer.kept = nil
end

T.file_output = {}
T.sink = T.file_output

-- The C stack lookups (ckframes.c): user_frame(level [, skip_luassert]) → short_src, line of
-- the first frame from `level` up (getinfo's levels) outside the runner's chunks.
local user_frame = select(4, ...)

-- `file:line` of the innermost caller outside the runner's own chunks.
function T.where()
  local src, line = user_frame(2)
  if src then return src .. ":" .. line end
  return nil
end

-- Returns the text gathered in `buffer` and empties it.
function T.take(buffer)
  if buffer[1] == nil then return "" end
  local text = concat(buffer)
  T.clear(buffer)
  return text
end

-- io.write formats numbers like this, not like tostring.
local function piece(v, i)
  local kind = type(v)
  if kind == "string" then return v end
  if kind == "number" then
    return math.type(v) == "integer" and string.format("%d", v) or string.format("%.14g", v)
  end
  error(string.format("bad argument #%d to 'write' (string expected, got %s)", i, kind), 3)
end

methods.write = function(f, ...)
  if not rawequal(f, stdout) then return file_write(f, ...) end
  local sink = T.sink
  for i = 1, select("#", ...) do gather(sink, piece((select(i, ...)), i)) end
  return f
end

-- Under --sandbox io.output is replaced by a function that raises; stdout is then the output.
local function default_output()
  local ok, f = pcall(io_output)
  if ok then return f end
  return stdout
end

_G.io.write = function(...) return default_output():write(...) end

_G.print = function(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  local sink = T.sink
  gather(sink, concat(parts, "\t") .. "\n")
end

-- The status the exit would have ended the process with, as Lua's os.exit reads its argument
-- (true or nil 0, false 1, an integer or a string of one its low byte); nil and the error
-- os.exit raises for anything else (busted reports that as the test's error and goes on).
local tointeger, tonumber = math.tointeger, tonumber
local function exit_status(code)
  if code == nil or code == true then return 0 end
  if code == false then return 1 end
  local n = (type(code) == "number" or type(code) == "string") and tointeger(tonumber(code))
  if n then return n & 0xFF end
  if tonumber(code) then return nil, "bad argument #1 to 'exit' (number has no integer representation)" end
  return nil, "bad argument #1 to 'exit' (number expected, got " .. type(code) .. ")"
end
-- Noted whoever catches its error: a finalizer's is swallowed (Lua turns it into a warning; atk-new
-- 17), and a test's own pcall(os.exit, 7) caught it (atk-safety3 02): either way the code that was
-- running fails (T.safe), as the exit would have ended busted's run.
_G.os.exit = function(code)
  local status, bad = exit_status(code)
  if not status then error(bad, 2) end
  if code == nil then code = true end
  local message = string.format(exit_message, T.where() or "?", tostring(code))
  T.exit_called = T.exit_called or message
  -- The status becomes the run's (the first one's); the message is kept only while the state
  -- closes, when no test runs to fail (atk-new 17).
  T.note_exit(message, status)
  error(message, 0)
end
