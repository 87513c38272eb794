-- The searcher beside the script (SPEC §9): appended to package.searchers, after Lua's own,
-- so package.path stays as lua sets it. Looks for <dir>/?.lua and <dir>/?/init.lua in each of
-- the directories given, in order; each "no file" line says why its directory was searched
-- (reasons[i], e.g. "beside the script app.lua"). Returns the list of module names it loaded
-- (a reload forgets them so that edited modules load again).
local dirs, reasons = ...
local loaded = {}
local sep = package.config:sub(1, 1)

local function searcher(name)
  local file = name:gsub("%.", sep)
  local tried = {}
  for i, dir in ipairs(dirs) do
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
      tried[#tried + 1] = "no file '" .. path .. "' (" .. reasons[i] .. ")"
    end
  end
  -- Lua 5.4's require puts "\n\t" before each searcher's message.
  return table.concat(tried, "\n\t")
end

table.insert(package.searchers, searcher)
return loaded
