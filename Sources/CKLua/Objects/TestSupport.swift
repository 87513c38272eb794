import CKCore
import CLua
import CLuaShims

/// What `ckrun test` asks of the runtime beyond the `ck` module (SPEC §9): each test isolated
/// (clock, timers, hosts) and luassert's test doubles on classes; and the runner's own functions in C (turns, records, stack lookups). The
/// engine's `testing`.
public struct TestSupport {
    // Strong: one lives for one call (`engine.testing`), as `ClassBridge` does.
    let engine: Engine

    /// `begin()`: before a test's `before_each` hooks: the virtual clock goes back to 0 and the
    /// hosts made from now on are noted (`Runtime.beginTest`).
    public var beginTestFunction: Value {
        engine.tools.function { [unowned engine] _ throws(LuaError) in
            engine.runtime.beginTest()
            engine.runtime.clearHandlerFailure()
            return []
        }
    }

    /// `f(message)`: the `[actionFailed]` line naming the handler whose error `message` is,
    /// when a send passed it on unchanged (SPEC §6.3), else nil; then the traceback taken where
    /// the handler raised it, if known (the report's own, taken after the send re-raised it,
    /// has none of the handler's frames; the same thread's frames below are in both). Forgets both.
    public var handlerLineFunction: Value {
        engine.tools.function { [unowned engine] arguments throws(LuaError) in
            defer { engine.forgetInnerTraceback() }
            guard case .string(let message)? = arguments.first,
                  let line = engine.runtime.lastHandlerFailure?.line(for: message) else { return [] }
            guard let inner = engine.lastScriptFailure, inner.message == message, !inner.traceback.isEmpty else { return [.string(line)] }
            return [.string(line), .string(Tracebacks.first(inner.traceback))]
        }
    }

    /// `end()`: after a test's `after_each` hooks: destroys the hosts it made and did not destroy,
    /// then cancels its timers (`Runtime.endTest`). Runs unmount callbacks: call it as user code.
    public var endTestFunction: Value {
        engine.tools.function { [unowned engine] _ throws(LuaError) in
            try engine.protect { try engine.runtime.endTest() }
            return []
        }
    }

    /// `f()`: the newest timer's id; `f(after, upTo)`: cancels the timers owned by one numbered
    /// above `after` up to `upTo` (what a block's `setup` set, and what those re-armed) when the
    /// block ends, as busted's insulation ends it.
    public var blockTimersFunction: Value {
        engine.tools.function { [unowned engine] arguments throws(LuaError) in
            let loop = engine.runtime.loop
            guard arguments.count >= 2, case .int(let after) = arguments[0], case .int(let upTo) = arguments[1] else {
                return [.int(Int64(loop.lastID))]
            }
            if upTo > after { loop.cancelTimers(ownedIn: Int(after + 1)...Int(upTo)) }
            return []
        }
    }

    /// `methods(x)`: true and the names of a component or controller class's methods, sorted;
    /// false for anything else. luassert's `stub` and `mock` take tables; the prelude hands them a
    /// stand-in for a class, and `mock` spies on these names.
    public var classMethodsFunction: Value {
        engine.tools.function { arguments throws(LuaError) in
            let names: [String]
            switch arguments.first {
            case .object(let c as ComponentClass)?: names = Array(c.methods.keys)
            case .object(let c as ControllerClass)?: names = Array(c.methods.keys)
            default: return [.bool(false)]
            }
            return [.bool(true)] + names.sorted().map(Value.string)
        }
    }

    /// The test runner's turns as a Lua function, `f(seconds [, runner])`: the time limit from now
    /// (nil: none) of the code about to run, and its memory limit: `--memory-limit` for user code,
    /// a reserve more for the runner's own (ckrunner.c). It costs no call into Swift.
    public var runnerTurnFunction: Value { cFunction(ckrunner_lua_turn) }

    /// `f(...)`: keeps a record of its arguments outside the Lua heap, where no Lua code reaches
    /// it (`testRecords` reads them): a test's result (name, line, status, output, seconds,
    /// message, traceback, own name, descriptor), a `.busted` key and its values.
    public var recordFunction: Value { cFunction(ckrunner_lua_record) }

