import CKCore
@testable import CKLua
import Testing

/// A built-in is one declaration: the bridge makes the class from its props' roles alone.
@Suite("Built-ins made from declarations")
struct BuiltinsBindingTests {
    /// A declaration no file of ckrun knows: a control of a class no one registered, with a bool
    /// attribute and an action sent on `valueChanged`, as issue 26's `ck.Switch` was.
    private static let toggle = Builtin("Toggle", viewClass: "UIToggle", doc: "A switch.", props: [
        BuiltinProp("on", .attribute(.boolean), "whether it is on"),
        BuiltinProp("action", .action(sentOn: .control("valueChanged")), "sent when flipped"),
    ])

    private func engine(with builtin: Builtin) -> Engine {
        let engine = Engine()
        engine.lua.pushGlobal("ck")
        BuiltinsBinding.define(builtin, in: engine)
        LuaStack(engine.lua.L).pop(1)
        return engine
    }

    @Test func aNewDeclarationIsAWorkingClass() throws {
        let engine = engine(with: Self.toggle)
        try engine.runChunk("""
            local got = {}
            local Screen = ck.component("Screen", {scope = true,
              flipped = function(self, sender, event) got[#got + 1] = event.type end,
              render = function(self) return ck.Toggle{on = true, action = self:action("flipped", {"Event"})} end})
            local host = ck.host(function() return Screen{} end)
            host:mount()
            assert(host:controlEvent("Toggle", "valueChanged") == 1)
            assert(host:tap("Toggle") == 0, "a switch is not sent on touchUpInside")
            assert(got[1] == "valueChanged" and #got == 1)
            dumped = host:dump()
            """, name: "=toggle")
        #expect(try engine.lua.evaluate("return dumped")?.contains("Toggle <UIToggle on=true>") == true)
    }

    @Test func itsPropsAreTheOnesTheNameCheckKnows() throws {
        let engine = engine(with: Self.toggle)
        try engine.runChunk("ck.config.onWarning = function(m) warned = m end; ck.Toggle{onn = true}", name: "=t")
        #expect(try engine.lua.evaluate("return warned")?.contains("did you mean \"on\"? its props are on, action, key") == true)
    }

    @Test func everyDeclarationIsACkClass() throws {
        let engine = Engine()
        for b in Builtin.all {
            #expect(try engine.lua.evaluate(LuaSource(bytes: "return ck.\(b.name).name".utf8)) == b.name)
        }
    }
}
