import CKRuntime
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Says which thread released it.
final class ThreadWitness: @unchecked Sendable {
    private let released: (pthread_t) -> Void
    init(_ released: @escaping (pthread_t) -> Void) { self.released = released }
    deinit { released(pthread_self()) }
}

/// A host, an action or a Lua value let go on another thread than the runtime's is handed
/// over untouched and let go by the runtime's next call, on its own thread: the core's objects
/// count references without atomics, so the dropping thread must not even copy them (h-lib3:
/// `ComponentHost.deinit` read its core host there). The race itself needs a release build and
/// a lost count to show; these pin down where and when everything goes.
@Suite("What another thread lets go waits for the runtime's next call")
struct DroppedElsewhereTests {
    static let panel = """
        invalidated = 0
        ck.controller("PanelController", {invalidateController = function(self) invalidated = invalidated + 1 end})
        return ck.component("Panel", {scope = true, render = function() return nil end, poke = function() end})
        """

    /// A host of `panel` whose one Swift handler holds a witness reporting to `released`.
    static func mountWitnessed(_ runtime: Runtime, _ panel: ScriptObject,
                               _ released: @escaping (pthread_t) -> Void) throws -> ComponentHost {
        var responder = HostResponder(name: "VC")
        let witness = ThreadWitness(released)
        responder.on("never") { _ in withExtendedLifetime(witness) {} }
        return try runtime.mount(panel, responders: [responder])
    }

    static func invalidated(_ runtime: Runtime) -> Int {
        (try? runtime.global("invalidated").value())?.intValue ?? -1
    }

    @Test func aHostDroppedOnAnotherThreadDuringACallIsDestroyedByTheNextOnTheRuntimesThread() throws {
        let fixture = try InsideACall()
        let runtime = fixture.runtime
        let panel = try runtime.load(string: Self.panel, name: "panel.lua")
        nonisolated(unsafe) var releasedOn: pthread_t?
        nonisolated(unsafe) var host: ComponentHost? = try Self.mountWitnessed(runtime, panel) { releasedOn = $0 }
        nonisolated(unsafe) var action: Action? = try host?.action("poke", to: .scope("Panel"))
        nonisolated(unsafe) var during: (before: Int, after: Int, released: Bool) = (-1, -1, true)
        #expect(action != nil)
        try fixture.whileInside {
            during.before = Self.invalidated(runtime)
            onAnotherThread { action = nil; host = nil }
            during.after = Self.invalidated(runtime)
            during.released = releasedOn != nil
        }
        #expect(during.before == 0 && during.after == 0, "the host was destroyed beside the running call")
        #expect(!during.released, "its Swift handlers were released beside the running call")
        #expect(Self.invalidated(runtime) == 1, "the next call destroyed it")
        let runtimeThread = pthread_self()
        #expect(releasedOn.map { pthread_equal($0, runtimeThread) != 0 } == true,
                "its Swift handlers were released on the runtime's thread")
    }

    /// Dropped on another thread while no call runs, a host is still let go by the runtime's
    /// next call, not by the dropping thread (which took the runtime to release its handlers and
    /// read its core host: a call its owner started meanwhile was refused).
    @Test func aHostDroppedOnAnotherThreadWhileNoCallRunsIsLetGoByTheNextCall() throws {
        let runtime = try Runtime()
        let panel = try runtime.load(string: Self.panel, name: "panel.lua")
        nonisolated(unsafe) var releasedOn: pthread_t?
        nonisolated(unsafe) var host: ComponentHost? = try Self.mountWitnessed(runtime, panel) { releasedOn = $0 }
        #expect(host != nil)
        onAnotherThread { host = nil }
        #expect(releasedOn == nil, "the dropping thread released its Swift handlers")
        #expect(Self.invalidated(runtime) == 1, "the next call destroyed it")
        let runtimeThread = pthread_self()
        #expect(releasedOn.map { pthread_equal($0, runtimeThread) != 0 } == true)
    }

    /// Many hosts dropped on one thread while another keeps calling the runtime: every one is
    /// destroyed once, its handlers released on the calling thread (under ThreadSanitizer, the
    /// dropping thread touches nothing the calls touch).
    @Test func hostsDroppedOnAnotherThreadWhileCallsRunAreEachDestroyedOnce() throws {
        let runtime = try Runtime()
        let panel = try runtime.load(string: Self.panel, name: "panel.lua")
        let busy = try runtime.mount(panel)
        let poke = try busy.action("poke", to: .scope("Panel"))
        let count = 100
        let releases = Releases()
        nonisolated(unsafe) var hosts: [ComponentHost] = try (0..<count).map { _ in
            try Self.mountWitnessed(runtime, panel) { releases.note($0) }
        }
        let dropped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while !hosts.isEmpty { hosts.removeLast() }
            dropped.signal()
        }
        while dropped.wait(timeout: .now()) == .timedOut { try poke.send() }
        try poke.send()
        #expect(Self.invalidated(runtime) == count)
        #expect(releases.threads.count == count)
        let runtimeThread = pthread_self()
        #expect(releases.threads.allSatisfy { pthread_equal($0, runtimeThread) != 0 })
    }

    private final class Releases: @unchecked Sendable {
        private let lock = NSLock()
        private var noted: [pthread_t] = []
        func note(_ thread: pthread_t) { lock.withLock { noted.append(thread) } }
        var threads: [pthread_t] { lock.withLock { noted } }
    }
}
