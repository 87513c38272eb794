-- The searcher beside the script (SPEC §9): appended to package.searchers, after Lua's own,
-- so package.path stays as lua sets it. Looks for <dir>/?.lua and <dir>/?/init.lua in each of
-- the directories given, in order; each "no file" line says why its directory was searched
-- (reasons[i], e.g. "beside the script app.lua"). Returns the list of module names it loaded
-- (a reload forgets them so that edited modules load again).
local dirs, reasons, pristine = ...
-- Every free name reads the standard library as it was at start (it runs at a `require` after
-- the script's code, which may set `ipairs = nil` or `string.gsub = nil`); string methods are
-- the copy's functions called directly, not through the string metatable a script can reach.
local _ENV = pristine or _G
local gsub, sub, format, concat, insert = string.gsub, string.sub, string.format, table.concat, table.insert
local loaded = {}
local sep = sub(package.config, 1, 1)

local function searcher(name)
  local file = gsub(name, "%.", sep)
  local tried = {}
  for i, dir in ipairs(dirs) do
    for _, pattern in ipairs({"?.lua", "?" .. sep .. "init.lua"}) do
      local path = dir .. sep .. gsub(pattern, "%?", (gsub(file, "%%", "%%%%")))
      local f = io.open(path, "r")
      if f then
        f:close()
        local chunk, err = loadfile(path)
        if not chunk then
          error(format("error loading module '%s' from file '%s':\n\t%s", name, path, err), 0)
        end
        loaded[#loaded + 1] = name
        return chunk, path
      end
      tried[#tried + 1] = "no file '" .. path .. "' (" .. reasons[i] .. ")"
    end
  end
  -- Lua 5.4's require puts "\n\t" before each searcher's message.
  return concat(tried, "\n\t")
end

insert(package.searchers, searcher)
return loaded
