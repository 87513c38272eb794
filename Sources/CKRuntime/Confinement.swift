import CKCore
import CKLua
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who may use a runtime now: one thread at a time, not one thread for ever. A call from a
/// thread takes the runtime over when no call is under way (an actor's jobs, which hop between
/// the pool's threads, each find it free: attack lib 05, lib2 03), and is `[notMainThread]` while
/// another thread is inside one. Values a `ScriptObject`, `Action` or dropped `ComponentHost` lets
/// go on another thread than the last call's (or inside a call) wait here, untouched, until the
/// next call takes them (attack lib2 07: their Lua release ran beside the running script and
/// corrupted it; h-lib3: a host's `deinit` copied its core host there, whose count is not atomic).
///
/// A call takes no lock: the holder is one atomic word, taken by compare-and-swap and given
/// back by a store (the mutex and the arrays it returned cost ~570 instructions a call). Only
/// the waiting values take the mutex, and a call reads one flag to learn there are some.
final class Confinement {
    /// The thread inside a call (its `pthread_self`), 0 while none is: only that thread stores
    /// its own id, so reading it back means "inside a call here".
    private let holder = Atomic<UInt>(0)
    /// Calls under way on the holder's thread, and the thread the core was last handed to:
    /// only the holder writes them (ordered by its acquiring take and releasing give-back); a
    /// `deinit` on any thread reads `adopted` as a hint (`isLastUsersThread`).
    private let depth = Atomic<Int>(0)
    private let adopted = Atomic<UInt>(Confinement.currentThread)
    /// Whether `waiting` holds anything, set under the mutex, read by each outermost call.
    private let somethingWaits = Atomic<Bool>(false)
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var waiting = Waiting()

    /// What other threads let go: Lua values, and dropped hosts with their Swift handlers.
    struct Waiting {
        var values: [Value] = []
        var hosts: [(host: Value, handlers: SwiftHandlers)] = []
    }

    /// How `enter` went: refused (another thread is inside a call), the outermost call on
    /// this thread, or a call inside one.
    enum Entry { case refused, outermost, nested }

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    static var currentThread: UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    /// Takes the runtime for a call on this thread (again, when already inside one here),
    /// making `core`'s sends accept it; `.refused` while another thread is inside a call.
    @inline(__always)
    func enter(_ core: CKCore.Runtime) -> Entry {
        let me = Confinement.currentThread
        if holder.load(ordering: .relaxed) == me {
            depth.store(depth.load(ordering: .relaxed) + 1, ordering: .relaxed)
            return .nested
        }
        guard holder.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged else { return .refused }
        if adopted.load(ordering: .relaxed) != me {
            adopted.store(me, ordering: .relaxed)
            core.adopt(.current)
        }
        depth.store(1, ordering: .relaxed)
        return .outermost
    }

    /// Ends a call `enter` let in; the outermost gives the runtime back.
    @inline(__always)
    func leave() {
        let left = depth.load(ordering: .relaxed) - 1
        depth.store(left, ordering: .relaxed)
        if left == 0 { holder.store(0, ordering: .releasing) }
    }

    /// Whether this is the thread the last call ran on (the runtime's, unless its domain moved).
    var isLastUsersThread: Bool { adopted.load(ordering: .relaxed) == Confinement.currentThread }

    /// Whether values wait for a call to take them (`take`).
    @inline(__always)
    var somethingWaitsNow: Bool { somethingWaits.load(ordering: .acquiring) }

    /// Hands over what waits, to let go under the call that takes it (the outermost call on
    /// the holder's thread).
    func take() -> Waiting {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        somethingWaits.store(false, ordering: .relaxed)
        var taken = Waiting()
        swap(&taken, &waiting)
        return taken
    }

    /// Keeps `value` until a call takes it.
    func keep(_ value: consuming Value) {
        pthread_mutex_lock(mutex)
        waiting.values.append(consume value)
        somethingWaits.store(true, ordering: .relaxed)
        pthread_mutex_unlock(mutex)
    }

    /// Keeps a dropped host and its handlers until a call takes them.
    func keep(host: consuming Value, _ handlers: SwiftHandlers) {
        pthread_mutex_lock(mutex)
        waiting.hosts.append((consume host, handlers))
        somethingWaits.store(true, ordering: .relaxed)
        pthread_mutex_unlock(mutex)
    }
}
