import CKCore
@testable import CKRunCommands
import Testing

/// The trace of a block action's send (the outsider's React attack, 03: a block that ran was
/// reported as unhandled by `ck.trace`, `.trace on` and the live view's "Last tap").
@Suite("A block action's send, traced")
struct TapTraceTests {
    private func tracedBlockSend(parameters: Int) throws -> Tracer.Entry {
        let runtime = Runtime()
        var ran = 0
        let block = Method(name: "block", parameterCount: parameters, isVararg: false) { _, _ in ran += 1 }
        let action = runtime.blockAction(block, identity: .nil, types: [])
        let tracer = Tracer()
        runtime.tracer = tracer
        #expect(try runtime.send(action, sender: nil, arguments: []))
        #expect(ran == 1)
        return try #require(tracer.entries.first)
    }

    @Test func aBlockThatRanHandledTheSend() throws {
        let entry = try tracedBlockSend(parameters: 1)
        #expect(entry.handled)
        #expect(entry.handler == nil, "a block has no responder")
        #expect(entry.line == "(block) from nil: block (handled)")
    }

    @Test func theLastTapPanelSaysTheBlockHandledIt() throws {
        let lines = TapTrace.lines(of: try tracedBlockSend(parameters: 0), describe: { _ in "" }).map(\.text)
        #expect(lines.contains("  ✓ its block handled it"), "\(lines)")
        #expect(!lines.contains("  nobody handled it"), "\(lines)")
        #expect(lines.contains("  got nothing (no parameters)"), "\(lines)")
    }
}
