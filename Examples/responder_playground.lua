-- A responder-chain playground: nested components, controllers, host responders and
-- canPerformAction. Run: scripts/ckrun Examples/responder_playground.lua and try
--   .chain Toolbar > Button      app:tap("Button#save")      ck.config.unhandledAction = "warn"
-- or add --tui, move along the toolbar with the arrows and watch each tap's walk.

ck.controller("DocumentController", {
  save = function(self, sender) print(("DocumentController saved (from %s)"):format(sender.key)) end,
})

local Toolbar = ck.component("Toolbar", {
  render = function()
    return ck.Stack{direction = "horizontal", spacing = 1, children = {
      ck.Button{key = "save", title = "Save", action = ck.action("save")},
      ck.Button{key = "share", title = "Share", action = ck.action("share")},
      ck.Button{key = "close", title = "Close", action = ck.action("close")},
      ck.Button{key = "help", title = "Help", action = ck.action("help")},
    }}
  end,
  -- The toolbar could share, but only while sharing is enabled: it skips otherwise.
  canPerformAction = function(self, selector, sender)
    if selector == "share" then return self.props.sharing end
    return self.class[selector] ~= nil
  end,
  share = function(self) print("Toolbar shared") end,
})

local Document = ck.component("Document", {
  scope = true,
  render = function(self, props) return Toolbar{sharing = props.sharing} end,
  share = function(self) print("Document shared (the toolbar skipped it)") end,
})

local responders = {
  {name = "ViewController", methods = {close = function(self, sender) print("ViewController closed the document") end}},
  {name = "Application", methods = {help = function(self, sender) print("Application opened help") end}},
}

ck.run(function(model) return Document{sharing = model.sharing} end, {model = {sharing = false}, responders = responders})

for _, key in ipairs({"save", "share", "close", "help"}) do
  local entries = ck.trace(function() app:tap("Button#" .. key) end)
  print("  " .. tostring(entries[1]))
end
