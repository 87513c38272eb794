import CKRuntime
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Swift values into Lua and back")
struct MarshallingTests {
    @Test func valuesRoundTripThroughALuaFunction() throws {
        let runtime = try Runtime()
        let identity = try runtime.load(string: "return function(...) return ... end")
        let values: [ScriptValue] = [nil, true, 42, 2.5, "héllo", [1, "two", [3.0]], ["a": ["b": false], "n": -1]]
        // A trailing nil is no result: Lua drops it, as `return ...` does.
        #expect(try identity.call(values) == values)
    }

    @Test func luaTablesArriveAsArraysAndDictionaries() throws {
        let runtime = try Runtime()
        let made = try runtime.load(string: "return {list = {10, 20, 40}, packed = table.pack(10, nil, 30, nil), fn = print}")
        #expect(try made.value() == ["list": [10, 20, 40], "packed": [10, nil, 30, nil], "fn": .object("function")])
    }

    @Test func aTableThatContainsItselfIsRefused() throws {
        let runtime = try Runtime()
        let cycle = try runtime.load(string: "local t = {} t.next = {back = t} return t")
        let error = try #require(throws: ScriptError.self) { try cycle.value() }
        #expect(error.id == .badArgument)
    }

    @Test func aSharedTableIsReadOnceAndCopied() throws {
        let runtime = try Runtime()
        let shared = try runtime.load(string: "local s = {1} return {a = s, b = s}")
        #expect(try shared.value() == ["a": [1], "b": [1]])
    }

    struct Model: Encodable { var title: String; var count: Int; var tags: [String] }

    @Test func anEncodableModelReachesTheProvider() throws {
        let runtime = try Runtime()
        let app = try runtime.load(string: """
            local Label = ck.component("Label", {render = function() return nil end})
            return function(model) return Label({text = model.title .. #model.tags, n = model.count}) end
            """)
        let host = try runtime.mount(app, model: Model(title: "tags: ", count: 3, tags: ["a", "b"]))
        #expect(try host.find("Label")?.props == ["text": "tags: 2", "n": 3])
        try host.update(model: Model(title: "none: ", count: 0, tags: []))
        #expect(try host.find("Label")?.props == ["text": "none: 0", "n": 0])
        #expect(try host.generation == 2)
    }
}

@Suite("The tree as the command line shows it")
struct TreeTests {
    @Test func dumpAndJSONShowTheMountedTree() throws {
        let f = try PickerFixture()
        let dump = try f.host.dump()
        #expect(dump.contains("Picker"))
        #expect(dump.contains("UIButton"))
        let json = try f.host.json()
        #expect(json.hasPrefix("{\"class\": \"Picker\""))
        #expect(json.contains("\"title\": \"Pick\""))
        #expect(try f.host.dot().hasPrefix("digraph ckrun {"))
        #expect(try f.host.count("Button") == 1)
        #expect(try f.host.find("Nothing") == nil)
    }
}

@Suite("The clock from the program's run loop")
struct ClockTests {
    @Test func theVirtualClockFiresTimersWhenAdvanced() throws {
        let runtime = try Runtime()
        _ = try runtime.load(string: "fired = 0 ck.after(1, function() fired = fired + 1 end)")
        try runtime.advance(by: 0.5)
        #expect(try runtime.global("fired").value() == 0)
        #expect(try runtime.secondsUntilNextTimer == 0.5)
        try runtime.advance(by: 0.5)
        #expect(try runtime.global("fired").value() == 1)
        #expect(try runtime.secondsUntilNextTimer == nil)
    }

    @Test func aFailingTimerIsTimerFailed() throws {
        let runtime = try Runtime()
        _ = try runtime.load(string: "ck.after(0, function() error('late') end)", name: "timer.lua")
        let error = try #require(throws: ScriptError.self) { try runtime.runDueTimers() }
        #expect(error.id == .timerFailed)
        #expect(error.message.contains("late"))
    }
}

@Suite("Props and state as Swift values")
struct SnapshotTests {
    @Test func nestedPropsAndStateArriveAsPlainValues() throws {
        let runtime = try Runtime()
        let app = try runtime.load(string: """
            return ck.component("Card", {scope = true,
              initialState = function(props) return {seen = {props.item.name}} end,
              render = function() return nil end})
            """)
        let host = try runtime.mount(app, model: ["item": ["name": "tea", "tags": ["hot"]]])
        let card = try #require(try host.find("Card"))
        #expect(card.props == ["item": ["name": "tea", "tags": ["hot"]]])
        #expect(card.state == ["seen": ["tea"]])
    }

    /// A read-only props or state view Lua hands Swift stands for its table (atk-spec 02's class:
    /// every place that takes a table takes both views).
    @Test func readOnlyViewsReturnedToSwiftArriveAsTheirTables() throws {
        let runtime = try Runtime()
        let views = try runtime.load(string: """
            local C = ck.component("ViewsToSwift", {scope = true, initialState = {n = 1, list = {"a"}}})
            local h = ck.host(function() return C{m = 2} end)
            return function() return h.root.props, h.root.state, {inner = h.root.state} end
            """)
        #expect(try views.call() == [["m": 2], ["n": 1, "list": ["a"]], ["inner": ["n": 1, "list": ["a"]]]])
    }
}

@Suite("Search paths")
struct SearchPathTests {
    @Test func requireFindsAModuleInAnAddedDirectory() throws {
        let directory = "/tmp/ckruntime-search-\(getpid())"
        mkdir(directory, 0o755)
        defer { unlink(directory + "/greeting.lua"); rmdir(directory) }
        let file = fopen(directory + "/greeting.lua", "w")
        fputs("return 'hello from a module'", file)
        fclose(file)
        let runtime = try Runtime()
        try runtime.addSearchPath(directory)
        #expect(try runtime.load(string: "return require('greeting')").value() == "hello from a module")
        let error = try #require(throws: ScriptError.self) { try runtime.addSearchPath("/tmp/a;b") }
        #expect(error.id == .badArgument)
    }
}
