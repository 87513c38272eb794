/// The runtime's call bookkeeping, kept in one block of memory so that a script bridge can
/// read and update it without calling Swift: the bridge's cached send path (see `SendPlan`)
/// enters and leaves runtime calls and checks plans against `epoch` from C.
///
/// Only `Int` fields, in this order: the bridge mirrors the layout (a test checks it).
public struct CallState {
    /// Runtime calls under way (sends, taps, timers, host methods); sync updates are built
    /// when the outermost one returns.
    public var depth = 0
    /// Non-zero once a sync update was queued, so leaving a call looks at hosts only then.
    public var syncRequested = 0
    /// Bumped whenever something a send's resolution depends on may have changed: a build,
    /// mounting, a host's end, a class's methods. A plan made at another epoch is stale.
    public var epoch = 0
    /// Non-zero while a tracer records sends: every send then takes the full path.
    public var tracing = 0
    /// The thread that owns the runtime (`ThreadIdentity.raw`).
    public var ownerThread = 0
    /// Sends answered from a plan, for tests and `ck.stats()`.
    public var plannedSends = 0
    /// Builds, mounts, unmounts and host ends under way: the tree changes while their
    /// callbacks run, so no plan is made or used until they end.
    public var changing = 0
    /// Renders, providers, update functions and scope or state functions running in a build:
    /// `updateState` is refused inside them, and `Class(props)` may run a scope function in C.
    public var renderDepth = 0
    /// Runtime calls entered so far: a call's number. What a call queues carries the number
    /// current then, so a call rolled back drops what is numbered from its own on.
    public var entered = 0

    public init() {}
}

/// Owns the `CallState` memory: shared by the runtime and its hosts, so that a host ending
/// after its runtime can still mark plans stale.
final class CallStateStorage {
    let pointer: UnsafeMutablePointer<CallState>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: CallState())
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    func invalidatePlans() { pointer.pointee.epoch &+= 1 }

    /// Runs a change of the tree: sends inside it take the full path; plans made before it
    /// are stale after it.
    func changingTree<T>(_ body: () throws -> T) rethrows -> T {
        pointer.pointee.changing += 1
        defer {
            pointer.pointee.changing -= 1
            invalidatePlans()
        }
        return try body()
    }
}
