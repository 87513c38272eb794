-- Typed actions: promotion (a handler declaring fewer parameters receives fewer) and explicit
-- demotion (missing arguments are filled with the zero values of the original types).
-- Run: scripts/ckrun Examples/typed_actions.lua

ck.struct("Point", {x = "number", y = "number"})

local Canvas = ck.component("Canvas", {
  scope = true,
  -- Declared: the prop receives (sender, point, pressure) and holds actions promoted to that.
  actions = {onStroke = {"Point", "number"}},
})

local Editor = ck.component("Editor", {
  scope = true,
  render = function(self)
    return Canvas{onStroke = self:action("drawAt", {"Point"})}
  end,
  -- Typed {"Point"}: the handler takes the sender and a point; the pressure is not passed.
  drawAt = function(self, sender, point)
    print(("drawAt (%.1f, %.1f)"):format(point.x, point.y))
  end,
  full = function(self, sender, point, pressure, color, closed)
    print(("full: point=(%.1f, %.1f) pressure=%s color=%s closed=%s"):format(
      point.x, point.y, tostring(pressure), tostring(color), tostring(closed)))
  end,
})

ck.run(function() return Editor{} end)
local canvas = app:find("Canvas")
print("Canvas.onStroke is typed " .. table.concat(canvas.props.onStroke.types, ", "))

-- Promotion: the prop sends (point, pressure); drawAt declared only the point, so it gets that.
canvas.props.onStroke:send(canvas, {x = 3, y = 4}, 0.8)

-- Demotion: an action typed {Point, number, string, bool} demoted to {Point}: at send, the
-- pressure, color and closed flag are filled with 0.0, nil and false.
local full = app.root:action("full", {"Point", "number", "string", "bool"})
full:demoted({"Point"}):send(canvas, {x = 1})
