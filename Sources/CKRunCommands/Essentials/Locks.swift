#if canImport(Glibc)
import Glibc
#endif

/// A mutex and a condition variable over pthreads, in place of Foundation's `NSLock` and
/// `NSCondition` (full Foundation only; see `OutputDescriptor`). `Lock` is a `Condition` nobody waits on.
class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let variable = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(variable, nil)
    }

    deinit {
        pthread_cond_destroy(variable)
        pthread_mutex_destroy(mutex)
        variable.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Called with the lock held; returns with it held again.
    func wait() { pthread_cond_wait(variable, mutex) }
    func signal() { pthread_cond_signal(variable) }
    func broadcast() { pthread_cond_broadcast(variable) }
}

final class Lock: Condition, @unchecked Sendable {}

/// A detached thread running `body`, in place of Foundation's `Thread.detachNewThread`.
enum DetachedThread {
    private final class Body { let run: () -> Void; init(_ run: @escaping () -> Void) { self.run = run } }

    /// False when the thread could not be made (`pthread_create`'s EAGAIN); `body` did not run.
    @discardableResult
    static func start(_ body: @escaping () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let made = pthread_create(&thread, nil, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box)
        guard made == 0 else { Unmanaged<Body>.fromOpaque(box).release(); return false }
        pthread_detach(thread)
        return true
    }
}
