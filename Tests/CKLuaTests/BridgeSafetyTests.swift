import CKCore
import CLua
@testable import CKLua
import Testing

@Suite("The Lua bridge is safe")
struct BridgeSafetyTests {
    @Test func luaRuntimeErrorReachesSwiftWithTraceback() throws {
        let engine = Engine()
        do {
            try engine.runChunk("local function inner() error('kaboom') end\nlocal function outer() inner() end\nouter()", name: "=chunk")
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "chunk:1: kaboom")
            #expect(error.traceback.hasPrefix("stack traceback:"))
            #expect(error.traceback.contains("in local 'inner'") || error.traceback.contains("in function 'inner'")
                    || error.traceback.contains("inner"))
            #expect(error.traceback.contains("outer"))
        }
    }

    @Test func swiftErrorInCallbackIsCaughtByLuaPcall() throws {
        let engine = Engine()
        try engine.runChunk("""
            local ok, err = pcall(ck.action, 42)
            assert(not ok)
            assert(err:find("^%[badArgument%]"), err)
            assert(err:find("ck.action"), err)
            result = err
            """, name: "=t")
        #expect(try engine.lua.evaluate("return result")?.contains("argument #1 (target)") == true)
    }

    @Test func uncaughtSwiftErrorReachesTheHost() {
        let engine = Engine()
        #expect(throws: LuaError.self) { try engine.runChunk("ck.component()", name: "=t") }
        do {
            try engine.runChunk("\nck.component()", name: "=t")
        } catch {
            #expect(error.id == "badArgument")
            #expect(error.message.contains("t:2:"))
        }
    }

    @Test func erroringIndexDoesNotUnwindSwift() throws {
        let engine = Engine()
        // ck reads option and prop tables raw: a trapped __index is never run by Swift.
        try engine.runChunk("""
            local trap = setmetatable({}, {__index = function() error("trap ran") end})
            local App = ck.component("App", {render = function() return ck.Text{text = "hi"} end})
            local h = ck.host(function() return App(trap) end, trap)
            assert(h.root.name == "App")
            """, name: "=t")
        // Swift asking Lua for tostring of a value whose __tostring errors gets a message back.
        try engine.lua.load("return setmetatable({}, {__tostring = function() error('bad tostring') end})", name: "=t")
        try engine.lua.call(arguments: 0, results: 1)
        let text = engine.lua.describe(at: -1)
        engine.lua.pop()
        #expect(text.contains("bad tostring"))
        // And a metamethod error inside a runtime call comes back as an ordinary Lua error.
        #expect(throws: LuaError.self) {
            try engine.runChunk("""
                local h = ck.host(function() return ck.Text{text = setmetatable({}, {__index = function() error('x') end})} end)
                local bad = setmetatable({}, {__eq = function() error("eq ran") end})
                local App = ck.component("Loud", {render = function() error("render failed") end})
                ck.host(App)
                """, name: "=t")
        }
    }

    @Test func handleCyclesLeaveRegistryAndObjectsFlat() throws {
        let engine = Engine()
        try engine.runChunk("""
            App = ck.component("App", {render = function(self, props) return ck.Text{text = props.n} end})
            App{n = 0} -- the first construction makes the engine's spare graves (Burial.swift)
            collectgarbage()
            """, name: "=t")
        let handles = engine.liveHandles
        let refs = engine.liveReferences
        try engine.runChunk("""
            for i = 1, 100000 do
              local a = ck.action("tap" .. (i % 7), {"int"})
              local c = App{n = i}
              assert(a.kind == "selector" and c.props.n == i)
            end
            collectgarbage(); collectgarbage()
            """, name: "=t")
        #expect(engine.liveHandles == handles)
        #expect(engine.liveReferences == refs)
    }

    @Test func releasedObjectsAreFreedInSwift() throws {
        let engine = Engine()
        try engine.runChunk("probe = ck.action('x')", name: "=t")
        weak var probe: RuntimeObject?
        do {
            try engine.lua.load("return probe", name: "=t")
            try engine.lua.call(arguments: 0, results: 1)
            probe = engine.values.value(at: -1).object
            engine.lua.pop()
        }
        #expect(probe != nil)
        try engine.runChunk("probe = nil collectgarbage() collectgarbage()", name: "=t")
        #expect(probe == nil)
    }

    @Test func sameObjectIsAlwaysTheSameLuaValue() throws {
        let engine = Engine()
        try engine.runChunk("""
            local App = ck.component("App", {scope = true, render = function() return ck.Button{title = "b"} end})
            local h = ck.host(App)
            h:mount()
            local root = h.root
            collectgarbage(); collectgarbage()
            assert(rawequal(root, h.root))
            assert(rawequal(h:find("App"), root))
            local seen = {[root] = true}
            assert(seen[h.root])
            local button = h:find("Button")
            assert(rawequal(button.view, h:find("Button").view))
            assert(rawequal(ck.componentOf(button.view), button))
            assert(rawequal(ck.responderChain(button)[2], root))
            """, name: "=t")
    }

    @Test func metatablesAreProtected() throws {
        let engine = Engine()
        try engine.runChunk("""
            local a = ck.action("x")
            assert(getmetatable(a) == "locked")
            assert(not pcall(setmetatable, a, {}))
            assert(getmetatable(ck.config) == "locked")
            """, name: "=t")
    }
}
