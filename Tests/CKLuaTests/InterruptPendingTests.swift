import CKCore
@testable import CKLua
import Foundation
import Testing

/// Ctrl-C stays pending until its turn ends, as the time limit does past its deadline: a
/// `pcall`, `coroutine.resume`, `wrap`, `close` or `xpcall` that caught `[interrupted]` does not
/// end it, the next instruction of whatever thread runs raises it again (atk-new2 08: the main
/// thread went on after `resume` returned it, and the next coroutine was never stopped). The
/// next turn runs untouched. In a process of its own (an exit test): a turn takes SIGINT.
@Suite("Ctrl-C pending until its turn ends")
struct InterruptPendingTests {
    /// Each chunk calls `interrupt` (what SIGINT's handler does) where a catch takes its first
    /// raise, then would go on; it must end its turn with `[interrupted]` instead.
    static let catchers: [String] = [
        // coroutine.resume: the coroutine stopped, its error returned; the next one ran on.
        "local co = coroutine.create(function() interrupt() for j = 1, 10 do end end)\n"
            + "local ok = coroutine.resume(co)\n"
            + "return ok, coroutine.resume(coroutine.create(function() return 'ran' end))",
        "return pcall(interrupt), select('#', 1, 2)",
        "local ok = pcall(coroutine.wrap(function() interrupt() for j = 1, 10 do end end))\nreturn ok, 'went on'",
        "local ok = xpcall(function() interrupt() for j = 1, 10 do end end, function(e) return e end)\nreturn ok, 'went on'",
        // coroutine.close: its __close handler stopped, the error returned by close.
        "local co = coroutine.create(function()\n"
            + "  local x <close> = setmetatable({}, {__close = function() interrupt() for j = 1, 10 do end end})\n"
            + "  coroutine.yield()\nend)\n"
            + "coroutine.resume(co)\nlocal ok = coroutine.close(co)\nreturn ok, 'went on'",
    ]

    @Test func aCaughtCtrlCEndsItsTurnAndTheNextTurnRuns() async {
        await #expect(processExitsWith: .success) {
            let engine = Engine(configuration: .init())
            let interrupt = engine.tools.function { [unowned engine] _ throws(LuaError) in
                engine.interrupt()
                return []
            }
            for (n, source) in Self.catchers.enumerated() {
                let chunk = try engine.tools.load(LuaSource(bytes: ("local interrupt = ...\n" + source).utf8), name: "=catch")
                do {
                    let results = try engine.turn { turn throws(LuaError) in try turn.call(chunk, [interrupt]) }
                    print("chunk \(n) went on: \(results)")
                    exit(1)
                } catch {
                    guard let e = error as? LuaError, e.id == "interrupted", e.message.contains("catch:") else {
                        print("chunk \(n): \(error)")
                        exit(2)
                    }
                }
                // The turn ended, and its interruption with it.
                let next = try engine.tools.load("local n = 0 for i = 1, 1e5 do n = n + 1 end return n", name: "=next")
                let results = try engine.turn { turn throws(LuaError) in try turn.call(next) }
                guard case .int(100_000)? = results.first else { print("next turn: \(results)"); exit(3) }
            }
            exit(0)
        }
    }
}
