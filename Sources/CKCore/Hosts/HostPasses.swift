/// The one re-entrancy rule of a host (docs/api.md, *Hosts*): a *pass* is a build with its
/// commit, a mount, an unmount, an appearance or a destroy. A host operation (`mount`,
/// `unmount`, `update`, `reload`, `flush`, `appear`, `disappear`, `destroy`) that a callback
/// calls on the host whose pass is running is deferred: it runs when that pass ends, in call
/// order, before the operation that began the pass returns. A pass therefore always runs whole
/// (every willMount its didUnmount, every acquire its relinquish), and the first error of the
/// pass or of what it deferred reaches the caller of the operation that began it.
extension Host {
    /// Runs one pass of this host, then what its callbacks deferred. A pass inside a pass
    /// (a destroy's unmount) is part of the outer one.
    func pass(_ body: () throws -> Void) throws {
        guard !isBusy else { return try body() }
        isBusy = true
        var firstError: Error?
        do { try body() } catch { firstError = error }
        isBusy = false
        if !isRunningDeferred { firstError = runDeferred(after: firstError) }
        if let firstError { throw firstError }
    }

    /// Runs `operation` now, or, while a pass runs, at that pass's end.
    func runOrDeferDuringPass(_ operation: @escaping () throws -> Void) throws {
        if isBusy { deferredOperations.append(operation) } else { try operation() }
    }

    /// Runs the deferred operations in order; each is a pass of its own, whose deferred
    /// operations join the queue. They run in rounds (what the passes of one round deferred is
    /// the next): a chain that keeps deferring more stops with `[operationLoop]` after 100
    /// rounds; one callback may queue any number of operations.
    private func runDeferred(after error: Error?) -> Error? {
        var firstError = error, rounds = 0
        isRunningDeferred = true
        defer { isRunningDeferred = false }
        while !deferredOperations.isEmpty, !isDestroyed {
            rounds += 1
            if rounds > Host.maxBuildsPerFlush {
                deferredOperations.removeAll()
                // A destroy asked for is never dropped: the host would be neither alive nor ended.
                if isDestroying { try? tearDown() }
                return firstError ?? RuntimeError(.operationLoop, "host operations called from lifecycle callbacks kept deferring more for \(Host.maxBuildsPerFlush) rounds in a row after one pass of \(root?.shownPath ?? "an empty host"); the rest were dropped. Call mount, unmount or update from a callback only when something changed")
            }
            var round = deferredOperations
            deferredOperations = []
            while !round.isEmpty, !isDestroyed {
                let operation = round.removeFirst()
                do { try operation() } catch { firstError = firstError ?? error }
            }
            deferredOperations = round + deferredOperations
        }
        return firstError
    }

    /// A state build asked for while this host is in a pass: built when the outermost runtime
    /// call returns (the pass is inside it), as a sync update is.
    func buildAfterPass(full: Bool) {
        if full { needsFullBuild = true }
        hasSyncUpdate = true
        runtime.syncRequested = true
        runtime.noteWork(self)
    }
}
