-- ckrun test: output capture and the os.exit guard. Runs first in each test file's fresh state;
-- its one argument is the message the guarded os.exit raises.
-- Captures what Lua prints, so test output lands in reports instead of on the terminal,
-- and guards os.exit, so a test cannot end the runner.
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
local concat, select, tostring, type = table.concat, select, tostring, type

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
  for i = #buffer, 1, -1 do buffer[i] = nil end
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
  for i = 1, select("#", ...) do sink[#sink + 1] = piece((select(i, ...)), i) end
  return f
end

-- Under --sandbox io.output is replaced by a function that raises; stdout is then the output.
local function default_output()
  local ok, f = pcall(io_output)
  if ok then return f end
  return stdout
end

io.write = function(...) return default_output():write(...) end

print = function(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  local sink = T.sink
  sink[#sink + 1] = concat(parts, "\t") .. "\n"
end

os.exit = function(code)
  if code == nil then code = true end
  error(string.format(exit_message, T.where() or "?", tostring(code)), 0)
end
