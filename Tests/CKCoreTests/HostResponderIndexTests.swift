import CKCore
import CKTestHelpers
import Testing

/// A table an action targets is the responder the first made tracked host lists it as
/// (`Runtime.hostResponder(forTable:)`), found by the table: sorting every host for each such
/// action cost more with each host mounted.
@Suite("Host responders by table")
struct HostResponderIndexTests {
    @Test func aTableIsTheFirstMadeTrackedHostsResponderAsHostsMountReloadAndEnd() throws {
        let f = CoreFixture()
        let leaf = f.component("Leaf")
        let table = ScriptRef(), other = ScriptRef()
        func responder(_ name: String, _ ref: ScriptRef = table) -> ScriptResponder {
            ScriptResponder(name: name, table: .table(ref), lookup: { _ in nil })
        }
        func found() -> String? { f.runtime.hostResponder(forTable: table.identity)?.name }
        let first = try Host(runtime: f.runtime, responders: [responder("A"), responder("A again")]) { _ in try f.make(leaf) }
        let second = try Host(runtime: f.runtime, responders: [responder("B")]) { _ in try f.make(leaf) }
        #expect(found() == nil, "no host is tracked")
        try second.mount()
        #expect(found() == "B")
        try first.mount()
        #expect(found() == "A", "the first made host's, at its first listing")
        try first.reload(provider: { _ in try f.make(leaf) }, responders: [responder("Other", other)], model: .nil)
        #expect(found() == "B", "a reload that drops the table")
        try first.reload(provider: { _ in try f.make(leaf) }, responders: [responder("C")], model: .nil)
        #expect(found() == "C")
        try first.destroy()
        #expect(found() == "B")
        try second.unmount()
        #expect(found() == nil)
        #expect(f.runtime.hostResponder(forTable: other.identity) == nil)
    }

    /// Hosts sharing one table mount and unmount in a scrambled order: the first made of those
    /// mounted is found each time.
    @Test func theFirstMadeOfManyHostsSharingATableIsFoundAsTheyComeAndGo() throws {
        let f = CoreFixture()
        let leaf = f.component("Leaf")
        let table = ScriptRef()
        let hosts = try (0..<64).map { i in
            try Host(runtime: f.runtime, responders: [ScriptResponder(name: "R\(i)", table: .table(table), lookup: { _ in nil })]) { _ in try f.make(leaf) }
        }
        var seed: UInt64 = 0x2545F4914F6CDD1D
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        var mounted = Set<Int>()
        for _ in 0..<2000 {
            let i = next(hosts.count)
            if mounted.contains(i) { try hosts[i].unmount(); mounted.remove(i) } else { try hosts[i].mount(); mounted.insert(i) }
            let expected = mounted.min().map { "R\($0)" }
            #expect(f.runtime.hostResponder(forTable: table.identity)?.name == expected)
        }
    }
}
