describe("the responder playground example", function()
  local printed
  setup(function()
    printed = {}
    local realPrint = print
    _G.print = function(s) printed[#printed + 1] = s end
    require("responder_playground")   -- found beside this file (SPEC §9)
    _G.print = realPrint
  end)

  it("routes each button to the first responder that can perform it", function()
    assert.are.equal("DocumentController saved (from save)", printed[1])
    assert.are.equal("Document shared (the toolbar skipped it)", printed[3])
    assert.are.equal("ViewController closed the document", printed[5])
    assert.are.equal("Application opened help", printed[7])
  end)

  it("walks button, toolbar, document, controller, hosting view, host responders", function()
    local chain = ck.responderChain(app:find("Button#help"))
    local names = {}
    for i, r in ipairs(chain) do names[i] = r.name or r.class end
    assert.are.same({"Button", "Stack", "Toolbar", "Document", "DocumentController", "HostingView", "ViewController", "Application"}, names)
  end)

  it("lets the toolbar claim share once sharing is on", function()
    app:update({sharing = true})
    local lines = {}
    local realPrint = print
    _G.print = function(s) lines[#lines + 1] = s end
    app:tap("Button#share")
    _G.print = realPrint
    assert.are.same({"Toolbar shared"}, lines)
  end)
end)
