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
}
