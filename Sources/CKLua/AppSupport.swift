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

    /// A run of the clock also stops after this many timers in all (sinon's runAll stops at 1,000
    /// in all): a timer that sets two each
    /// time it fires never reaches the chain limit in practice (2^1000 firings), and each
    /// firing is a short turn of its own, so no time limit ends the run.
    public static let timerRunLimit = 10_000

    /// Why a run of the clock stopped early, at `timer` (left pending).
    public struct TimerRunStop {
        public let timer: RunLoop.Timer
        /// The run reached `timerRunLimit` timers rather than a chain of `timerChainLimit`.
        public let byCount: Bool
    }

    /// Fires the timers due by `time` (nil: until none is left, the virtual clock's run until
    /// idle), each in a turn of its own with the build after it, then moves the clock to `time`.
    /// A timer's error goes to `report` as `[timerFailed]` and the run goes on, but Ctrl-C (or
    /// SIGTERM) in a timer ends the whole run, as it ends any turn. Returns where the run
    /// stopped when a chain reached `timerChainLimit` or the run `timerRunLimit`, else nil.
    public func fireTimers(until time: Double?, report: (LuaError) -> Void) -> TimerRunStop? {
        let loop = runtime.loop
        var chains: [Int: Int] = [:]
        var fired = 0
        while let next = loop.next, next.due <= (time ?? .infinity) {
            let length = chains.removeValue(forKey: next.id) ?? 0
            if length >= Self.timerChainLimit || fired >= Self.timerRunLimit {
                return TimerRunStop(timer: next, byCount: length < Self.timerChainLimit)
            }
            // (`chains` holds the timers set during this run that have not fired yet.)
            let before = loop.lastID
            fired += 1
            do throws(LuaError) {
                try turn { turn throws(LuaError) in try turn.fireNext() }
            } catch {
                report(error)
                if error.id == Catalogue.interrupted.rawValue { return nil }
            }
            for id in stride(from: before + 1, through: loop.lastID, by: 1) { chains[id] = length + 1 }
        }
        if let time { loop.advance(to: time) }
        return nil
    }

    /// The `[timerLoop]` warning for the timer a run stopped at, through `ck.config.onWarning`.
    /// On the wall clock such a timer is due at once each time: the run goes on serving input
    /// between rounds of it.
    public func warnTimerLoop(_ stop: TimerRunStop, onWallClock: Bool = false) {
        let now = runtime.loop.now
        let time = Int(exactly: now).map(String.init) ?? "\(now)"
        let hint = onWallClock ? "it is due at once each time: give it a delay, or stop re-arming it (ck.cancel)"
            : ".advance SECONDS moves the clock on, --clock wall runs it in real time"
        let what = stop.byCount
            ? "timers kept setting more timers: \(Self.timerRunLimit) fired in one run of the clock, so it stopped at \(time)s with this one (set here) pending; "
            : "a timer set here re-armed itself \(Self.timerChainLimit) times in a row, so the run of the clock stopped at \(time)s with it pending; "
        let site = stop.timer.site
        _ = try? turn { turn throws(LuaError) in turn.warn(.timerLoop, what + hint, at: site.isEmpty ? nil : site) }
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
            // Ctrl-C (or SIGTERM) stopped it: not the timer's failure, and the run ends with it.
            if e.id == Catalogue.interrupted.rawValue { throw e }
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
