/// Why a run of the clock stopped early, at `timer` (left pending): the one bound every loop
/// that drains timers shares (`ck.advance`, `ck.runUntilIdle`, the app runner's clock, `ckrun
/// tree`), so none of them can spin forever on a timer that re-arms itself.
public struct TimerRunStop {
    public let timer: RunLoop.Timer
    /// The run reached `TimerRun.runLimit` firings rather than a chain of `TimerRun.chainLimit`.
    public let byCount: Bool
    /// The run had an end time: what stopped it made no progress towards it (due at once each time).
    public let atOneInstant: Bool

    /// The `[timerLoop]` detail (without its advice), at the clock's time `now`.
    public func detail(now: Double) -> String {
        let time = Self.shown(now)
        if byCount {
            return "timers kept setting more timers: \(TimerRun.runLimit) that timers set fired in one run of the clock, so it stopped at \(time)s with this one (set here) pending; "
        }
        return "a timer set here re-armed itself \(TimerRun.chainLimit) times in a row, so the run of the clock stopped at \(time)s with it pending; "
    }

    /// Seconds as the clock shows them: whole without a fraction.
    static func shown(_ seconds: Double) -> String {
        Int(exactly: seconds).map(String.init) ?? "\(seconds)"
    }
}

/// The bound of one run of the clock. A *chain* is a timer set while the one before it fired (a
/// timer that re-arms itself: React's `setInterval` habit). A run until idle stops when a chain
/// reaches `chainLimit` or the run `runLimit` firings of timers its timers set (sinon's fake
/// timers stop at 1,000; timers set before the run all fire); a run
/// to a time (`ck.advance(60)` of a 16 ms animation) always ends unless timers keep firing
/// without moving the clock, so only those count there.
struct TimerRun {
    static let chainLimit = 1000
    static let runLimit = 10_000

    let end: Double?
    private var chains: [Int: Int] = [:]
    private var counted = 0
    private var instant: Int64
    /// The chain length of the timer last admitted.
    private var length = 0

    init(end: Double?, now: Double) {
        self.end = end
        instant = ClockTicks.ticks(now)
    }

    /// Nil when `timer` may fire, else where the run stops; `fired(setSince:in:)` follows a nil.
    mutating func admit(_ timer: RunLoop.Timer) -> TimerRunStop? {
        if end != nil, timer.dueTicks > instant {
            instant = timer.dueTicks
            counted = 0
            chains.removeAll()
        }
        // Only timers that timers of this run set count: 10,001 set before it are no loop.
        let setInRun = chains[timer.id] != nil
        length = chains[timer.id] ?? 0
        guard length < Self.chainLimit, !setInRun || counted < Self.runLimit else {
            return TimerRunStop(timer: timer, byCount: length < Self.chainLimit, atOneInstant: end != nil)
        }
        chains[timer.id] = nil
        if setInRun { counted += 1 }
        return nil
    }

    /// Records the timers set since `lastID` (by the admitted timer's firing) as its chain's next links.
    mutating func fired(setSince lastID: Int, in loop: RunLoop) {
        guard loop.lastID > lastID else { return }
        for id in (lastID + 1)...loop.lastID { chains[id] = length + 1 }
    }
}

extension RunLoop {
    /// Runs `body` (the firing of `timer`) as its owner's: a timer it sets is in its chain.
    func firing<T>(_ timer: Timer, _ body: () throws -> T) rethrows -> T {
        let outer = firingOwner
        firingOwner = timer.owner
        defer { firingOwner = outer }
        return try body()
    }

    /// Fires the timers due by `end` (nil: until none is left; a timer set `math.huge` seconds
    /// ahead is never `next`, so it stays pending) in order through `fire`, which gets each
    /// popped timer and returns false to end the run at once (Ctrl-C); then moves the clock to
    /// `end`. Returns where the bound (`TimerRun`) stopped the run, or nil.
    public func drain(until end: Double?, fire: (Timer) throws -> Bool) rethrows -> TimerRunStop? {
        var run = TimerRun(end: end, now: now)
        let endTicks = end.map(ClockTicks.ticks) ?? ClockTicks.never
        while let timer = next, timer.dueTicks <= endTicks {
            if let stop = run.admit(timer) { return stop }
            let before = lastID
            _ = popNext()
            let goOn = try firing(timer) { try fire(timer) }
            run.fired(setSince: before, in: self)
            if !goOn { return nil }
        }
        if let end { advance(to: end) }
        return nil
    }
}
