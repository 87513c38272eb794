import CKLua
import Foundation

/// After an app is idle, ckrun reads input until EOF: each line is evaluated like the REPL
/// does, then the run loop runs until idle again.
struct AppInput {
    let engine: Engine

    func run() throws {
        var failed = false
        var pending = ""
        while let line = readLine(strippingNewline: true) {
            pending += pending.isEmpty ? line : "\n" + line
            switch evaluate(pending) {
            case .incomplete: continue
            case .failed: failed = true
            case .done: break
            }
            pending = ""
            do { try engine.runUntilIdle() } catch {
                FileHandle.standardError.write(Data("ckrun: \(error.description)\n".utf8))
                failed = true
            }
        }
        _ = failed
    }

    enum Outcome { case done, incomplete, failed }

    private func evaluate(_ text: String) -> Outcome {
        let source = text.hasPrefix("=") ? "return " + text.dropFirst() : text
        let lua = engine.lua
        let base = lua.top
        do {
            do {
                try lua.load("return " + source, name: "=stdin")
            } catch {
                try lua.load(source, name: "=stdin")
            }
        } catch {
            if error.message.hasSuffix("<eof>") { return .incomplete }
            FileHandle.standardError.write(Data("ckrun: \(error.description)\n".utf8))
            return .failed
        }
        do {
            try engine.withLimits { () throws(LuaError) in try lua.call(arguments: 0, results: -1) }
            printResults(lua.top - base)
            return .done
        } catch {
            FileHandle.standardError.write(Data("ckrun: \(error.description)\n".utf8))
            return .failed
        }
    }

    private func printResults(_ n: Int32) {
        guard n > 0 else { return }
        let lua = engine.lua
        var parts: [String] = []
        for i in 0..<n { parts.append(lua.describe(at: lua.top - n + 1 + i)) }
        lua.pop(n)
        print(parts.joined(separator: "\t"))
    }
}
