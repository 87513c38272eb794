-- --sandbox: removes what runs programs, loads C code or writes files. Its one argument is the
-- refusal's format: "[sandbox] %s%s is not allowed ..." (where, what).
local message = ...
local getinfo = debug.getinfo
-- "[sandbox] file:line: what": the id first, then where the script called it.
local function refuse(name)
  local info = getinfo(3, "Sl")
  local where = info and info.currentline > 0 and (info.short_src .. ":" .. info.currentline .. ": ") or ""
  error(string.format(message, where, name), 0)
end
local function deny(name) return function() refuse(name) end end
os.execute = deny("os.execute")
io.popen = deny("io.popen")
os.remove = deny("os.remove")
os.rename = deny("os.rename")
os.tmpname = deny("os.tmpname")
package.loadlib = deny("package.loadlib")
package.cpath = ""
local searchers = package.searchers
searchers[3], searchers[4] = nil, nil
local open = io.open
io.open = function(path, mode)
  mode = mode or "r"
  if not string.find(mode, "^r") or string.find(mode, "+", 1, true) then
    refuse("io.open in mode '" .. mode .. "'")
  end
  return open(path, mode)
end
io.output = deny("io.output")
io.tmpfile = deny("io.tmpfile")
