import CKCore

/// What the app runner needs from the engine: the app's host, starting an app, and its timers.
extension Engine {
    /// The host of the running app (`ck.run`, or the provider a script returned).
    public var appHost: Host? { appHostObject }

    /// Runs core work from Swift, turning its errors into `LuaError`s for the command line.
    func protect(_ body: () throws -> Void) throws(LuaError) {
        do {
            try body()
        } catch let e as RuntimeError {
            throw LuaError(message: e.description)
        } catch let e as ScriptFailure {
            throw LuaError(message: e.message, traceback: e.traceback)
        } catch let e as BuildFailure {
            throw LuaError(message: e.message, traceback: e.traceback)
        } catch let e as LuaError {
            throw e
        } catch {
            throw LuaError(message: "\(error)")
        }
    }
}

extension Turn {
    /// Runs a file as lua loads it (its bytes as they are) and, if it is an app by the app rule,
    /// hosts and mounts it and binds `app`: the chunk, the provider, the first build and the mount
    /// are this one turn. Returns whether an app is running.
    public func runAppFile(_ path: String) throws(LuaError) -> Bool { try engine.runAppFile(path) }
}

extension Engine {
    /// A run of the clock stops at a timer whose chain of timers — each set while the one before
    /// fired — reached this length (a timer that re-arms itself, React's `setInterval` habit);
    /// sinon's fake timers stop at 1,000 too.
    public static let timerChainLimit = 1000

    /// Fires the timers due by `time` (nil: until none is left, the virtual clock's run until
    /// idle), each in a turn of its own with the build after it, then moves the clock to `time`.
    /// A timer's error goes to `report` as `[timerFailed]` and the run goes on. Returns the timer
    /// the run stopped at (left pending) when a chain reached `timerChainLimit`, else nil.
    public func fireTimers(until time: Double?, report: (LuaError) -> Void) -> RunLoop.Timer? {
        let loop = runtime.loop
        var chains: [Int: Int] = [:]
        while let next = loop.next, next.due <= (time ?? .infinity) {
            let length = chains.removeValue(forKey: next.id) ?? 0
            if length >= Self.timerChainLimit { return next }
            // (`chains` holds the timers set during this run that have not fired yet.)
            let before = loop.lastID
            do throws(LuaError) {
                try turn { turn throws(LuaError) in try turn.fireNext() }
            } catch {
                report(error)
            }
            for id in stride(from: before + 1, through: loop.lastID, by: 1) { chains[id] = length + 1 }
        }
        if let time { loop.advance(to: time) }
        return nil
    }

    /// The `[timerLoop]` warning for the timer a run stopped at, through `ck.config.onWarning`.
    /// On the wall clock such a timer is due at once each time: the run goes on serving input
    /// between rounds of it.
    public func warnTimerLoop(_ timer: RunLoop.Timer, onWallClock: Bool = false) {
        let now = runtime.loop.now
        let time = Int(exactly: now).map(String.init) ?? "\(now)"
        let hint = onWallClock ? "it is due at once each time: give it a delay, or stop re-arming it (ck.cancel)"
            : ".advance SECONDS moves the clock on, --clock wall runs it in real time"
        let detail = "a timer set here re-armed itself \(Self.timerChainLimit) times in a row, so the run of the clock "
            + "stopped at \(time)s with it pending; " + hint
        _ = try? turn { turn throws(LuaError) in turn.warn(.timerLoop, detail, at: timer.site.isEmpty ? nil : timer.site) }
    }
}

extension Turn {
    /// Fires the next timer and builds what it queued; its error is `[timerFailed]` naming where
    /// the timer was set, with the error's own message and traceback after it.
    fileprivate func fireNext() throws(LuaError) {
        let runtime = engine.runtime
        guard let timer = runtime.loop.popNext() else { return }
        engine.forgetInnerTraceback()
        do throws(LuaError) {
            try engine.protect {
                try runtime.perform { try timer.fire() }
                try runtime.flush()
            }
        } catch {
            let e = engine.restoringInnerTraceback(error)
            let detail = "a timer set here failed; the app goes on: " + e.message
            throw LuaError(message: Catalogue.timerFailed.message(detail, at: timer.site.isEmpty ? nil : timer.site),
                           traceback: e.traceback, status: e.status)
        }
    }
}

extension Engine {
    /// Defines a global Lua function backed by Swift (for tools such as `ckrun bench`).
    public func defineGlobalFunction(_ name: String, _ body: @escaping LuaState.SwiftFunction) {
        lua.pushSwiftFunction(lua.register(body))
        lua.setGlobal(name)
    }
}

extension Engine {
    /// Bytes malloc has handed out in this process: Lua's and Swift's allocations together.
    public static var heapBytes: Int { LuaState.heapBytes }
}

extension Engine {
    /// Forgets an interrupt that arrived after the chunk it was meant for had finished.
    public func clearInterrupt() { lua.clearInterrupt() }
}
