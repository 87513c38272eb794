import CKRuntime
import Synchronization
import Testing

/// Outside attack (embedding) 05, 09: a Swift program receives the runtime's warnings, sets
/// globals, gives Lua Swift functions, and throws catalogued errors from its handlers.
@Suite("Embedding: warnings, globals, Swift functions, catalogued errors")
struct EmbeddingHooksTests {
    final class Received: Sendable {
        let warnings = Mutex<[ScriptWarning]>([])
    }

    /// Break 09: warnings went straight to the process's standard error.
    @Test func warningsReachConfigurationOnWarning() throws {
        let received = Received()
        let runtime = try Runtime(.init(onWarning: { warning in received.warnings.withLock { $0.append(warning) } }))
        let app = try runtime.load(string: """
            local Row = ck.component("Row", { scope = true, render = function(self, p) return ck.Text{text = p.n, colour = "red"} end })
            return ck.component("List", { scope = true, render = function(self, p)
              local kids = {} for i = 1, 3 do kids[i] = Row{n = "same"} end return ck.Stack{children = kids} end })
            """, name: "list.lua")
        _ = try runtime.mount(app)
        let warnings = received.warnings.withLock { $0 }
        let collision = warnings.first { $0.id.rawValue == "scopeCollision" }
        #expect(collision != nil, "\(warnings)")
        #expect(collision?.place == "list.lua:3", "\(collision?.message ?? "")")
        #expect(collision?.message.hasPrefix("[scopeCollision] list.lua:3: ") == true)
        #expect(warnings.contains { $0.id.rawValue == "unknownProp" }, "\(warnings)")
    }

    /// Break 09: only a getter existed.
    @Test func aGlobalSetFromSwiftIsReadByLua() throws {
        let runtime = try Runtime()
        try runtime.setGlobal("limit", ["max": 3, "names": ["a", "b"]])
        #expect(try runtime.load(string: "return limit.max + #limit.names").value() == 5)
        let f = try runtime.load(string: "return function(x) return x * 2 end")
        try runtime.setGlobal("double", f)
        #expect(try runtime.load(string: "return double(21)").value() == 42)
        #expect(try runtime.global("limit").value()["max"] == 3)
        #expect(throws: ScriptError.self) { try runtime.setGlobal("a\0b", 1) }
    }

    /// Break 09: Lua could not call Swift.
    @Test func luaCallsARegisteredSwiftFunction() throws {
        let runtime = try Runtime()
        try runtime.register("greet") { arguments in .string("hello, " + (arguments.first?.stringValue ?? "you")) }
        #expect(try runtime.load(string: "return greet('Ann')").value() == "hello, Ann")
        try runtime.register("pick") { arguments in
            guard let i = arguments.first?.intValue else { throw ScriptError(.badArgument, "pick needs an index") }
            return .int(i)
        }
        let caught = try runtime.load(string: "local ok, e = pcall(pick, 'x'); return e").value()
        #expect(caught.stringValue?.hasPrefix("[badArgument] pick needs an index") == true, "\(caught)")
        struct Oops: Error {}
        try runtime.register("fails") { _ in throw Oops() }
        let error = #expect(throws: ScriptError.self) { try runtime.load(string: "fails()", name: "f.lua") }
        #expect(error?.id == .scriptFailed)
        #expect(error?.message.contains("fails") == true, "\(error?.message ?? "")")
    }

    /// Break 05: a Swift handler could not throw a catalogued error (no public initializer).
    @Test func aSwiftHandlersScriptErrorReachesTheSenderAsItIs() throws {
        let runtime = try Runtime()
        let app = try runtime.load(string: """
            return ck.component("P", { scope = true, render = function() return ck.Text{text = ""} end })
            """)
        var controller = HostResponder(name: "VC")
        controller.on("pick") { call in
            guard call[0].intValue != nil else { throw ScriptError(.badArgument, "pick needs an index") }
        }
        let host = try runtime.mount(app, responders: [controller])
        let error = #expect(throws: ScriptError.self) { try host.send("pick", types: ["string"], to: .responderChain(from: "P"), arguments: ["x"]) }
        #expect(error?.id == .badArgument)
        #expect(error?.message.hasPrefix("[badArgument] pick needs an index") == true, "\(error?.message ?? "")")
        #expect(ScriptError(.timeout, "too slow").message == "[timeout] too slow")
    }
}
