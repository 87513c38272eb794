import CKCore
import CKLua
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A `--jobs` worker's side. Forked ready from the parent (options parsed, luassert and the
/// preludes compiled), it runs each requested file as a serial run does, in a fresh state in
/// its own process, and answers with the file's result. It forks no process per file: on
/// the 10,000-test suite a fork per file cost more (page-table copies, copy-on-write faults,
/// process teardown) than building a state (docs/performance.md).
enum WorkerLoop {
    /// Before the workers are forked: luassert's modules and the preludes compiled, so that
    /// each is compiled once, not once a worker, on both cores (`SpecPrelude.compileAll`: a second
    /// thread began at the start of the process, `compileAhead`); the one part of a `--jobs` run
    /// no worker shares. No state is made here: each worker's first state takes luassert's
    /// modules (from the files its `require` finds) and records them for its next ones. The
    /// second thread has ended when this returns.
    static func prepare() {
        SpecPrelude.compileAll()
    }

    /// `parent`: the process that started this worker, read before it could have ended.
    static func serve(settings: TestRunSettings, parent: pid_t = getppid()) {
        // A worker the parent's death left behind would run its file forever (kill -TERM <parent>).
        guard Engine.endWithParent(parent) else { return }
        // The requests come on fd 0, moved to a close-on-exec descriptor: a program a test
        // starts (`os.execute("cat <&3 &")`) never holds it. The tests get /dev/null on fd 0.
        let requests = fcntl(0, F_DUPFD_CLOEXEC, 3)
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        if null >= 0 { dup2(null, 0); close(null) }
        _ = fcntl(WorkerProtocol.answers, F_SETFD, FD_CLOEXEC)
        ForcedExit.setHook(sayWhy)
        let reader = LineReader(fd: requests)
        guard let token = reader.nextText() else { return }
        // The parent ending early asks for the running file's finished tests (RunEnding).
        TestSupport.shareRecords(on: WorkerProtocol.recordsSignal, to: WorkerProtocol.answers,
                                 prefix: WorkerProtocol.recordsPrefix(token: token))
        let states = SpecStates(settings: settings)
        let process = ProcessSnapshot()
        while let line = reader.nextText(), let request = WorkerProtocol.parse(request: line) {
            answer(request, token: token, states: states, process: process)
        }
    }

    /// Runs the file in a state from `states`, closes that state (unless files share it), then
    /// answers with the file's result and a line saying its state closed, in one write: the
    /// parent wakes once a file. A close that does not end (a finalizer looping past --timeout)
    /// ends this worker, which writes the held answer first (`sayWhy`), so the file that made
    /// it fails with its results, not the next one. Before the answer the process is put back
    /// as it was before the file (`process`: a test that closed fd 1 or changed directory).
    static func answer(_ request: (index: Int, path: String), token: String, states: SpecStates, process: ProcessSnapshot) {
        let runner = SpecFileRunner(file: request.path, fileIndex: request.index, settings: states.settings, states: states)
        // Encoded inside `runRecords`, while the file's state is still open: the state closes
        // as the runner lets it go, and a finalizer looping there ends this worker with the
        // answer held.
        var result: (head: FileResult, records: [UInt8])?
        runner.runRecords { head, records in
            result = (head, records)
            Held.keep(WorkerProtocol.encode(head, records: records, token: token))
        }
        states.closeHanded()
        // An os.exit its finalizers called as the state closed fails the file, as in a serial run.
        if let exited = runner.closingExit(), var (head, records) = result {
            head.exitStatus = head.exitStatus ?? exited.status
            Held.keep(WorkerProtocol.encode(head, records: records + ResultRecords.records([exited.failure]), token: token))
        }
        process.restore()   // also flushes what the file left in stdio's buffers: its output, out before its answer
        // Not cut by the records the parent asks for (their signal waits for the write's end).
        WorkerProtocol.holdingRecordsSignal { write(Held.take() + WorkerProtocol.closed(token: token)) }
    }

    /// Writes an answer to the parent (`WorkerProtocol.answers`), from its bytes: a parent gone
    /// is the parent's end (the worker dies with it).
    static func write(_ answer: [UInt8]) { answer.withUnsafeBytes { _ = ProcessOutput.writeAll(WorkerProtocol.answers, $0) } }

    /// The worker's last words, as the watchdog ends it (in a signal handler: a write only): its
    /// file fails with them.
    private static let sayWhy: @convention(c) () -> Void = {
        Held.writeInSignalHandler()
        // While a file runs, the tests it finished (its state's whole records), as asked for.
        TestSupport.writeSharedRecords()
        // With the place it struck, as a serial run's report names it (atk-new 10: no line).
        say("\n[timeout] ", to: WorkerProtocol.answers)
        ForcedExit.writeLastResortPlace(to: WorkerProtocol.answers)
        ForcedExit.writeUnstoppable(to: WorkerProtocol.answers)
        say("\n", to: WorkerProtocol.answers)
        guard ForcedExit.signal == SIGALRM else { return }
        // Standard error says what happens: this worker ends, the run goes on (the watchdog's
        // own words, "the process ends", are a serial run's).
        ForcedExit.writeProgramPrefix(to: 2)
        say("[timeout] ", to: 2)
        ForcedExit.writeLastResortPlace(to: 2)
        ForcedExit.writeUnstoppable(to: 2)
        say("; its --jobs worker ends, its file fails and the run goes on\n", to: 2)
        _exit(1)
    }

    /// Async-signal-safe for a literal (a static string's bytes: no allocation).
    private static func say(_ text: StaticString, to fd: Int32) {
        _ = Glibc.write(fd, text.utf8Start, text.utf8CodeUnitCount)
    }
}

/// A worker's answer while its file's state closes, kept where the watchdog's last resort (a
/// signal handler) can write it: one buffer, published by a single pointer store once filled.
private enum Held {
    nonisolated(unsafe) private static var bytes: UnsafeMutableRawBufferPointer?

    static func keep(_ answer: [UInt8]) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: answer.count, alignment: 1)
        buffer.copyBytes(from: answer)
        release()
        bytes = buffer
    }

    /// The held answer (empty when none), no longer held.
    static func take() -> [UInt8] {
        guard let held = bytes else { return [] }
        defer { release() }
        return Array(held)
    }

    private static func release() {
        let old = bytes
        bytes = nil
        old?.deallocate()
    }

    /// Async-signal-safe: a write of what is held, nothing else.
    static func writeInSignalHandler() {
        guard let held = bytes, let base = held.baseAddress else { return }
        _ = Glibc.write(WorkerProtocol.answers, base, held.count)
    }
}