    /// The results `recordFunction` kept so far, as `ResultRecords`.
    public var testRecords: [UInt8] {
        let L = engine.lua.L
        guard let bytes = ckrunner_records_bytes(L) else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: ckrunner_records_length(L)))
    }

    /// A reader of the whole records kept so far, safe on another thread while this state's
    /// thread records (a run's ending: `ckhandoff_whole_records`). Not after the state closed.
    public var wholeTestRecordsReader: () -> [UInt8] {
        let L = engine.lua.L
        return {
            var bytes: UnsafePointer<UInt8>?
            let count = ckhandoff_whole_records(L, &bytes)
            guard let bytes, count > 0 else { return [] }
            return Array(UnsafeBufferPointer(start: bytes, count: count))
        }
    }

    /// From now, the records of the state `share` names are written, with `prefix` and a
    /// newline, to `fd` whenever this thread gets `signal` (a `--jobs` worker's, for its parent).
    public static func shareRecords(on signal: Int32, to fd: Int32, prefix: [UInt8]) {
        prefix.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { ckhandoff_share_on(signal, fd, $0.baseAddress, $0.count) }
        }
    }

    /// Whose records the signal hands on: this state's while its file runs; `stopSharing` before it closes.
    public func share() { ckhandoff_share(engine.lua.L) }
    public static func stopSharing() { ckhandoff_share(nil) }
    /// From a signal handler on the recording thread: the records line written now.
    public static let writeSharedRecords: @convention(c) () -> Void = ckhandoff_write_shared

    /// `note_exit(message, status)`: notes the status of the first `os.exit` (`takeExitStatus`),
    /// and keeps one a finalizer called as the state closed (whose error lua_close swallows), for
    /// `takeClosingExit` once it closed.
    public var noteExitFunction: Value { cFunction(ckhandoff_lua_note_exit) }

    /// The status (0–255) of the first `os.exit` noted since the last take, no longer noted.
    public static func takeExitStatus() -> Int32? {
        let status = ckhandoff_take_exit_status()
        return status < 0 ? nil : status
    }

    /// The message of an `os.exit` a finalizer called as a state closed, no longer kept.
    public static func takeClosingExit() -> String? { ckhandoff_take_closing_exit().map { String(cString: $0) } }

    /// Forgets the results kept so far: a state that runs several test files reads each file's own.
    public func clearTestRecords() { ckrunner_records_clear(engine.lua.L) }

    /// ResultRecords' one escaper (the one `recordFunction` writes with): `text` as a field, or
    /// nil's mark, each ended by 0x1F.
    public static func appendRecordField(_ text: String?, to out: inout [UInt8]) {
        guard let text else { return out += [0x1D, 0x30, 0x1F] }
        // The bytes it carries (`ByteText`): a file named in bytes that are not UTF-8 comes back
        // from a `--jobs` worker as the name the parent asked for, not as a private-use scalar's four.
        ByteText.bytes(of: text).withUnsafeBufferPointer { bytes in
            let start = out.count
            out += repeatElement(0, count: 2 * bytes.count + 1)
            let written = out.withUnsafeMutableBufferPointer { buffer in
                bytes.withMemoryRebound(to: CChar.self) { ckrunner_escape_field($0.baseAddress, $0.count, buffer.baseAddress! + start) }
            }
            out.removeLast(out.count - start - written)
        }
    }

    /// `f()`: raises `[timeout]` once the time limit passed, for a Lua hook that takes the place
    /// of the limit's own (the test runner's coverage hook on a coroutine).
    public var checkDeadlineFunction: Value { cFunction(ckwatchdog_lua_check_deadline) }
    /// `memory_place()`: "file:line: " where Lua's last allocation failed, then forgotten.
    public var memoryPlaceFunction: Value { cFunction(ckalloc_lua_struck_place) }

    /// A Lua function returning a monotonic time in seconds (no system call: the vDSO's clock).
    public var monotonicClockFunction: Value { cFunction(ckrunner_lua_monotonic_clock) }

    /// `f(coroutine)`: new coroutines carry the time limit's hook, and the main thread runs
    /// user code without one (a hook makes Lua trace every instruction).
    public var hookCoroutinesFunction: Value { cFunction(ckcoroutines_lua_hook) }

    /// The test runner's stack lookups without a table per frame (ckframes.c): `f(level [,
    /// skip_luassert])` → short_src, currentline of the first frame outside the runner.
    public var userFrameFunction: Value { cFunction(ckframes_lua_user_frame) }

    /// luassert's `util.errorlevel`, in C (ckframes.c).
    public var errorLevelFunction: Value { cFunction(ckframes_lua_errorlevel) }

    private func cFunction(_ f: lua_CFunction) -> Value {
        let L = engine.lua.L
        lua_pushcclosure(L, f, 0)
        defer { ckmacros_pop(L, 1) }
        return engine.values.value(at: -1, L)
    }
}
