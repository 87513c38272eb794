import CKRuntime
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The Lua heap after two full collections, in bytes.
func collectedHeapBytes(_ runtime: Runtime) throws -> Double {
    let heap = try runtime.load(string: "collectgarbage('collect') collectgarbage('collect') return collectgarbage('count') * 1024",
                                name: "heap").value()
    return try #require(heap.doubleValue)
}

/// How much the Lua heap grew (after full collections) over 9,000 runs of `cycle`, after 1,000
/// to reach its high-water marks.
func heapGrowth(_ runtime: Runtime, _ cycle: () throws -> Void) throws -> Double {
    for _ in 0..<1_000 { try cycle() }
    let after1k = try collectedHeapBytes(runtime)
    for _ in 0..<9_000 { try cycle() }
    return try collectedHeapBytes(runtime) - after1k
}

/// The process's resident bytes (Linux's /proc/self/statm; 0 elsewhere).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * 4096 : 0
}

/// Makes and drops `count` runtimes, each with the picker mounted by `mount` and never destroyed.
func dropRuntimes(_ count: Int, _ mount: (Runtime) throws -> Void) throws {
    for _ in 0..<count {
        let runtime = try Runtime()
        try mount(runtime)
    }
}

/// An object whose release a weak reference sees.
final class Canary {}

@Suite("What a mount leaves behind, and when a runtime is freed")
struct LifetimeTests {
    /// Outsider break 1: each mount and destroy left about 660 bytes in the Lua heap for good.
    @Test func mountingAndDestroyingKeepsTheLuaHeapFlat() throws {
        let runtime = try Runtime()
        let picker = try runtime.load(string: pickerSource, name: "picker.lua")
        var responder = HostResponder(name: "ViewController")
        responder.on("picked") { _ in }
        let growth = try heapGrowth(runtime) {
            let host = try runtime.mount(picker, model: ["title": "t"], responders: [responder])
            try host.destroy()
        }
        #expect(growth < 8_192, "the heap grew \(growth) bytes over 9,000 mounts")
    }

    /// A host dropped without destroy() is destroyed and released as one that was.
    @Test func droppingAHostWithoutDestroyKeepsTheLuaHeapFlat() throws {
        let runtime = try Runtime()
        let picker = try runtime.load(string: pickerSource, name: "picker.lua")
        var responder = HostResponder(name: "ViewController")
        responder.on("picked") { _ in }
        let growth = try heapGrowth(runtime) {
            _ = try runtime.mount(picker, model: ["title": "t"], responders: [responder])
        }
        #expect(growth < 8_192, "the heap grew \(growth) bytes over 9,000 mounts")
    }

    /// A destroyed host's Swift responders (and what their handlers captured) are released.
    @Test func aDestroyedHostReleasesItsSwiftHandlers() throws {
        let runtime = try Runtime()
        let picker = try runtime.load(string: pickerSource, name: "picker.lua")
        weak var captured: Canary?
        try {
            let canary = Canary()
            captured = canary
            var responder = HostResponder(name: "ViewController")
            responder.on("picked") { _ in _ = canary }
            let host = try runtime.mount(picker, responders: [responder])
            try host.destroy()
        }()
        _ = try collectedHeapBytes(runtime)
        #expect(captured == nil)
    }

    /// A host whose last reference a collected Swift handler held goes inside Lua's collector,
    /// where no Lua may run: it is destroyed when the next call starts.
    @Test func aHostReleasedByACollectionIsDestroyedAtTheNextCall() throws {
        let runtime = try Runtime()
        let picker = try runtime.load(string: pickerSource, name: "picker.lua")
        let trackedHosts = try runtime.load(string: "return function() return ck.stats().hosts end")
        weak var weakHeld: CKRuntime.Host?
        var holder: CKRuntime.Host?
        try {
            let held = try runtime.mount(picker)
            weakHeld = held
            var responder = HostResponder(name: "Holder")
            responder.on("picked") { _ in _ = held }
            holder = try runtime.mount(picker, responders: [responder])
        }()
        #expect(try trackedHosts.call() == [2])
        try holder?.destroy()
        holder = nil
        _ = try collectedHeapBytes(runtime)
        #expect(weakHeld == nil)
        #expect(try trackedHosts.call() == [0])
    }

    /// Outsider break 2: a runtime that mounted a host was never freed (about 30 KB each).
    @Test func aRuntimeWithMountedHostsIsFreedWithThem() throws {
        weak var weakRuntime: Runtime?
        weak var weakHost: CKRuntime.Host?
        weak var weakAction: Action?
        try {
            let runtime = try Runtime()
            let picker = try runtime.load(string: pickerSource, name: "picker.lua")
            var responder = HostResponder(name: "ViewController")
            responder.on("picked") { _ in }
            let host = try runtime.mount(picker, responders: [responder])
            let action = try host.action("select", types: ["int", "Point"], to: .scope("Picker"))
            try action.send([1, ["x": 1.0, "y": 2.0]])
            weakRuntime = runtime
            weakHost = host
            weakAction = action
        }()
        #expect(weakRuntime == nil)
        #expect(weakHost == nil)
        #expect(weakAction == nil)
    }

