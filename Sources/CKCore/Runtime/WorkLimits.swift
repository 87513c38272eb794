/// Swift work whose size a script controls (struct conversions, dumps, exports, queries,
/// traces) never runs Lua, so Lua's instruction hook and allocator cannot stop it. Such loops
/// tick these limits instead; the bridge sets `check` to raise `[timeout]`, `[interrupted]` or
/// `[memoryLimit]` (counting `extraBytes`, what the loop holds in Swift, with Lua's own bytes).
public final class WorkLimits {
    /// Throws a catalogued error when a limit has been passed; `extraBytes` are Swift bytes the
    /// caller holds on the script's behalf. Does nothing until the bridge sets it.
    public var check: (_ extraBytes: Int) throws -> Void = { _ in }
    /// Swift bytes the runtime keeps for the script beyond a call (interned selectors, queued
    /// state updates), counted by `hold` and `release`. The bridge points this at its
    /// allocator's count (and sets `heldOwner` to what keeps that count alive), so Lua's own
    /// allocations see them against `--memory-limit`.
    public var held: UnsafeMutablePointer<Int> = WorkLimits.unconnected
    public var heldOwner: AnyObject?
    /// Called each time `held` has grown by `holdCheckStep` since the last call: the bridge
    /// records an overshoot past the limit (the script's next step raises `[memoryLimit]`).
    public var heldGrew: () -> Void = {}
    @usableFromInline var nextHoldCheck = WorkLimits.holdCheckStep
    @usableFromInline static let holdCheckStep = 64 << 10
    nonisolated(unsafe) public static let unconnected: UnsafeMutablePointer<Int> = {
        let p = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        p.initialize(to: 0)
        return p
    }()
    @usableFromInline var countdown = WorkLimits.interval
    @usableFromInline static let interval = 1024

    public init() {}

    /// Counts `bytes` Swift keeps for the script.
    @inlinable
    public func hold(_ bytes: Int) {
        held.pointee += bytes
        if held.pointee >= nextHoldCheck {
            nextHoldCheck = held.pointee + WorkLimits.holdCheckStep
            heldGrew()
        }
    }

    /// Gives back bytes `hold` counted.
    @inlinable
    public func release(_ bytes: Int) {
        held.pointee -= min(held.pointee, bytes)
        nextHoldCheck = min(nextHoldCheck, held.pointee + WorkLimits.holdCheckStep)
    }

    /// Counts `units` of work; checks the limits every `interval` units. Inlinable: the bridge
    /// ticks once per item of every list it walks.
    @inlinable @inline(__always)
    public func tick(_ units: Int = 1, holding extraBytes: Int = 0) throws {
        countdown -= units
        if countdown <= 0 {
            countdown = WorkLimits.interval
            try check(extraBytes)
        }
    }
}
