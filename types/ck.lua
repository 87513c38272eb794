---@meta ck
-- LuaLS annotations for ckrun's `ck` module. Point your editor's Lua language server at this
-- folder (e.g. "Lua.workspace.library": ["types"] in .luarc.json) for completion and hints.

---@alias ck.TypeName "any"|"id"|"bool"|"int"|"number"|"string"|"table"|"function"|"Event"|"View"|string
---@alias ck.Behavior "startAtSender"|"startAtSenderNextResponder"
---@alias ck.Responder ck.Component|ck.Controller|ck.View|table

---@class ck.ViewSpec
---@field class string
---@field attributes? table

---@class ck.ComponentDef
---@field render? fun(self: ck.Component, props: table, state: any): ck.Component|false|nil
---@field view? ck.ViewSpec|fun(self: ck.Component, props: table, state: any): ck.ViewSpec?
---@field scope? boolean|fun(props: table): any
---@field initialState? any|fun(props: table): any
---@field controller? ck.ControllerClass|string
---@field actions? table<string, ck.TypeName[]>
---@field canPerformAction? fun(self: ck.Component, selector: string, sender: any): boolean
---@field pure? boolean
---@field shouldUpdate? fun(self: ck.Component, oldProps: table, newProps: table): boolean
---@field [string] any

---@class ck.ComponentClass
---@field name string
---@overload fun(props?: table): ck.Component

-- The built-ins: one props class and one class each (as docs/api.md's Built-ins lists them).

---@class ck.StackProps
---@field children? (ck.Component|false)[] the components, in index order; nil and false entries are skipped
---@field direction? "vertical"|"horizontal" how the children follow each other (default "vertical")
---@field spacing? integer cells between neighbouring children (default 0)
---@field alignItems? "stretch"|"start"|"center"|"end" where the children sit across the direction (default "stretch")
---@field justifyContent? "start"|"center"|"end"|"spaceBetween" where the children sit along the direction (default "start")
---@field key? any

---@class ck.StackClass: ck.ComponentClass
---@overload fun(props?: ck.StackProps): ck.Component

---@class ck.ViewProps
---@field class string the view class's name
---@field attributes? table the view's attributes, ck.onTap/ck.onControl attributes included
---@field child? ck.Component|false one component, or nil or false for none
---@field key? any

---@class ck.ViewClass: ck.ComponentClass
---@overload fun(props: ck.ViewProps): ck.Component

---@class ck.TextProps
---@field text? any what it shows
---@field key? any

---@class ck.TextClass: ck.ComponentClass
---@overload fun(props?: ck.TextProps): ck.Component

---@class ck.ButtonProps
---@field title? any what it shows
---@field action? ck.Action sent with an Event on touchUpInside, or on the events
---@field events? string|string[] the control events action is sent on instead
---@field key? any

---@class ck.ButtonClass: ck.ComponentClass
---@overload fun(props?: ck.ButtonProps): ck.Component

---@class ck.Scope
---@field path string
---@field identifier any
---@field key any
---@field state any
---@field isLive boolean
---@field controller ck.Controller?
---@field component ck.Component?

---@class ck.Component
---@field props table
---@field state any
---@field class ck.ComponentClass
---@field name string
---@field key any
---@field scope ck.Scope?
---@field generation integer
---@field path string
---@field view ck.View?
---@field isMounted boolean
local Component = {}
---@param fnOrValue any|fun(old: any): any
---@param mode? "sync"|"async"
function Component:updateState(fnOrValue, mode) end
---@param selector string
---@param types? ck.TypeName[]|ck.TypeName
---@return ck.Action
function Component:action(selector, types) end

---@class ck.ControllerClass
---@field name string

---@class ck.Controller
---@field component ck.Component
---@field view ck.View?
---@field class ck.ControllerClass
---@field name string
---@field scope ck.Scope
---@field isInvalidated boolean
---@field [string] any

---@class ck.View
---@field class string
---@field superview ck.View?
---@field subviews ck.View[]
---@field attributes table
---@field component ck.Component?

---@class ck.Event
---@field type string
---@field view ck.View?
---@field text string? a text field's whole text after the change

---@class ck.Action
---@field kind "selector"|"target"|"scope"|"block"
---@field selector string?
---@field types string[]
---@field behavior ck.Behavior
---@field target any
---@field scope ck.Scope?
local Action = {}
---@param sender? ck.Responder
---@return boolean handled
function Action:send(sender, ...) end
---@param behavior ck.Behavior
---@return ck.Action
function Action:withBehavior(behavior) end
---@param types ck.TypeName[]
---@return ck.Action
function Action:demoted(types) end
---@return string
function Action:identifier() end

---@class ck.Attribute
---@field action ck.Action?
---@field kind "tap"|"control"
---@field events string[]?

---@class ck.HostOptions
---@field model? any
---@field responders? { name: string, methods?: table<string, function> }[]

---@class ck.Host
---@field root ck.Component?
---@field view ck.View
---@field generation integer
---@field isMounted boolean
---@field isDestroyed boolean
local Host = {}
function Host:mount() end
function Host:unmount() end
---@param model any
function Host:update(model) end
function Host:flush() end
function Host:appear() end
function Host:disappear() end
function Host:destroy() end
---@param query string
---@return ck.Component?
function Host:find(query) end
---@param query string
---@return ck.Component[]
function Host:findAll(query) end
---@return string
function Host:dump() end
---@param query string
---@return integer sent
function Host:tap(query) end
---@param query string
---@param eventName string
---@param text? string the Event's text (a text field's whole text)
---@return integer sent
function Host:controlEvent(query, eventName, text) end
---@param provider function|ck.ComponentClass
function Host:reload(provider) end

