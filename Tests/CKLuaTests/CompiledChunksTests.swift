@testable import CKLua
import CKCore
import Testing

/// Chunks compiled ahead on a thread of their own (`--jobs`' parent) load as the same
/// functions an engine compiles itself, and a chunk that does not compile there still reports
/// its own error where it is loaded.
@Suite("Chunks compiled ahead")
struct CompiledChunksTests {
    @Test func aChunkCompiledAheadIsTheChunkTheEngineWouldCompile() throws {
        let source: LuaSource = "local a, b = ... return a + b, debug.getinfo(1, 'S').source"
        let ahead = CompiledChunks(), inPlace = CompiledChunks()
        ahead.compileAhead([(name: "=(ahead)", source: source)])
        let engine = Engine()
        let function = try ahead.load(source, name: "=(ahead)", in: engine)
        let results = try engine.tools.call(function, [.int(2), .int(3)])
        guard results.count == 2, case .int(5) = results[0], case .string("=(ahead)") = results[1] else {
            Issue.record("results: \(results)")
            return
        }
        _ = try inPlace.load(source, name: "=(ahead)", in: engine)
        #expect(engine.bytecode(of: function) == inPlace.function("=(ahead)", in: engine).flatMap(engine.bytecode(of:)))
    }

    @Test func aChunkThatDoesNotCompileAheadReportsItsErrorWhereItIsLoaded() {
        let broken: LuaSource = "return +"
        let chunks = CompiledChunks()
        chunks.compileAhead([(name: "=(broken)", source: broken), (name: "=(fine)", source: "return 1")])
        let engine = Engine()
        #expect(throws: LuaError.self) { try chunks.load(broken, name: "=(broken)", in: engine) }
        let fine = try? engine.tools.call(try chunks.load("return 1", name: "=(fine)", in: engine), [])
        guard let fine, fine.count == 1, case .int(1) = fine[0] else { Issue.record("fine: \(String(describing: fine))"); return }
    }

    @Test func finishingWithoutLoadingKeepsWhatWasCompiled() throws {
        let chunks = CompiledChunks()
        chunks.compileAhead([(name: "=(kept)", source: "return 'kept'")])
        chunks.finishAhead()
        let engine = Engine()
        let function = try #require(chunks.function("=(kept)", in: engine) ?? (try? chunks.load("return 'other'", name: "=(kept)", in: engine)))
        let kept = try engine.tools.call(function, [])
        guard kept.count == 1, case .string("kept") = kept[0] else { Issue.record("kept: \(kept)"); return }
    }
}
