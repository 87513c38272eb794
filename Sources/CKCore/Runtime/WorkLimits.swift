/// Swift work whose size a script controls (struct conversions, dumps, exports, queries,
/// traces) never runs Lua, so Lua's instruction hook and allocator cannot stop it. Such loops
/// tick these limits instead; the bridge sets `check` to raise `[timeout]`, `[interrupted]` or
/// `[memoryLimit]` (counting `extraBytes`, what the loop holds in Swift, with Lua's own bytes).
public final class WorkLimits {
    /// Throws a catalogued error when a limit has been passed; `extraBytes` are Swift bytes the
    /// caller holds on the script's behalf. Does nothing until the bridge sets it.
    public var check: (_ extraBytes: Int) throws -> Void = { _ in }
    private var countdown = WorkLimits.interval
    static let interval = 1024

    public init() {}

    /// Counts `units` of work; checks the limits every `interval` units.
    @inline(__always)
    public func tick(_ units: Int = 1, holding extraBytes: Int = 0) throws {
        countdown -= units
        if countdown <= 0 {
            countdown = WorkLimits.interval
            try check(extraBytes)
        }
    }
}
