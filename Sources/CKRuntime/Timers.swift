import CKCore
import CKLua

/// The clock, driven from the program's own run loop.
extension Runtime {
    /// The clock's reading in seconds: the virtual clock's time, or the wall clock's seconds
    /// since the runtime was made.
    public var now: Double {
        clock == .wall ? max(engine.runtime.loop.now, wallSeconds) : engine.runtime.loop.now
    }

    /// Seconds until the next timer is due (0 when one is due already), or nil when none is set.
    public var secondsUntilNextTimer: Double? {
        engine.runtime.loop.nextDue.map { max(0, $0 - now) }
    }

    /// Moves the clock `seconds` on, firing the timers due by then in order, each with the
    /// build after it. The first timer error is thrown after the run (``ErrorID/timerFailed``);
    /// a timer that keeps re-arming with no delay stops the run with ``ErrorID/timerLoop``.
    /// A negative, infinite or NaN `seconds` is ``ErrorID/badArgument``, as `ck.advance`'s is.
    public func advance(by seconds: Double) throws(ScriptError) {
        guard seconds >= 0, seconds.isFinite else {
            throw ScriptError(.badArgument, "advance(by:) takes a finite number of seconds, 0 or more, got \(seconds); the clock only moves on")
        }
        try runTimers(until: engine.runtime.loop.now + seconds)
    }

    /// Fires what is due now: on the wall clock the timers due by the time since the runtime
    /// was made; on the virtual clock every timer, until none is left (a timer that keeps
    /// re-arming stops the run: ``ErrorID/timerLoop`` is thrown).
    public func runDueTimers() throws(ScriptError) {
        try runTimers(until: clock == .wall ? wallSeconds : nil)
    }

    private var wallSeconds: Double {
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// Fires the timers due by `time`; the first timer's error is thrown, else a run stopped by
    /// a re-arming timer is ``ErrorID/timerLoop``, as `ck.advance` raises it (it was a warning
    /// on standard error and a normal return: attack lib2 10).
    private func runTimers(until time: Double?) throws(ScriptError) {
        try exclusive { () throws(ScriptError) in
            var first: LuaError?
            let stop = engine.app.fireTimers(until: time, report: { if first == nil { first = $0 } })
            if let first { throw afterRefusal(ScriptError(first, otherwise: .timerFailed)) }
            if let stop {
                let site = stop.timer.site.isEmpty ? "" : stop.timer.site + ": "
                throw ScriptError(.timerLoop, site + stop.detail(now: engine.runtime.loop.now) + "stop re-arming it (ck.cancel) or give it a delay")
            }
        }
    }
}
