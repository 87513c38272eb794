@testable import CKLua
import CKCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Chunks and modules compiled ahead (`ChunkCompiler`, handed over through `ChunksAhead`) load
/// as the same functions an engine compiles itself; a chunk that does not compile there still
/// reports its own error where it is loaded; a module is used only while its path names the
/// very file it was compiled from.
@Suite("Chunks compiled ahead")
struct CompiledChunksTests {
    /// What a thread would have compiled, compiled here at once.
    final class Compiled: ChunksAhead {
        var chunks: [String: [UInt8]] = [:], modules: [String: CompiledModule] = [:]
        init(chunks: [(name: String, source: LuaSource)] = [], modules: [String] = []) {
            let compiler = ChunkCompiler()
            for chunk in chunks { self.chunks[chunk.name] = compiler.compile(chunk.source, name: chunk.name) }
            for name in modules { self.modules[name] = compiler.compileModule(name) }
        }
        func chunk(_ name: String) -> [UInt8]? { chunks.removeValue(forKey: name) }
        func module(_ name: String) -> CompiledModule? { modules.removeValue(forKey: name) }
        func finish() -> (chunks: [(String, [UInt8])], modules: [(String, CompiledModule)]) {
            defer { (chunks, modules) = ([:], [:]) }
            return (chunks.map { ($0.key, $0.value) }, modules.map { ($0.key, $0.value) })
        }
    }

    @Test func aChunkCompiledAheadIsTheChunkTheEngineWouldCompile() throws {
        let source: LuaSource = "local a, b = ... return a + b, debug.getinfo(1, 'S').source"
        let ahead = CompiledChunks(), inPlace = CompiledChunks()
        ahead.compileAhead(Compiled(chunks: [(name: "=(ahead)", source: source)]))
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
        chunks.compileAhead(Compiled(chunks: [(name: "=(broken)", source: broken), (name: "=(fine)", source: "return 1")]))
        let engine = Engine()
        #expect(throws: LuaError.self) { try chunks.load(broken, name: "=(broken)", in: engine) }
        let fine = try? engine.tools.call(try chunks.load("return 1", name: "=(fine)", in: engine), [])
        guard let fine, fine.count == 1, case .int(1) = fine[0] else { Issue.record("fine: \(String(describing: fine))"); return }
    }

    @Test func finishingWithoutLoadingKeepsWhatWasCompiled() throws {
        let chunks = CompiledChunks()
        chunks.compileAhead(Compiled(chunks: [(name: "=(kept)", source: "return 'kept'")]))
        chunks.finishAhead()
        let engine = Engine()
        let function = try #require(chunks.function("=(kept)", in: engine) ?? (try? chunks.load("return 'other'", name: "=(kept)", in: engine)))
        let kept = try engine.tools.call(function, [])
        guard kept.count == 1, case .string("kept") = kept[0] else { Issue.record("kept: \(kept)"); return }
    }

    /// A module file in a directory of its own, found through LUA_PATH (as every state's
    /// package.path starts), compiled ahead; `change` then rewrites it before it is looked up.
    private func lookUp(change: ((String) -> Void)? = nil, finishFirst: Bool = false) throws -> (Value?, String) {
        var template = Array("/tmp/ckrun-modules-XXXXXX".utf8CString)
        let directory = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        let path = directory + "/aheadmod.lua"
        func write(_ text: String) {
            let file = fopen(path, "w")
            fputs(text, file)
            fclose(file)
        }
        write("return debug.getinfo(1, 'S').source")
        let previous = getenv("LUA_PATH_5_4").map { String(cString: $0) }
        setenv("LUA_PATH_5_4", directory + "/?.lua;;", 1)
        defer { if let previous { setenv("LUA_PATH_5_4", previous, 1) } else { unsetenv("LUA_PATH_5_4") } }
        let chunks = CompiledChunks()
        chunks.compileAhead(Compiled(modules: ["aheadmod"]))
        if finishFirst { chunks.finishAhead() }
        change?(path)
        let engine = Engine()
        return (chunks.module("aheadmod", path: Array(path.utf8), in: engine).flatMap { try? engine.tools.call($0, []).first }, path)
    }

    @Test func aModuleCompiledAheadIsItsFilesChunk() throws {
        for finishFirst in [false, true] {
            let (source, path) = try lookUp(finishFirst: finishFirst)
            guard case .string(let text) = source else { Issue.record("source: \(String(describing: source))"); continue }
            #expect(text == "@" + path)
        }
    }

    @Test func aModuleWhoseFileChangedIsLoadedFromTheFile() throws {
        let (source, _) = try lookUp(change: { path in
            let file = fopen(path, "w")
            fputs("return 'changed since'", file)
            fclose(file)
        })
        #expect(source == nil)
    }
}
