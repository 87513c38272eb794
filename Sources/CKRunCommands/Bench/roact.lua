-- The peer of the keyed benchmark (keyed.lua): Roact v1.4.2 loaded from a `src/` directory the
-- user fetched (never part of ckrun), run on this process's liblua. Three pieces of our own:
-- a loader that gives each module the `script` object Roblox would (`require(script.Parent.X)`),
-- a renderer that keeps a tree of host instances (what Roblox's instances are to RobloxRenderer),
-- and the benchmark's app. Defines `bench_roact_side(path)`: a side for keyed.lua, or nil and why.
local pristine = ...
-- Every free name reads the standard library as it was at start (the last argument), whatever
-- Roact's code or another chunk left in the globals (check-layout refuses a shipped Lua file
-- without this line); the bench's own globals are read from `_G`.
local _ENV = pristine or _G

-- Luau's `newproxy(true)` makes a userdata with its own metatable; a table stands in for it,
-- and `typeof` says "userdata" for those tables as Luau would.
local proxies = setmetatable({}, {__mode = "k"})
local function newproxy() local p = setmetatable({}, {}) proxies[p] = true return p end
local function typeof(v)
  local t = type(v)
  if t == "table" and proxies[v] then return "userdata" end
  return t
end

local function readable(path)
  local f = io.open(path, "r")
  if f then f:close() return true end
  return false
end

-- A module or folder of the tree: `node.Name` is a child, `node.Parent` the folder above.
local function makeLoader(root)
  local loaded, nodes = {}, {}
  local function node(path, parent)
    local n = nodes[path]
    if n then return n end
    n = setmetatable({path = path, file = readable(path .. ".lua") and path .. ".lua" or readable(path .. "/init.lua") and path .. "/init.lua" or nil,
                      Parent = parent}, {__index = function(self, name) return node(self.path .. "/" .. name, self) end})
    nodes[path] = n
    return n
  end
  -- Each module's globals are a copy of ours (a lookup through __index would tax Roact's
  -- every global read) plus its `script` and the Luau functions Roact uses.
  local function require(script)
    local path = type(script) == "table" and script.file
    if not path then error("roact loader: no module at " .. tostring(type(script) == "table" and script.path or script), 2) end
    if loaded[path] ~= nil then return loaded[path] end
    local env = {}
    for k, v in pairs(_G) do env[k] = v end
    env.script, env.require, env.typeof, env.newproxy, env.unpack = script, require, typeof, newproxy, table.unpack
    local chunk, err = loadfile(path, "t", env)
    if not chunk then error(err, 0) end
    loaded[path] = chunk()
    return loaded[path]
  end
  return node(root, nil), require
end

-- A host instance: its class, name, properties, parent and children (a set, as Roblox's).
local function newInstance(className, name)
  return {ClassName = className, Name = name, props = {}, children = {}}
end

local function makeRenderer(Children)
  local renderer = {}
  function renderer.isHostObject(target) return type(target) == "table" and target.children ~= nil end
  function renderer.mountHostNode(reconciler, node)
    local element = node.currentElement
    local instance = newInstance(element.component, tostring(node.hostKey))
    for key, value in pairs(element.props) do
      if type(key) == "string" then instance.props[key] = value end
    end
    node.hostObject = instance
    local children = element.props[Children]
    if children ~= nil then reconciler.updateVirtualNodeWithChildren(node, instance, children) end
    instance.Parent = node.hostParent
    node.hostParent.children[instance] = true
  end
  function renderer.unmountHostNode(reconciler, node)
    for _, child in pairs(node.children) do reconciler.unmountVirtualNode(child) end
    local instance = node.hostObject
    instance.Parent.children[instance] = nil
    instance.Parent = nil
  end
  function renderer.updateHostNode(reconciler, node, newElement)
    local old, new, props = node.currentElement.props, newElement.props, node.hostObject.props
    for key, value in pairs(new) do
      if type(key) == "string" and old[key] ~= value then props[key] = value end
    end
    for key in pairs(old) do
      if type(key) == "string" and new[key] == nil then props[key] = nil end
    end
    local children = new[Children]
    if children ~= nil or old[Children] ~= nil then
      reconciler.updateVirtualNodeWithChildren(node, node.hostObject, children)
    end
    return node
  end
  return renderer
end

function _G.bench_roact_side(path)
  if not readable(path .. "/createReconciler.lua") then
    return nil, path .. " is not Roact's src/ directory (no createReconciler.lua in it)"
  end
  local src, require = makeLoader(path)
  local Children = require(src.PropMarkers.Children)
  local createElement = require(src.createElement)
  local Component, PureComponent = require(src.Component), require(src.PureComponent)
  local reconciler = require(src.createReconciler)(makeRenderer(Children))

  -- The same app as ckrun's: rows are keyed by id; Roblox lays children out by LayoutOrder.
  local Row = PureComponent:extend("Row")
  function Row:render()
    local p = self.props
    return createElement("TextLabel", {Text = p.label, Selected = p.selected, LayoutOrder = p.order})
  end
  local app
  local App = Component:extend("App")
  function App:init()
    self.state = {rows = {}, selected = 0}
    app = self
  end
  function App:render()
    local rows, selected, children = self.state.rows, self.state.selected, {}
    for i = 1, #rows do
      local r = rows[i]
      children[r.id] = createElement(Row, {label = r.label, selected = r.id == selected, order = r.order})
    end
    return createElement("Frame", {}, children)
  end

  local side = {name = "Roact"}
  local root, tree
  function side.mount()
    root = newInstance("Root", "Root")
    tree = reconciler.mountVirtualTree(createElement(App), root, "App")
  end
  function side.set(rows, selected) app:setState({rows = rows, selected = selected}) end
  -- The mounted labels in layout order: {text, selected} each.
  function side.views()
    local frame = next(root.children)
    local list = {}
    for instance in pairs(frame.children) do list[#list + 1] = instance end
    table.sort(list, function(a, b) return a.props.LayoutOrder < b.props.LayoutOrder end)
    for i, instance in ipairs(list) do list[i] = {text = instance.props.Text, selected = instance.props.Selected} end
    return list
  end
  function side.destroy() reconciler.unmountVirtualTree(tree) end
  return side
end
