/// Timers of `ck.after(seconds, fn)` on a virtual clock: deterministic, ordered by due time
/// then by creation. Times are whole nanoseconds (`ClockTicks`), each number of seconds a
/// script gives rounded once: a 0.1 s interval is due at exactly 0.3 after three firings, as
/// `ck.advance(0.3)` reaches, however the run is sliced (attack atk-apps 02).
public final class RunLoop {
    public struct Timer {
        public let id: Int
        /// When it is due, in nanoseconds (`ClockTicks.never`: a delay of `math.huge`).
        var dueTicks: Int64
        /// When it is due, in seconds.
        public var due: Double { ClockTicks.seconds(dueTicks) }
        /// Where the timer was set (`app.lua:12`), for messages; "" when unknown.
        public let site: String
        /// The runtime call the timer was set in (`Runtime.currentCall`), for `CallRollback`.
        public let call: Int
        /// The timer whose chain it belongs to: its own id, or, for one set while a timer fired
        /// (an interval re-arming itself), that timer's owner. `ckrun test` keeps a `setup`'s
        /// timers and what they re-arm, and cancels the test's (`cancelTimers(ownedAfter:)`).
        public let owner: Int
        public let fire: () throws -> Void
    }

    /// The clock, in nanoseconds.
    private var nowTicks: Int64 = 0
    /// The clock, in seconds.
    public var now: Double { ClockTicks.seconds(nowTicks) }
    /// A binary min-heap by (due, id): setting, firing and cancelling one of N pending timers
    /// costs O(log N), not O(N) (a sorted array made N timers set by timers quadratic).
    private var heap: [Timer] = []
    /// Cancelled timers still in the heap, dropped when they reach its top.
    private var cancelled: Set<Int> = []
    /// The timers set and neither fired nor cancelled.
    private var pendingIDs: Set<Int> = []
    /// The id of the newest timer: timers set since a moment have ids above its `lastID`.
    public private(set) var lastID = 0
    /// The owner of the timer firing now (`drain`), which a timer set by its callback inherits.
    var firingOwner: Int?

    /// An interactive run's wall clock (nil: the clock is virtual): `ck.after` and `ck.now()`
    /// read it, so a timer set 2 s into a timer that ran long counts from then, as a browser's
    /// `setTimeout` does, not from the time the running timer was due.
    public var wallClock: (() -> Double)?

    /// The clock, caught up with the wall clock first when there is one.
    public var current: Double {
        ClockTicks.seconds(currentTicks)
    }

    private var currentTicks: Int64 {
        if let wallClock { advance(to: wallClock()) }
        return nowTicks
    }

    /// The time `seconds` after the clock's current reading, added in nanoseconds (`ck.advance`,
    /// `.advance`, `advance(by:)`): `time(after: 0.1)` three times reaches what `time(after: 0.3)`
    /// does. A finite span past the clock's range reaches its end (`ClockTicks.end`), not infinity.
    public func time(after seconds: Double) -> Double {
        let ticks = ClockTicks.adding(ClockTicks.ticks(seconds), to: currentTicks)
        return ClockTicks.seconds(seconds.isFinite ? min(ticks, ClockTicks.end) : ticks)
    }

    public init() {}

    @discardableResult
    public func after(_ seconds: Double, site: String = "", call: Int = 0, _ fire: @escaping () throws -> Void) -> Int {
        lastID += 1
        pendingIDs.insert(lastID)
        // A delay counts from the wall clock's reading; none means at once, at the running
        // timer's instant, so a timer re-arming itself with none is still told (`[timerLoop]`).
        let due = seconds > 0 ? ClockTicks.adding(max(1, ClockTicks.ticks(seconds)), to: currentTicks) : nowTicks
        push(Timer(id: lastID, dueTicks: due, site: site, call: call,
                   owner: firingOwner ?? lastID, fire: fire))
        return lastID
    }

    public func cancel(_ id: Int) {
        guard pendingIDs.remove(id) != nil else { return }
        cancelled.insert(id)
        dropCancelledTop()
    }

    public var pendingTimers: Int { pendingIDs.count }
    public var nextDue: Double? { next?.due }
    /// The timer that fires next, left in place. A timer due at infinity (`ck.after(math.huge,
    /// fn)`) never fires: it stays pending until cancelled, and the clock never reaches it.
    public var next: Timer? { heap.first.flatMap { $0.dueTicks != ClockTicks.never ? $0 : nil } }

    /// Advances the clock to the next timer and removes it; nil when none is left.
    public func popNext(notAfter limit: Double = .infinity) -> Timer? {
        guard let first = next, first.dueTicks <= ClockTicks.ticks(limit) else { return nil }
        removeTop()
        pendingIDs.remove(first.id)
        dropCancelledTop()
        nowTicks = max(nowTicks, first.dueTicks)
        return first
    }

    /// Moves the clock on; an infinite time (`ck.advance(math.huge)`) leaves it where it is.
    public func advance(to time: Double) {
        if time.isFinite { nowTicks = max(nowTicks, min(ClockTicks.ticks(time), ClockTicks.never - 1)) }
    }

    /// Back to time 0 (`ckrun test`, before each test); pending timers keep the time they had left.
    /// (Subtracting one number from every key keeps the heap's order; one never due stays so.)
    public func rewind() {
        for i in heap.indices where heap[i].dueTicks != ClockTicks.never { heap[i].dueTicks -= nowTicks }
        nowTicks = 0
    }

    /// Cancels the timers owned by one set after the one numbered `id` (`lastID` at some
    /// moment): a timer that an earlier one re-armed from its callback is that one's.
    public func cancelTimers(ownedAfter id: Int) { cancelTimers { $0.owner > id } }

    /// Cancels the timers owned by one numbered in `ids`: those a `setup` of a block set (the
    /// ids set while it ran) and what they re-armed, when the block ends (`ckrun test`).
    public func cancelTimers(ownedIn ids: ClosedRange<Int>) { cancelTimers { ids.contains($0.owner) } }

    /// Cancels the timers set in the runtime call numbered `call` or in a later one.
    public func cancelTimers(setFrom call: Int) { cancelTimers { $0.call >= call } }

    private func cancelTimers(where dropped: (Timer) -> Bool) {
        let kept = heap.filter { !dropped($0) && !cancelled.contains($0.id) }
        heap = []
        cancelled = []
        pendingIDs = Set(kept.map(\.id))
        kept.forEach(push)
    }

    // MARK: The heap

    private static func precedes(_ a: Timer, _ b: Timer) -> Bool { a.dueTicks < b.dueTicks || (a.dueTicks == b.dueTicks && a.id < b.id) }

    private func push(_ timer: Timer) {
        heap.append(timer)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var first = parent
            if left < heap.count, Self.precedes(heap[left], heap[first]) { first = left }
            if right < heap.count, Self.precedes(heap[right], heap[first]) { first = right }
            if first == parent { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }

    private func dropCancelledTop() {
        while let top = heap.first, cancelled.remove(top.id) != nil { removeTop() }
    }
}
