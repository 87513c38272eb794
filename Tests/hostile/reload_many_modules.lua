-- ckrun-args: --timeout 1
-- ckrun-stdin: .reload
-- ckrun-stdin: local _ = io.write("alive\n")
-- ckrun-expect: [timeout]
-- ckrun-expect-stdout-last: alive
-- ckrun-expect-status: 0
-- .reload looks up, for every name in package.loaded, the file require would find through
-- package.path's templates: a script sizes that work (here 20,000 names x 2,000 templates,
-- 40 million lookups). It is Swift work in the reload's turn: it ticks the limits and stops.
for i = 1, 20000 do package.loaded["m" .. i] = true end
package.path = string.rep("./nothere/?.lua;", 2000)
return ck.component("M", {render = function() return ck.Text{text = "m"} end})