---@class ck.TraceEntry
---@field selector string
---@field sender any
---@field responders ck.Responder[]
---@field visited { responder: ck.Responder, handled: boolean }[]
---@field handled boolean
---@field handler ck.Responder?
---@field line string

---@class ck.Config
---@field unhandledAction "error"|"warn"|"ignore"
---@field onWarning fun(message: string)?
---@field onTrace fun(entry: ck.TraceEntry)?

---@class ck
---@field version string
---@field config ck.Config
---@field Stack ck.StackClass
---@field View ck.ViewClass
---@field Text ck.TextClass
---@field Button ck.ButtonClass
ck = {}

---@param name string
---@param def? ck.ComponentDef
---@return ck.ComponentClass
function ck.component(name, def) end
---@param name string
---@param def? table<string, function>
---@return ck.ControllerClass
function ck.controller(name, def) end
---@param provider fun(model: any): ck.Component?|ck.ComponentClass
---@param opts? ck.HostOptions
---@return ck.Host
function ck.host(provider, opts) end
---@param provider fun(model: any): ck.Component?|ck.ComponentClass
---@param opts? ck.HostOptions
---@return ck.Host
function ck.run(provider, opts) end
function ck.flush() end
---Calls fn(...), then builds what is pending as ck.flush() does; returns fn's results (React's act()).
---@generic T
---@param fn fun(...): T
---@return T ...
function ck.act(fn, ...) end
---@param seconds number
---@param fn function
---@return integer id
function ck.after(seconds, fn) end
---@param id integer
function ck.cancel(id) end
---@param seconds number
---@return integer fired
function ck.advance(seconds) end
---@return integer fired
function ck.runUntilIdle() end
---@return number
function ck.now() end
---@overload fun(selector: string, types?: ck.TypeName[]|ck.TypeName): ck.Action
---@overload fun(fn: function, types?: ck.TypeName[]|ck.TypeName): ck.Action
---@param target ck.Responder
---@param selector string
---@param types? ck.TypeName[]|ck.TypeName
---@return ck.Action
function ck.action(target, selector, types) end
---@param actionOrSelector ck.Action|string
---@param sender ck.Responder?
---@param context? any
---@return boolean
function ck.actionSend(actionOrSelector, sender, context) end
---@param name string
---@param fields table<string, ck.TypeName>
---@return string
function ck.struct(name, fields) end
---@param action ck.Action?
---@param events? string|string[]
---@return ck.Attribute
function ck.onControl(action, events) end
---@param action ck.Action?
---@return ck.Attribute
function ck.onTap(action) end
---@param viewClass string
function ck.registerControlClass(viewClass) end
---@param x ck.Responder
---@return ck.Responder?
function ck.nextResponder(x) end
---@param x ck.Responder
---@return ck.Responder[]
function ck.responderChain(x) end
---@param x ck.Responder
---@param selector string
---@param sender? ck.Responder
---@return ck.Responder?
function ck.targetForAction(x, selector, sender) end
---@param fn function
---@return ck.TraceEntry[]
function ck.trace(fn) end
---@param c ck.Component
---@return ck.Controller?
function ck.controllerOf(c) end
---@param view ck.View
---@return ck.Component?
function ck.componentOf(view) end

---@class ck.Stats
---@field luaBytes integer
---@field heapBytes integer
---@field handles integer
---@field references integer
---@field hosts integer
---@field timers integer
---@field plannedSends integer sends answered from a cached plan

---@return ck.Stats
function ck.stats() end

---@type ck.Host?
app = nil

return ck
