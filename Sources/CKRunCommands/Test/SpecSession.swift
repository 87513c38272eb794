import CKCore
import CKLua
import Foundation

/// One test file's fresh Lua state with the spec language installed (Prelude/*.lua). The
/// whole file runs in one call into Lua (`T.run_file`); each piece of user code in it (the
/// file's body, a block's body, a hook, a test) gets its own time limit through `T.deadline`.
final class SpecSession {
    let engine: Engine

    init(settings: TestRunSettings) throws(LuaError) {
        engine = Engine(configuration: .init(
            sandbox: settings.sandbox, timeoutSeconds: nil, memoryLimitBytes: settings.memoryLimitBytes, pooledMemory: true))
        engine.limitClosing(to: settings.timeout)
        try SpecPrelude.install(in: engine)
        let memory = Catalogue.memoryLimit.message(
            "the test used more than its memory limit (\(settings.memoryLimitMB ?? 0) MB); raise --memory-limit or use less memory")
        let limits = try SpecPrelude.compiled.load(
            #"local T = _ENV["(ckrun test)"]; T.deadline, T.memory_message, T.clock = ...; select(4, ...)(coroutine); T.check_deadline = select(5, ...)"#,
            name: "=(ckrun test: limits)", in: engine)
        try engine.call(limits, [engine.deadlineFunction, .string(memory), engine.monotonicClockFunction,
                                 engine.hookCoroutinesFunction, engine.checkDeadlineFunction])
    }

    /// Calls `T[name](arguments...)` with string arguments; returns its result if it is a string.
    @discardableResult
    func call(_ name: String, _ arguments: String...) throws(LuaError) -> String? {
        let function = engine.field(name, of: engine.global("(ckrun test)"))
        return try engine.call(function, arguments.map(Value.string)).first.flatMap(engine.text)
    }

    /// busted's `--lang`: luassert's messages from `luassert.languages.LANG`, when it has one.
    func setLanguage(_ language: String) throws(LuaError) {
        let chunk = try SpecPrelude.compiled.load(#"""
            local lang = ...
            if pcall(require, "luassert.languages." .. lang) then require("say"):set_namespace(lang) end
            """#, name: "=(ckrun test: lang)", in: engine)
        try engine.call(chunk, [.string(language)])
    }

    /// Loads the test file and runs it; returns its results as `ResultRecords`. A file that
    /// does not compile throws.
    func run(code: LuaSource, path: String) throws(LuaError) -> String {
        engine.setArguments(script: path, arguments: [], interpreter: CommandLine.arguments.first ?? "ckrun")
        // `require` finds modules beside the test file and in the project root (SPEC §9).
        engine.installSiblingSearcher(directories: [Engine.directory(of: path), FileManager.default.currentDirectoryPath])
        let runFile = engine.field("run_file", of: engine.global("(ckrun test)"))
        let chunk = try engine.load(code, name: "@" + path)
        // No limit of its own (each piece of user code sets one); Ctrl-C stops it.
        let results = try engine.withDeadline(nil) { () throws(LuaError) in try engine.call(runFile, [chunk, .string(path)]) }
        return results.first.flatMap(engine.text) ?? ""
    }
}

/// Tracebacks without the runner's own frames.
enum Traceback {
    static func clean(_ traceback: String) -> String {
        let noise = ["(ckrun test", "[C]: in ?", "[C]: in function 'error'", "(...tail calls...)", "[C]: in function 'xpcall'"]
        let lines = traceback.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            !noise.contains { line.contains($0) }
        }
        return lines.count <= 1 ? "" : lines.joined(separator: "\n")
    }
}
