import CKCore
import CKTestHelpers
import Testing

/// Issue 13, classes 3 and 6 in the core: chains of any depth free without recursion, traces
/// keep a bounded amount, and `WorkLimits` stops Swift loops a script sizes.
@Suite("Depth and limits in the core")
struct CoreLimitsTests {
    private func chain(_ f: CoreFixture, depth: Int64) throws -> Host {
        let node = f.component("Node", scope: true, view: "UIView") { c in
            guard case .int(let d) = c.props, d > 0 else { return nil }
            return try f.make(c.componentClass, props: .int(d - 1))
        }
        return try Host(runtime: f.runtime) { _ in try f.make(node, props: .int(depth)) }
    }

    @Test func aHundredThousandDeepChainIsFreedWithoutDestroy() throws {
        let f = CoreFixture()
        var host: Host? = try chain(f, depth: 100_000)
        try host?.mount()
        #expect(try host?.dump { _ in "" }.split(separator: "\n").count == 100_001)
        host = nil
        #expect(host == nil)
    }

    @Test func aHundredThousandDeepChainUnmountsAndIsDestroyed() throws {
        let f = CoreFixture()
        let host = try chain(f, depth: 100_000)
        try host.mount()
        try host.unmount()
        try host.destroy()
    }

    @Test func aHundredThousandNestedStructTypesAreFreed() {
        var s = StructType(name: "S0", fields: [("x", .int)])
        for i in 1...100_000 { s = StructType(name: "S\(i)", fields: [("inner", .structure(s))]) }
        #expect(s.name == "S100000")
    }

    @Test func aTracerKeepsAtMostItsRecordLimit() throws {
        let f = CoreFixture()
        let host = try chain(f, depth: 3)
        try host.mount()
        let leaf = try #require(try host.findAll("Node").last)
        f.runtime.unhandledAction = .ignore
        let missing = f.runtime.selectorAction("missing", types: [])
        let tracer = Tracer(recordLimit: 20)
        f.runtime.tracer = tracer
        for _ in 0..<50 { _ = try f.runtime.send(missing, sender: .component(leaf), arguments: []) }
        f.runtime.tracer = nil
        #expect(tracer.isTruncated)
        #expect(tracer.entries.count < 20)
        let quiet = Tracer(keepsEntries: false)
        f.runtime.tracer = quiet
        for _ in 0..<50 { _ = try f.runtime.send(missing, sender: .component(leaf), arguments: []) }
        f.runtime.tracer = nil
        #expect(quiet.entries.isEmpty)
    }

    @Test func workLimitsStopADump() throws {
        let f = CoreFixture()
        let host = try chain(f, depth: 5_000)
        struct Stop: Error {}
        f.runtime.limits.check = { held in if held > 10_000 { throw Stop() } }
        #expect(throws: Stop.self) { try host.dump { _ in "" } }
        f.runtime.limits.check = { _ in }
    }
}
