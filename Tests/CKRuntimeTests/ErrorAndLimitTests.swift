import CKRuntime
import Testing
import Foundation
#if canImport(Glibc)
import Glibc
#endif

@Suite("Errors carry their catalogued id")
struct ErrorTests {
    @Test func aSyntaxErrorIsSyntaxError() throws {
        let runtime = try Runtime()
        let error = try #require(throws: ScriptError.self) { try runtime.load(string: "local x = = 1", name: "broken.lua") }
        #expect(error.id == .syntaxError)
        #expect(error.message.contains("broken.lua:1:"))
    }

    @Test func aMissingFileIsCannotRead() throws {
        let runtime = try Runtime()
        let error = try #require(throws: ScriptError.self) { try runtime.load(file: "/nonexistent/app.lua") }
        #expect(error.id == .cannotRead)
    }

    /// It had no id (nil) until every error got one.
    @Test func aScriptsOwnErrorIsScriptFailedWithATraceback() throws {
        let runtime = try Runtime()
        let error = try #require(throws: ScriptError.self) {
            try runtime.load(string: "local function f() error('boom') end\nf()", name: "raise.lua")
        }
        #expect(error.id == .scriptFailed)
        #expect(error.message == "[scriptFailed] raise.lua:1: boom")
        #expect(error.traceback.contains("stack traceback"))
    }

    @Test func aFailedBuildIsBuildFailedAndKeepsTheTree() throws {
        let runtime = try Runtime()
        let app = try runtime.load(string: """
            return ck.component("Title", {render = function(self, props)
              if props.fail then error("cannot render") end
              return ck.Text{text = props.text}
            end})
            """, name: "title.lua")
        let host = try runtime.mount(app, model: ["text": "one"])
        let error = try #require(throws: ScriptError.self) { try host.update(model: ["fail": true]) }
        #expect(error.id == .buildFailed)
        #expect(try host.generation == 1)
        #expect(try host.dump().contains("one"))
    }

    @Test func aDestroyedHostRefusesCalls() throws {
        let f = try PickerFixture()
        try f.host.destroy()
        let error = try #require(throws: ScriptError.self) { try f.host.update(model: nil) }
        #expect(error.id == .hostDestroyed)
    }

    /// Every later call, the reads that need no Lua call too (outsider attack on the library,
    /// break 04: json() was "null", dump() "(empty)", a made action's send false).
    @Test func aDestroyedHostRefusesItsReadsAndItsMadeActions() throws {
        let f = try PickerFixture()
        let made = try f.host.action("select", types: ["int", "Point"], to: .scope("Picker"))
        try f.host.destroy()
        for call in [{ _ = try f.host.dump() }, { _ = try f.host.json() }, { _ = try f.host.dot() }, { _ = try made.send([1, ["x": 1.0, "y": 2.0]]) }] as [() throws -> Void] {
            let error = try #require(throws: ScriptError.self) { try call() }
            #expect(error.id == .hostDestroyed)
        }
    }
}

/// The process-wide watchdog serves one running state at a time: each limit test runs in a
/// process of its own (an exit test), so the test process's other runtimes cannot disturb it.
@Suite("Limits hold while Swift calls in")
struct LimitTests {
    @Test func aLoopReachedFromASwiftSendIsStoppedByTheTimeout() async {
        await #expect(processExitsWith: .success) {
            let f = try PickerFixture(.init(timeout: 0.3))
            do {
                try f.host.send("spin", to: .scope("Picker"))
                exit(1)
            } catch let error as ScriptError {
                guard error.id == .timeout else { exit(2) }
            }
            // The runtime goes on: the next send is handled.
            try f.host.send("relayDemoted", types: ["int"], to: .scope("Picker"), arguments: [1])
            exit(f.received.count == 1 ? 0 : 3)
        }
    }

    @Test func memoryReachedFromASwiftSendIsStoppedByTheLimit() async {
        await #expect(processExitsWith: .success) {
            let f = try PickerFixture(.init(memoryLimitMegabytes: 16))
            do {
                try f.host.send("hoard", to: .scope("Picker"))
                exit(1)
            } catch let error as ScriptError {
                guard error.id == .memoryLimit else { exit(2) }
            }
            try f.host.send("relayDemoted", types: ["int"], to: .scope("Picker"), arguments: [1])
            exit(f.received.count == 1 ? 0 : 3)
        }
    }

    /// Outsider attack on the library, break 05: a model bigger than the limit was refused, and
    /// then every later call of the runtime was `[memoryLimit]` too, for good.
    @Test func aModelPastTheLimitIsRefusedAndTheRuntimeStaysUsable() throws {
        let f = try PickerFixture(.init(memoryLimitMegabytes: 32))
        let big: ScriptValue = ["title": .string(String(repeating: "y", count: 40_000_000))]
        for _ in 1...2 {
            let error = try #require(throws: ScriptError.self) { try f.host.update(model: big) }
            #expect(error.limit == .memoryLimit)   // [buildFailed] when it struck in the render
            #expect(try f.runtime.load(string: "return #{1, 2, 3}").value() == 3)
            try f.host.send("relayDemoted", types: ["int"], to: .scope("Picker"), arguments: [1])
            try f.host.update(model: ["title": "small"])
            #expect(try f.host.dump().contains("small"))
        }
        #expect(f.received.count == 2)
    }

    /// Values Swift makes for Lua are never refused by the allocator: a 40 MB argument under a
    /// 32 MB limit reached a function that allocates nothing, and the limit never struck.
    @Test func anArgumentPastTheLimitIsMemoryLimitNamingIt() throws {
        let f = try PickerFixture(.init(memoryLimitMegabytes: 32))
        let ignore = try f.runtime.load(string: "return function(t) return 1 end")
        let big: ScriptValue = .string(String(repeating: "y", count: 40_000_000))
        let error = try #require(throws: ScriptError.self) { try ignore.call([big]) }
        #expect(error.id == .memoryLimit)
        #expect(error.message.contains("the values given to the call"))
        #expect(try ignore.call(["small"]) == [1])
    }

    /// A limit struck in a render is the build's failure, naming the component and the line.
    @Test func aTimeoutInARenderIsABuildFailureThatNamesTheLimit() async {
        await #expect(processExitsWith: .success) {
            let runtime = try Runtime(.init(timeout: 0.3))
            let app = try runtime.load(string: """
                return ck.component("Title", {render = function(self, props)
                  if props.spin then while true do end end
                  return ck.Text{text = "t"}
                end})
                """, name: "title.lua")
            let host = try runtime.mount(app, model: ["spin": false])
            do {
                try host.update(model: ["spin": true])
                exit(1)
            } catch let error as ScriptError {
                guard error.id == .buildFailed, error.limit == .timeout else { exit(2) }
                guard error.message.contains("Title"), error.message.contains("\n[timeout] title.lua:2: ") else { exit(3) }
            }
            exit((try? host.generation) == 1 ? 0 : 4)
        }
    }

    @Test func aSandboxedRuntimeRefusesPrograms() throws {
        let runtime = try Runtime(.init(sandbox: true))
        let error = try #require(throws: ScriptError.self) { try runtime.load(string: "os.execute('true')") }
        #expect(error.id == .sandbox)
    }
}