    @Test func aRuntimeThatMountedAndDestroyedAHostIsFreed() throws {
        weak var weakRuntime: Runtime?
        try {
            let runtime = try Runtime()
            let host = try runtime.mount(try runtime.load(string: pickerSource, name: "picker.lua"))
            try host.destroy()
            weakRuntime = runtime
        }()
        #expect(weakRuntime == nil)
    }

    /// Outsider break 2, measured: a runtime dropped with its host still mounted left its host's
    /// views and components behind (each held the other until an unmount), about 28 KB a
    /// runtime. In a process of its own, so other tests' memory does not count.
    @Test func runtimesDroppedWithMountedHostsLeaveNothing() async {
        await #expect(processExitsWith: .success) {
            let mountFromSwift: (Runtime) throws -> Void = { runtime in
                var responder = HostResponder(name: "ViewController")
                responder.on("picked") { _ in }
                _ = try runtime.mount(try runtime.load(string: pickerSource), responders: [responder])
            }
            // A host a script made and kept mounted: no Swift Host destroys it.
            let mountFromLua: (Runtime) throws -> Void = { runtime in
                try runtime.load(string: "local Picker = (function() \(pickerSource) end)()\nkept = ck.host(Picker, {model = {}})\nkept:mount()")
            }
            for mount in [mountFromSwift, mountFromLua] {
                try dropRuntimes(50, mount)
                let before = residentBytes()
                try dropRuntimes(400, mount)
                let grown = residentBytes() - before
                if grown > 4 << 20 { exit(1) }
            }
            exit(0)
        }
    }
}

@Suite("What the runtime stores for the program does not keep the runtime")
struct RuntimeKeepingTests {
    /// Attack lib 09: a handler capturing only its runtime kept it (and its Lua state) alive
    /// after destroy(): the runtime's own tables held the handler until a collection.
    @Test func aHandlerCapturingItsRuntimeLetsItGoAfterDestroy() throws {
        #expect(try runtimeFreed(destroyingTheHost: true))
    }

    /// The same handler on a host dropped without destroy().
    @Test func aHandlerCapturingItsRuntimeLetsItGoWhenTheHostIsDropped() throws {
        #expect(try runtimeFreed(destroyingTheHost: false))
    }

    /// Mounts a host whose responder's handler captures its runtime, then lets everything go.
    private func runtimeFreed(destroyingTheHost destroy: Bool) throws -> Bool {
        weak var weakRuntime: Runtime?
        try {
            let runtime = try Runtime()
            weakRuntime = runtime
            var responder = HostResponder(name: "VC")
            responder.on("picked") { _ in _ = try runtime.now }
            let host = try runtime.mount(try runtime.load(string: pickerSource, name: "picker.lua"), responders: [responder])
            if destroy { try host.destroy() }
        }()
        return weakRuntime == nil   // describing a live one for the failure crashed the test
    }

    /// Attack lib 08: a Button's target action on its own component kept every build's
    /// component (~1 KB of Lua heap each, and native memory) for the runtime's life.
    @Test func targetActionsOnTheirOwnComponentKeepTheHeapFlat() throws {
        let runtime = try Runtime()
        let card = try runtime.load(string: """
            return ck.component("Card", {
              render = function(self) return ck.Button{title = "buy", action = ck.action(self, "buy")} end,
              buy = function(self) end})
            """, name: "card.lua")
        let host = try runtime.mount(card)
        for i in 0..<200 { try host.update(model: ["i": .int(i)]) }
        let before = try collectedHeapBytes(runtime)
        for i in 0..<1_000 { try host.update(model: ["i": .int(i)]) }
        let growth = try collectedHeapBytes(runtime) - before
        // It was ~650 KB. What is left is a bounded high-water mark (a selector action shows it too).
        #expect(growth < 200_000, "the heap grew \(growth) bytes over 1,000 builds")
        #expect(try host.tap("Card") == 1)
    }
}


/// Attack lib 15: with Foundation imported (as this file does), `Host` is ambiguous on Linux and
/// macOS; the host's own name is not. This compiles only while `ComponentHost` exists.
@Suite("The host's name beside Foundation")
struct HostNameTests {
    @Test func componentHostNeedsNoModuleName() throws {
        let runtime = try Runtime()
        let host: ComponentHost = try runtime.mount(try runtime.load(string: pickerSource, name: "picker.lua"))
        let earlier: CKRuntime.Host = host
        #expect(earlier === host)
        try host.destroy()
    }
}
