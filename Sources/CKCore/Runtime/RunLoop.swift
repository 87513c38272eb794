/// Timers of `ck.after(seconds, fn)` on a virtual clock: deterministic, ordered by due time
/// then by creation.
public final class RunLoop {
    public struct Timer {
        public let id: Int
        public internal(set) var due: Double
        /// Where the timer was set (`app.lua:12`), for messages; "" when unknown.
        public let site: String
        public let fire: () throws -> Void
    }

    public private(set) var now: Double = 0
    private var timers: [Timer] = []
    /// The id of the newest timer: timers set since a moment have ids above its `lastID`.
    public private(set) var lastID = 0

    public init() {}

    @discardableResult
    public func after(_ seconds: Double, site: String = "", _ fire: @escaping () throws -> Void) -> Int {
        lastID += 1
        let timer = Timer(id: lastID, due: now + max(0, seconds), site: site, fire: fire)
        let index = timers.firstIndex { $0.due > timer.due } ?? timers.count
        timers.insert(timer, at: index)
        return lastID
    }

    public func cancel(_ id: Int) { timers.removeAll { $0.id == id } }

    public var pendingTimers: Int { timers.count }
    public var nextDue: Double? { timers.first?.due }
    /// The timer that fires next, left in place.
    public var next: Timer? { timers.first }

    /// Advances the clock to the next timer and removes it; nil when none is left.
    public func popNext(notAfter limit: Double = .infinity) -> Timer? {
        guard let first = timers.first, first.due <= limit else { return nil }
        timers.removeFirst()
        now = max(now, first.due)
        return first
    }

    public func advance(to time: Double) { now = max(now, time) }

    /// Back to time 0 (`ckrun test`, before each test); pending timers keep the time they had left.
    public func rewind() {
        for i in timers.indices { timers[i].due -= now }
        now = 0
    }

    /// Cancels the timers set after the one numbered `id` (`lastID` at some moment).
    public func cancelTimers(after id: Int) { timers.removeAll { $0.id > id } }
}
