-- The searcher beside the script (SPEC §9): appended to package.searchers, after Lua's own,
-- so package.path stays as lua sets it. Looks for <dir>/?.lua and <dir>/?/init.lua in each of
-- the directories given, in order. Returns the list of module names it loaded (a reload
-- forgets them so that edited modules load again).
local dirs = ...
local loaded = {}
local sep = package.config:sub(1, 1)

local function searcher(name)
  local file = name:gsub("%.", sep)
  local tried = {}
  for _, dir in ipairs(dirs) do
    for _, pattern in ipairs({"?.lua", "?" .. sep .. "init.lua"}) do
      local path = dir .. sep .. pattern:gsub("%?", (file:gsub("%%", "%%%%")))
      local f = io.open(path, "r")
      if f then
        f:close()
        local chunk, err = loadfile(path)
        if not chunk then
          error(string.format("error loading module '%s' from file '%s':\n\t%s", name, path, err), 0)
        end
        loaded[#loaded + 1] = name
        return chunk, path
      end
      tried[#tried + 1] = "\n\tno file '" .. path .. "' (beside the script)"
    end
  end
  return table.concat(tried)
end

table.insert(package.searchers, searcher)
return loaded
