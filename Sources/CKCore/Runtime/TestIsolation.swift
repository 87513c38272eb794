/// What one test of `ckrun test` leaves behind, undone after it (SPEC §9): the timers it set
/// and the hosts it made and did not destroy. Between `beginTest` and `endTest` the runtime
/// notes each host it makes.
public struct TestIsolation {
    /// `RunLoop.lastID` when the test began: timers owned by one numbered above it are the
    /// test's; those a `setup` set and what their callbacks re-arm are kept (`Timer.owner`).
    let timerMark: Int
    /// Their links, never the hosts: a host the test dropped is collected as it would be
    /// outside a test.
    var hosts: [HostLink] = []
}

extension Runtime {
    /// Starts a test: the virtual clock goes back to 0 (timers set outside any test, by a
    /// `setup`, keep the time they had left) and the hosts made from now on are noted.
    public func beginTest() {
        loop.rewind()
        isolation = TestIsolation(timerMark: loop.lastID)
    }

    /// Ends a test: the hosts it made and did not destroy are destroyed (unmount callbacks and
    /// `invalidateController` run), then the timers set since `beginTest` are cancelled. Every
    /// host is destroyed; the first error of their callbacks is thrown at the end.
    public func endTest() throws {
        guard let ended = isolation else { return }
        isolation = nil
        var firstError: Error?
        for host in ended.hosts.compactMap(\.host) where !host.isDestroyed {
            do { try host.destroy() } catch { firstError = firstError ?? error }
        }
        loop.cancelTimers(ownedAfter: ended.timerMark)
        if let firstError { throw firstError }
    }

    /// A host made during a test (see `beginTest`).
    func noteMade(_ host: Host) { isolation?.hosts.append(host.link) }
}
