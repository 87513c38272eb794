-- Attack (outsider after issue 24, B8): a 6 MB state and text, exported by `ckrun tree` as JSON
-- under a 40 MB limit. The export was built outside the limit (75 MB printed, 208 MB of RSS,
-- exit 0); it counts what it builds and the state's strings before quoting them.
-- ckrun-cmd: --memory-limit 40 tree Tests/hostile/tree_export_memory.lua --format json
-- ckrun-expect: [memoryLimit]
-- ckrun-expect-status: 1
local s = string.rep("\0", 6 * 1024 * 1024)
return ck.component("L", {scope = true, initialState = function() return {s = s} end,
                          render = function() return ck.Text{text = s} end})
