import CKCore
import CKLua
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who may use a runtime now: one thread at a time, not one thread for ever. A call from a
/// thread takes the runtime over when no call is under way (an actor's jobs, which hop between
/// the pool's threads, each find it free: attack lib 05, lib2 03), and is `[notMainThread]` while
/// another thread is inside one. Values a `ScriptObject` (or a dropped `Host`) lets go on a thread
/// that cannot take the runtime wait here until the next call takes them (attack lib2 07: their
/// Lua release ran beside the running script and corrupted it).
final class Confinement {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var holder: ThreadIdentity?
    private var depth = 0
    private var releases: [Value] = []
    private var hosts: [(host: Value, handlers: SwiftHandlers)] = []

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

    /// Takes the runtime for a call on this thread (again, when already inside one here), making
    /// `core`'s sends accept it; false while another thread is inside a call. Hands back what
    /// others let go meanwhile, to release under the call.
    func enter(_ core: CKCore.Runtime) -> (entered: Bool, released: [Value], hosts: [(host: Value, handlers: SwiftHandlers)]) {
        let me = ThreadIdentity.current
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if depth > 0, holder != me { return (false, [], []) }
        if holder != me {
            holder = me
            core.adopt(me)
        }
        depth += 1
        guard depth == 1, !releases.isEmpty || !hosts.isEmpty else { return (true, [], []) }
        defer { releases = []; hosts = [] }
        return (true, releases, hosts)
    }

    func leave() {
        pthread_mutex_lock(mutex)
        depth -= 1
        pthread_mutex_unlock(mutex)
    }

    /// Keeps `value` until a call takes it (`enter`).
    func release(_ value: consuming Value) {
        pthread_mutex_lock(mutex)
        releases.append(value)
        pthread_mutex_unlock(mutex)
    }

    /// Keeps a dropped host until a call takes it (`enter`).
    func drop(_ host: consuming Value, _ handlers: SwiftHandlers) {
        pthread_mutex_lock(mutex)
        hosts.append((host, handlers))
        pthread_mutex_unlock(mutex)
    }
}
