-- ckrun test: reads busted's `.busted` file. Arguments: its path and the task (--run) or nil.
-- Returns "key<TAB>value<US>value..." lines, or "error<TAB>message".
local path, task = ...
local ok, config = pcall(dofile, path)
if not ok then return "error\t" .. tostring(config) end
if type(config) ~= "table" then return "error\t.busted file does not return a table." end
local out = {}
local function merge(t)
  if type(t) ~= "table" then return end
  for k, v in pairs(t) do if out[k] == nil then out[k] = v end end
end
if task then
  if type(config[task]) ~= "table" then return "error\tTask `" .. task .. "` not found, or not a table." end
  merge(config[task])
else
  merge(config.default)
end
merge(config._all)
local lines = {}
for k, v in pairs(out) do
  local values = type(v) == "table" and v or { v }
  local texts = {}
  for i, x in ipairs(values) do texts[i] = tostring(x) end
  lines[#lines + 1] = tostring(k) .. "\t" .. table.concat(texts, "\31")
end
return table.concat(lines, "\n")
