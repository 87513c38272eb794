-- Find a control by what the user sees: `Button[title="reset"]`, `Text[text="hi"]`, a prop or
-- the view's attribute holding exactly that string (attack atk-apps2 13).
local SW = ck.component("AttrStopwatch", {scope = true, initialState = 5,
  render = function(self, p, n) return ck.Stack{children = {ck.Text{text = n .. " s"},
    ck.Stack{direction = "horizontal", children = {
      ck.Button{title = "start", action = self:action("noop")},
      ck.Button{title = "lap", action = self:action("noop")},
      ck.Button{title = "reset", action = self:action("reset")}}}}} end,
  noop = function() end, reset = function(self) self:updateState(0) end})
-- An app's own component making a UIButton: found by its view's attribute.
local Own = ck.component("AttrOwnButton", {view = function(self, p)
  return {class = "UIButton", attributes = {title = p.label}} end})

describe("attribute selectors", function()
  local h
  before_each(function() h = ck.host(SW); h:mount() end)
  after_each(function() h:destroy() end)

  it("taps the button the user sees", function()
    ck.act(function() assert.are.equal(1, h:tap('Button[title="reset"]')) end)
    assert.are.equal("0 s", h:find('Text').props.text)
    assert.are.equal(h:find('Text'), h:find('Text[text="0 s"]'))
  end)

  it("matches the exact string only, and combines with names, positions and combinators", function()
    assert.is_nil(h:find('Button[title="rese"]'))
    assert.is_nil(h:find('Button[title="Reset"]'))
    assert.is_nil(h:find('Text[title="reset"]'))
    assert.are.equal("lap", h:find('*[title="lap"]').props.title)
    assert.are.equal("reset", h:find('Stack > Button[title="reset"][1]').props.title)
    assert.are.equal(1, #h:findAll('AttrStopwatch Button[title="start"]'))
    assert.is_nil(h:find('Button[title="reset"][2]'))
    assert.are.equal("5 s", h:find('Text[text="5 s"]').props.text)
  end)

  it("reads the view's attributes of an app's own component", function()
    local o = ck.host(function() return ck.Stack{children = {Own{label = "a"}, Own{label = "b"}}} end)
    o:mount()
    assert.are.equal("b", o:find('AttrOwnButton[title="b"]').props.label)
    o:destroy()
  end)

  it("refuses a malformed attribute with [badQuery]", function()
    assert.error_matches(function() h:find('Button[title=reset]') end, '^%[badQuery%].*in quotes')
    assert.error_matches(function() h:find('Button[title="reset"') end, '^%[badQuery%]')
    assert.error_matches(function() h:find('Button[title]') end, '^%[badQuery%]')
    assert.error_matches(function() h:find('Button[2][title="reset"]') end, '^%[badQuery%].*attributes first')
    assert.error_matches(function() h:find('[title="reset"]') end, '^%[badQuery%].*for any class')
  end)
end)
