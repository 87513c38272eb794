import CKCore
import CKLua

/// The clock, driven from the program's own run loop.
extension Runtime {
    /// The clock's reading in seconds: the virtual clock's time, or the wall clock's seconds
    /// since the runtime was made. ``ErrorID/notMainThread`` while another thread is inside a
    /// call (the clock is the runtime's state, which that call may be moving).
    public var now: Double {
        get throws(ScriptError) { try exclusive { held throws(ScriptError) in now(held) } }
    }

    private func now(_ held: borrowing Held) -> Double {
        let loop = held.engine.runtime.loop.now
        return clock == .wall ? max(loop, wallSeconds) : loop
    }

    /// Seconds until the next timer is due (0 when one is due already), or nil when none is set.
    /// ``ErrorID/notMainThread`` while another thread is inside a call.
    public var secondsUntilNextTimer: Double? {
        get throws(ScriptError) {
            try exclusive { held throws(ScriptError) in
                let current = now(held)
                return held.engine.runtime.loop.nextDue.map { max(0, $0 - current) }
            }
        }
    }

    /// Moves the clock `seconds` on, firing the timers due by then in order, each with the
    /// build after it, all under the call's one timeout (a timer that reaches it ends the run) and
    /// Ctrl-C. The first timer error is thrown after the run (``ErrorID/timerFailed``);
    /// a timer that keeps re-arming with no delay stops the run with ``ErrorID/timerLoop``.
    /// A negative, infinite or NaN `seconds` is ``ErrorID/badArgument``, as `ck.advance`'s is.
    public func advance(by seconds: Double) throws(ScriptError) {
        guard seconds >= 0, seconds.isFinite else {
            throw ScriptError(.badArgument, "advance(by:) takes a finite number of seconds, 0 or more, got \(seconds); the clock only moves on")
        }
        try exclusive { held throws(ScriptError) in try runTimers(held, until: held.engine.runtime.loop.time(after: seconds)) }
    }

    /// Fires what is due now: on the wall clock the timers due by the time since the runtime
    /// was made; on the virtual clock every timer, until none is left (a timer that keeps
    /// re-arming stops the run: ``ErrorID/timerLoop`` is thrown).
    public func runDueTimers() throws(ScriptError) {
        try exclusive { held throws(ScriptError) in try runTimers(held, until: clock == .wall ? wallSeconds : nil) }
    }

    private var wallSeconds: Double {
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// Fires the timers due by `time`; the first timer's error is thrown, else a run stopped by
    /// a re-arming timer is ``ErrorID/timerLoop``, as `ck.advance` raises it (it was a warning
    /// on standard error and a normal return: attack lib2 10).
    /// The whole run is one turn: the timeout counts from the call's start and Ctrl-C stops it,
    /// however many timers fire (each timer had a whole limit of its own, and a Ctrl-C between
    /// two was forgotten: `advance(by: 1e9)` with a re-arming timer never returned, attack embed 11).
    private func runTimers(_ held: borrowing Held, until time: Double?) throws(ScriptError) {
        var first: LuaError?
        var fired = 0
        let app = held.engine.app
        let stop = try turn(held) { _ throws(LuaError) in
            app.fireTimers(until: time, report: { if first == nil { first = $0 } }, fired: { fired += 1 })
        }
        if let first {
            let error = ScriptError(first, otherwise: .timerFailed)
            // Many timers, none of them a loop: the run as a whole met the call's limit.
            if fired > 1, error.limit == .timeout { throw manyTimersTimedOut(fired, now: held.engine.runtime.loop.now) }
            throw afterRefusal(held, error)
        }
        if let stop {
            let site = stop.timer.site.isEmpty ? "" : stop.timer.site + ": "
            throw ScriptError(.timerLoop, site + stop.detail(now: held.engine.runtime.loop.now) + "stop re-arming it (ck.cancel) or give it a delay")
        }
    }

    private func manyTimersTimedOut(_ fired: Int, now: Double) -> ScriptError {
        ScriptError(.timeout, "the \(fired) timers this call fired (the clock now at \(now) s) ran past its time limit together: a call's timers share its timeout; move the clock on by less at once (or cancel a timer that re-arms for ever), or raise Configuration.timeout")
    }
}
