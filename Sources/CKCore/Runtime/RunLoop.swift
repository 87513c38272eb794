/// Timers of `ck.after(seconds, fn)` on a virtual clock: deterministic, ordered by due time
/// then by creation.
public final class RunLoop {
    public struct Timer {
        public let id: Int
        public internal(set) var due: Double
        /// Where the timer was set (`app.lua:12`), for messages; "" when unknown.
        public let site: String
        /// The runtime call the timer was set in (`Runtime.currentCall`), for `CallRollback`.
        public let call: Int
        public let fire: () throws -> Void
    }

    public private(set) var now: Double = 0
    /// A binary min-heap by (due, id): setting, firing and cancelling one of N pending timers
    /// costs O(log N), not O(N) (a sorted array made N timers set by timers quadratic).
    private var heap: [Timer] = []
    /// Cancelled timers still in the heap, dropped when they reach its top.
    private var cancelled: Set<Int> = []
    /// The timers set and neither fired nor cancelled.
    private var pendingIDs: Set<Int> = []
    /// The id of the newest timer: timers set since a moment have ids above its `lastID`.
    public private(set) var lastID = 0

    /// An interactive run's wall clock (nil: the clock is virtual): `ck.after` and `ck.now()`
    /// read it, so a timer set 2 s into a timer that ran long counts from then, as a browser's
    /// `setTimeout` does, not from the time the running timer was due.
    public var wallClock: (() -> Double)?

    /// The clock, caught up with the wall clock first when there is one.
    public var current: Double {
        if let wallClock { advance(to: wallClock()) }
        return now
    }

    public init() {}

    @discardableResult
    public func after(_ seconds: Double, site: String = "", call: Int = 0, _ fire: @escaping () throws -> Void) -> Int {
        lastID += 1
        pendingIDs.insert(lastID)
        // A delay counts from the wall clock's reading; none means at once, at the running
        // timer's instant, so a timer re-arming itself with none is still told (`[timerLoop]`).
        push(Timer(id: lastID, due: seconds > 0 ? current + seconds : now, site: site, call: call, fire: fire))
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
    public var next: Timer? { heap.first.flatMap { $0.due.isFinite ? $0 : nil } }

    /// Advances the clock to the next timer and removes it; nil when none is left.
    public func popNext(notAfter limit: Double = .infinity) -> Timer? {
        guard let first = next, first.due <= limit else { return nil }
        removeTop()
        pendingIDs.remove(first.id)
        dropCancelledTop()
        now = max(now, first.due)
        return first
    }

    /// Moves the clock on; an infinite time (`ck.advance(math.huge)`) leaves it where it is.
    public func advance(to time: Double) { if time.isFinite { now = max(now, time) } }

    /// Back to time 0 (`ckrun test`, before each test); pending timers keep the time they had left.
    /// (Subtracting one number from every key keeps the heap's order.)
    public func rewind() {
        for i in heap.indices { heap[i].due -= now }
        now = 0
    }

    /// Cancels the timers set after the one numbered `id` (`lastID` at some moment).
    public func cancelTimers(after id: Int) { cancelTimers { $0.id > id } }

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

    private static func precedes(_ a: Timer, _ b: Timer) -> Bool { a.due < b.due || (a.due == b.due && a.id < b.id) }

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
