import CKCore
import CKTestHelpers
import Testing

/// `ck.flush()` and the sync build look only at the hosts with work (issue 28); SPEC §3's order
/// (hosts build in the order they were made) holds whatever order their work was queued in.
@Suite("Hosts with work")
struct HostsWithWorkTests {
    @Test func flushBuildsHostsWithWorkInTheOrderTheyWereMade() throws {
        let f = CoreFixture()
        var built: [Int] = []
        var hosts: [Host] = []
        for index in 0..<6 {
            let counter = f.component("Counter\(index)", scope: true, initialState: .int(0)) { _ in
                built.append(index)
                return nil
            }
            let host = try Host(runtime: f.runtime) { _ in try f.make(counter) }
            try host.mount()
            hosts.append(host)
        }
        built = []
        for index in [4, 1, 3] {
            try hosts[index].enqueue(.value(.int(Int64(index))), for: hosts[index].root!.scope!, synchronous: false)
        }
        try f.runtime.flush()
        #expect(built == [1, 3, 4])
        built = []
        try f.runtime.flush()
        #expect(built.isEmpty, "nothing pending builds nothing")
        try hosts[5].enqueue(.value(.int(1)), for: hosts[5].root!.scope!, synchronous: true)
        #expect(built == [5], "a top-level sync update is built before it returns")
    }

    @Test func anUnmountedHostsUpdateIsBuiltByFlushAndThenLetGo() throws {
        let f = CoreFixture()
        var builds = 0
        let counter = f.component("Counter", scope: true, initialState: .int(0)) { _ in
            builds += 1
            return nil
        }
        let idle = try (0..<50).map { _ in try Host(runtime: f.runtime) { _ in try f.make(counter) } }
        for host in idle { try host.mount() }
        let host = try Host(runtime: f.runtime) { _ in try f.make(counter) }
        builds = 0
        try host.enqueue(.value(.int(7)), for: host.root!.scope!, synchronous: false)
        #expect(f.runtime.hasPendingUpdates)
        try f.runtime.flush()
        #expect(builds == 1 && !f.runtime.hasPendingUpdates)
        guard case .int(7) = host.root!.scope!.state else { Issue.record("state not built"); return }
    }

    /// An idle host may stay listed (no append and removal each update), but only while tracked:
    /// the list held a destroyed host, and an unmounted one its owner let go of, until a scan
    /// that might never come (Tests/soak/hosts.lua: 253 arenas rescued).
    @Test func aHostDestroyedWhileListedIdleIsNotHeld() throws {
        let f = CoreFixture()
        let counter = f.component("Counter", scope: true, initialState: .int(0))
        var host: Host? = try Host(runtime: f.runtime) { _ in try f.make(counter) }
        try host!.mount()
        try host!.enqueue(.value(.int(1)), for: host!.root!.scope!, synchronous: true)
        try host!.destroy()
        weak let destroyed = host
        host = nil
        #expect(destroyed == nil, "the list of hosts with work let go of it when it was destroyed")
        #expect(!f.runtime.hasPendingUpdates)
    }

    @Test func aHostNoLongerTrackedIsNotHeldOnceItsOwnerLetsGo() throws {
        let f = CoreFixture()
        let counter = f.component("Counter", scope: true, initialState: .int(0))
        var hosts: [Host] = []
        for _ in 0..<3 {
            let host = try Host(runtime: f.runtime) { _ in try f.make(counter) }
            try host.mount()
            try host.enqueue(.value(.int(1)), for: host.root!.scope!, synchronous: true)
            hosts.append(host)
        }
        try hosts[1].unmount()
        weak let unmounted = hosts[1]
        hosts.remove(at: 1)
        #expect(unmounted == nil, "unmounted, it left the list: its owner's was the last reference")
        // The others stay listed and still build, in the order they were made.
        try hosts[1].enqueue(.value(.int(2)), for: hosts[1].root!.scope!, synchronous: false)
        try hosts[0].enqueue(.value(.int(2)), for: hosts[0].root!.scope!, synchronous: false)
        #expect(f.runtime.hasPendingUpdates)
        try f.runtime.flush()
        #expect(!f.runtime.hasPendingUpdates)
        for host in hosts { guard case .int(2) = host.root!.scope!.state else { Issue.record("not built"); return } }
    }

    @Test func manyIdleHostsLeaveTheListAtTheNextScan() throws {
        let f = CoreFixture()
        var builds = 0
        let counter = f.component("Counter", scope: true, initialState: .int(0)) { _ in
            builds += 1
            return nil
        }
        let hosts = try (0..<30).map { _ in try Host(runtime: f.runtime) { _ in try f.make(counter) } }
        for host in hosts {
            try host.mount()
            try host.enqueue(.value(.int(1)), for: host.root!.scope!, synchronous: false)
        }
        builds = 0
        try f.runtime.flush()
        #expect(builds == hosts.count)
        #expect(!f.runtime.hasPendingUpdates)
        try hosts.last!.enqueue(.value(.int(2)), for: hosts.last!.root!.scope!, synchronous: true)
        #expect(builds == hosts.count + 1)
    }
}
