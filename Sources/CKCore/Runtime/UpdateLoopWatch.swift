/// Who queued the updates that kept a flush building, for `[updateLoop]` (SPEC §3). Only the
/// last build a flush allows records it: the first update queued then notes the lifecycle
/// callback running and the script's file:line; no other update pays for it.
struct UpdateLoopWatch {
    /// On while the last build a flush allows runs.
    var isRecording = false
    /// The lifecycle callback running while recording (`LoopyController.didUpdateComponent`).
    var runningCallback: String?
    /// The first update queued while recording: its callback and file:line.
    var origin: (callback: String?, location: String?)?
}

extension Runtime {
    /// Counts one more build of `host` in a flush loop (`flush`: the loop's number): past the
    /// limit it is `[updateLoop]`; the last build allowed records who queues the updates that
    /// would make one more. Per host: 150 hosts with one update each are 150 builds, no loop.
    func countBuild(of host: Host, inFlush flush: Int) throws {
        if host.flushCounted != flush {
            host.flushCounted = flush
            host.flushBuilds = 0
        }
        host.flushBuilds += 1
        if host.flushBuilds > Host.maxBuildsPerFlush { throw host.updateLoopError() }
        updateLoop.isRecording = host.flushBuilds == Host.maxBuildsPerFlush
        if updateLoop.isRecording { updateLoop.origin = nil }
    }

    /// A new number for a flush loop (`countBuild`).
    func beginFlushLoop() -> Int {
        flushLoops &+= 1
        return flushLoops
    }

    /// Ends a flush loop's recording (it ended, or raised).
    func stopRecordingUpdates() { updateLoop.isRecording = false }

    /// The script's file:line comes from the bridge (`currentLocation`), asked only then.
    func noteUpdateOrigin() {
        guard updateLoop.isRecording, updateLoop.origin == nil else { return }
        updateLoop.origin = (updateLoop.runningCallback, currentLocation())
    }

    /// Runs a lifecycle callback, named for `[updateLoop]` while recording.
    func runCallback(_ name: @autoclosure () -> String, _ body: () throws -> Void) throws {
        guard updateLoop.isRecording else { return try body() }
        let outer = updateLoop.runningCallback
        updateLoop.runningCallback = name()
        defer { updateLoop.runningCallback = outer }
        try body()
    }

    /// `; the last were queued by LoopyController.didUpdateComponent`, and the file:line.
    func takeUpdateOrigin() -> (text: String, location: String?) {
        defer { updateLoop = UpdateLoopWatch() }
        guard let origin = updateLoop.origin else { return ("", nil) }
        let by = origin.callback.map { " by \($0)" } ?? ""
        let at = origin.location.map { " at \($0)" } ?? ""
        return (by.isEmpty && at.isEmpty ? "" : "; the last were queued\(by)\(at)", origin.location)
    }
}
