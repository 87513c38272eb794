@testable import CKRunCommands
import CKLua
import Testing

/// The preludes compiled ahead: each piece is compiled once, by the thread or by the caller
/// (`help`, or a piece taken before the thread began it), and nothing is lost at `finish`.
@Suite("Preludes compiled ahead")
struct PreludesAheadTests {
    private static func pieces(_ count: Int) -> [PreludesAhead.Piece] {
        (0..<count).map { .chunk(name: "=(piece \($0))", source: LuaSource(bytes: Array("return \($0)".utf8))) }
    }

    @Test func everyPieceIsHandedOverOnceWhoeverCompiledIt() throws {
        let ahead = try #require(PreludesAhead(Self.pieces(40)))
        let first = ahead.chunk("=(piece 0)"), last = ahead.chunk("=(piece 39)")
        ahead.help()
        let (rest, modules) = ahead.finish()
        // Taken pieces are the taker's: compiled by the thread (bytes) or left to it (nil).
        let taken = [first, last].compactMap { $0 }.count
        #expect(rest.count + taken <= 40 && rest.count >= 38)
        #expect(Set(rest.map(\.0)).isDisjoint(with: ["=(piece 0)", "=(piece 39)"]))
        #expect(modules.isEmpty)
        #expect(ahead.finish().chunks.isEmpty)   // once
        #expect(ahead.chunk("=(piece 5)") == nil)
    }

    @Test func aChunkCompiledAheadIsTheEnginesOwn() throws {
        let ahead = try #require(PreludesAhead(Self.pieces(3)))
        ahead.help()
        let chunks = CompiledChunks()
        chunks.compileAhead(ahead)
        chunks.finishAhead()
        let engine = Engine()
        let function = try #require(chunks.function("=(piece 2)", in: engine))
        let results = try engine.tools.call(function, [])
        guard results.count == 1, case .int(2) = results[0] else { Issue.record("results: \(results)"); return }
    }
}
