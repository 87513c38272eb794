import CKCore
import CKLua
import CLua
import CLuaShims
import Foundation

/// One test file's fresh Lua state with the spec language installed (Prelude/*.lua). The
/// whole file runs in one call into Lua (`T.run_file`); each piece of user code in it (the
/// file's body, a block's body, a hook, a test) gets its own time limit through `T.deadline`.
final class SpecSession {
    let engine: Engine

    init(settings: TestRunSettings) throws(LuaError) {
        engine = Engine(configuration: .init(
            sandbox: settings.sandbox, timeoutSeconds: nil, memoryLimitBytes: settings.memoryLimitBytes))
        try SpecPrelude.install(in: engine.lua)
        let lua = engine.lua
        let main = lua.L
        try lua.load(#"local T = _ENV["(ckrun test)"]; T.deadline, T.memory_message = ..."#, name: "=(ckrun test: limits)")
        lua.push { call in
            if lua_type(call.L, 1) == LUA_TNUMBER {
                ck_set_deadline(main, max(0, lua_tonumberx(call.L, 1, nil)))
            } else {
                ck_clear_deadline(main)
            }
            return 0
        }
        lua.push(Catalogue.memoryLimit.message(
            "the test used more than its memory limit (\(settings.memoryLimitMB ?? 0) MB); raise --memory-limit or use less memory"))
        try lua.call(arguments: 2, results: 0)
    }

    /// Calls `T[name](arguments...)` with string arguments; returns its result if it is a string.
    @discardableResult
    func call(_ name: String, _ arguments: String...) throws(LuaError) -> String? {
        let lua = engine.lua
        try lua.load(#"local T = _ENV["(ckrun test)"]; return T[(...)](select(2, ...))"#, name: "=(ckrun test: call)")
        lua.push(name)
        for argument in arguments { lua.push(argument) }
        try lua.call(arguments: Int32(1 + arguments.count), results: 1)
        defer { lua.pop() }
        return lua.string(at: -1)
    }

    /// Loads the test file and runs it; returns its results as JSON. A file that does not
    /// compile throws.
    func run(code: String, path: String) throws(LuaError) -> String {
        engine.setArguments(script: path, arguments: [], interpreter: CommandLine.arguments.first ?? "ckrun")
        let lua = engine.lua
        try lua.load(#"return _ENV["(ckrun test)"].run_file(...)"#, name: "=(ckrun test: run)")
        try lua.load(code, name: "@" + path)
        lua.push(path)
        try lua.call(arguments: 2, results: 1)
        defer { lua.pop() }
        return lua.string(at: -1) ?? "[]"
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
