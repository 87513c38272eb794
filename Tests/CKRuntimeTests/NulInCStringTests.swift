import CKRuntime
import Foundation
import Testing

/// Attack embed 01: a Swift string holding NUL, handed to C as a C string, was cut at the NUL:
/// `load(file: "secret.txt\0.lua")` loaded secret.txt, a chunk name lost its tail, a search
/// path was accepted. Each such argument is refused, named, before anything reaches C.
/// (Names that cross as Lua strings, a global's or a selector's, keep every byte.)
@Suite("A string C would cut at a NUL byte is refused")
struct NulInCStringTests {
    @Test func aFilePathWithNulIsRefusedNotCut() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ck-nul-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = directory.appendingPathComponent("secret.txt").path
        try "return 'secret'".write(toFile: secret, atomically: true, encoding: .utf8)
        let runtime = try Runtime()
        let error = #expect(throws: ScriptError.self) { try runtime.load(file: secret + "\0.lua") }
        #expect(error?.id == .badArgument)
        #expect(error?.message.contains("load(file:)") == true)
        #expect(error?.message.contains("NUL") == true)
    }

    @Test func aChunkNameWithNulIsRefused() throws {
        let runtime = try Runtime()
        let error = #expect(throws: ScriptError.self) { try runtime.load(string: "return 1", name: "app.lua\0tail") }
        #expect(error?.id == .badArgument)
        #expect(error?.message.contains("name") == true)
    }

    @Test func aSearchPathWithNulIsRefused() throws {
        let runtime = try Runtime()
        let error = #expect(throws: ScriptError.self) { try runtime.addSearchPath("/tmp\0/evil") }
        #expect(error?.id == .badArgument)
        #expect(error?.message.contains("addSearchPath") == true)
    }
}
