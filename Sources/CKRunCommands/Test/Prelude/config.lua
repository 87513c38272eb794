-- ckrun test: reads busted's `.busted` file, in a state of its own under the run's limits (and
-- --sandbox's rules when given). Arguments: its path, the task (--run) or nil, and `keep`, which
-- records each option as a key and its values (ckrunner.c: escaped, so no value can forge a key).
-- Each key is kept with the form it was given in ("table", or the value's type: busted reads a
-- string and a table apart, and a flag by its truth), then its values as text. Returns an error
-- message, or nothing. Every free name below reads the standard library as it
-- was at start (the fourth argument): the .busted file is a script and may set `pairs = nil`.
-- As busted's, it sees the global `lfs` (busted has loaded LuaFileSystem, whose Debian build sets
-- it; not under --sandbox, the fifth argument, where no C module loads) and the run's command
-- line in `arg` (the rest of the arguments; arg[0] the program, arg[-1] its interpreter: itself).
local path, task, keep, pristine, sandboxed = ...
local G = _G
local _ENV = pristine or _G
G.arg = { [-1] = select(6, ...), [0] = select(6, ...), select(7, ...) }
if not sandboxed and rawget(G, "lfs") == nil then
  local loaded, lfs = pcall(require, "lfs")
  if loaded and type(lfs) == "table" then rawset(G, "lfs", lfs) end
end
local ok, config = pcall(dofile, path)
if not ok then return tostring(config) end
if type(config) ~= "table" then return ".busted file does not return a table." end
local out = {}
local function merge(t)
  if type(t) ~= "table" then return end
  for k, v in pairs(t) do if out[k] == nil then out[k] = v end end
end
if task then
  if type(config[task]) ~= "table" then return "Task `" .. task .. "` not found, or not a table." end
  merge(config[task])
else
  merge(config.default)
end
merge(config._all)
for k, v in pairs(out) do
  local values = type(v) == "table" and v or { v }
  local texts = {}
  for i, x in ipairs(values) do texts[i] = tostring(x) end
  keep(tostring(k), type(v), table.unpack(texts))
end
