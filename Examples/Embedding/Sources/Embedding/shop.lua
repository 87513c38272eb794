-- A shop: each Item's button sends `addToCart` typed {"string", "int", "Price"} up the
-- responder chain, demoted to {"string"} for items sold by the piece (the Swift responder then
-- receives a zero quantity and a zero Price). Swift sends `restock` into an Item's scope.
ck.struct("Price", {amount = "number", currency = "string"})

local Item = ck.component("Item", {
  scope = function(props) return props.name end,
  initialState = function(props) return {stock = props.stock} end,
  render = function(self, props, state)
    return ck.Button{title = props.name .. " (" .. state.stock .. " left)", action = ck.action(self, "buy", {"Event"})}
  end,
  buy = function(self, sender, event)
    local props = self.props
    local add = ck.action("addToCart", {"string", "int", "Price"})
    if props.single then
      add:demoted({"string"}):send(self, props.name)
    else
      add:send(self, props.name, 2, {amount = props.price, currency = "EUR"})
    end
    self:updateState(function(s) return {stock = s.stock - 1} end, "sync")
  end,
  restock = function(self, sender, count)
    self:updateState(function(s) return {stock = s.stock + count} end, "sync")
  end,
})

return function(model)
  local children = {}
  for i, item in ipairs(model.items) do children[i] = Item(item) end
  return ck.Stack{children = children}
end
