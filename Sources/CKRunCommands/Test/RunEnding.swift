import CKCore
import CKLua
#if canImport(Glibc)
import Glibc
#endif

/// A run that has to end before its last file still writes every report it was asked for, with
/// what it collected: the watchdog's last resort (a C function, a finalizer or a debug hook held the thread
/// past `--timeout`), SIGTERM, SIGHUP, a second Ctrl-C (the first stops the running test, as
/// busted's does), under `--jobs`, Ctrl-C, and a reader of standard output that went away
/// (`ckrun test --junit j.xml | head -1`: SIGPIPE). Each arrives in a signal handler, or for
/// SIGPIPE as a write that failed (`ProcessOutput.onReaderGone`), which only writes the
/// signal's number to a pipe: this class's thread closes the reports as a run's end does (the
/// TAP plan, the JUnit file, the summary; what goes to a stream whose reader went is dropped),
/// with one more failure saying why, and ends the process: status 1 after the watchdog, by the
/// signal otherwise.
final class RunEnding: @unchecked Sendable {
    /// Closes the reports: reports `unreported` (what the run collected but had not reported:
    /// the running files' finished tests, files finished after one still running), then `last`,
    /// then closes every report with all it was given (`ReportFeed`).
    typealias Close = (_ unreported: [FileResult], _ last: FileResult) -> Void

    /// The pipe's write end, for the handlers; whether a thread reads its other end.
    nonisolated(unsafe) private static var wake: Int32 = -1
    nonisolated(unsafe) private static var watching: sig_atomic_t = 0
    /// Under `--jobs`, the first Ctrl-C is handed to the workers (`forwardInterrupt`), as a
    /// serial run's stops the running test; the second ends the run. 1 once it was handed on.
    nonisolated(unsafe) private static var forwarding: sig_atomic_t = 0, forwarded: sig_atomic_t = 0
    /// 1 once a write found standard output's reader gone and the thread was woken to end the run.
    nonisolated(unsafe) private static var readerWent: sig_atomic_t = 0
    /// The byte that asks the thread to hand a Ctrl-C on.
    private static let forwardByte: UInt8 = 0xff
    /// What hands a Ctrl-C to the workers; nil: none (a serial run).
    private var forwardInterrupt: (() -> Void)?
    /// The run being reported, for `running` (one at a time).
    nonisolated(unsafe) private static var current: RunEnding?
    static let signals = [SIGTERM, SIGHUP, SIGINT]
    /// Why the watchdog's last resort ended the run (ckwatchdog.c says it in C).
    static let unstoppable = ForcedExit.unstoppable

    /// Guards what follows, and every report: the ending takes it and never gives it back.
    private let lock = Lock()
    private let close: Close
    private var reported: [FileResult] = []
    private var running: String?
    /// The running file's results so far (its state's records), read once the run ends.
    private var runningRecords: (() -> [UInt8])?
    /// Under `--jobs` (`EarlyEndCollection`): results stored but not reported yet (a later file than
    /// one still running), the files workers are running with their processes, and what those
    /// workers sent of their finished tests when asked, by position in the run; `base`: how many
    /// results were reported before the run's first position.
    private var parallel: EarlyEndCollection?
    private var started = false
    private var previous: [(Int32, sigaction)] = []
    private let read: Int32, write: Int32

    /// Handles the signals from now until `closing`. nil when no pipe could be made.
    init?(close: @escaping Close) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }   // no spawned worker holds it
        (read, write, self.close) = (ends[0], ends[1], close)
        Self.wake = write
        Self.current = self
        for signal in Self.signals {
            var action = sigaction(), old = sigaction()
            action.__sigaction_handler.sa_handler = Self.onSignal
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, &old)
            previous.append((signal, old))
        }
        ForcedExit.setHook(Self.onForcedExit)
        // A write to a pipe whose reader went fails (EPIPE) instead of ending the process at
        // once, and the run ends here. A handler, not SIG_IGN: a program a test starts gets
        // SIGPIPE's default action back when it execs (an ignored signal stays ignored).
        var action = sigaction(), old = sigaction()
        action.__sigaction_handler.sa_handler = Self.onBrokenPipe
        sigemptyset(&action.sa_mask)
        sigaction(SIGPIPE, &action, &old)
        previous.append((SIGPIPE, old))
        ProcessOutput.onReaderGone = Self.onReaderGone
        // A parent may have left them blocked (as the watchdog unblocks SIGALRM and SIGINT).
        var set = sigset_t()
        sigemptyset(&set)
        for signal in Self.signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Starts the thread that ends the run (a `--jobs` run calls it once its workers are forked:
    /// only a process of one thread forks them).
    func watch() {
        lock.lock(); defer { lock.unlock() }
        guard !started else { return }
        started = true
        var all = sigset_t(), old = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, &old)   // the thread starts with every signal blocked
        let read = read
        if DetachedThread.start({ [self] in
            var byte: UInt8 = 0
            while true {
                let got = Glibc.read(read, &byte, 1)
                if got == 1 && byte == Self.forwardByte {
                    var forward: (() -> Void)?
                    holding { forward = $0.forwardInterrupt }
                    forward?()
                    continue
                }
                if got == 1 { break }
                if got < 0 && errno == EINTR { continue }
                return
            }
            if byte != 0 { end(by: Int32(byte)) }
        }) { Self.watching = 1 }
        pthread_sigmask(SIG_SETMASK, &old, nil)
    }

    static func watchCurrent() { current?.watch() }

    /// From now, the first Ctrl-C is `forward`'s (a `--jobs` run: its workers, in process groups
    /// of their own, do not get the terminal's).
    static func forwardFirstInterrupt(_ forward: @escaping () -> Void) {
        guard let ending = current else { return }
        ending.holding { $0.forwardInterrupt = forward }
        forwarding = 1
    }

    /// The serial run's file from now (nil: none), which fails if the run ends while it runs.
    static func running(_ file: String?) {
        current?.holding { $0.running = file; $0.runningRecords = nil }
    }

    /// Where the running file's results so far are read should the run end while it runs (a
    /// SIGTERM dropped the tests it had finished); nil once they were reported.
    static func runningRecords(_ records: (() -> [UInt8])?) {
        current?.holding { $0.runningRecords = records }
    }

    /// A `--jobs` run starts: positions count from the results reported so far.
    static func beginParallelRun(_ files: [String]) {
        current?.holding { $0.parallel = EarlyEndCollection(base: $0.reported.count, files: files) }
    }

    /// A worker (`pid`) runs the file at `position`: asked for its finished tests if the run ends.
    static func running(_ file: String, at position: Int, worker pid: pid_t) {
        current?.holding { $0.parallel?.running[position] = (file, pid) }
    }

    /// The file at `position` has its result, reported in turn (or at the run's end).
    static func stored(_ result: FileResult, at position: Int) {
        current?.holding { e in
            e.parallel?.running[position] = nil
            e.parallel?.sent[position] = nil
            e.parallel?.stored[position] = result
        }
    }

    /// The whole records a worker sent of the tests its file at `position` finished.
    static func sent(_ records: ArraySlice<UInt8>, at position: Int) {
        current?.holding { $0.parallel?.sent[position] = Array(records) }
    }

    /// Reports `result` (`report`), unless the run is ending. A report whose write found the
    /// reader gone waits here, as a signal's handler does, for the thread to end the process:
    /// no later file runs meanwhile.
    func report(_ result: FileResult, _ report: (FileResult) -> Void) {
        holding {
            $0.reported.append(result)
            report(result)
        }
        while Self.readerWent != 0 { pause() }
    }

    /// `body` under the lock, with the signals (and the watchdog's) held off this thread: a
    /// handler parked here would hold the lock the ending's thread waits for.
    private func holding(_ body: (RunEnding) -> Void) {
        var held = sigset_t(), old = sigset_t()
        sigemptyset(&held)
        for signal in Self.signals + [SIGALRM] { sigaddset(&held, signal) }
        pthread_sigmask(SIG_BLOCK, &held, &old)
        lock.lock()
        body(self)
        lock.unlock()
        pthread_sigmask(SIG_SETMASK, &old, nil)
    }

    /// The run's own end: the signals go back to what they were, the thread ends, then `end` runs.
    func closing<T>(_ end: () -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        ForcedExit.setHook(nil)
        ProcessOutput.onReaderGone = nil
        for (signal, old) in previous { var old = old; sigaction(signal, &old, nil) }
        Self.watching = 0
        Self.forwarding = 0
        Self.forwarded = 0
        Self.wake = -1
        Self.current = nil
        var done: UInt8 = 0
        _ = Glibc.write(write, &done, 1)
        Glibc.close(write)
        if !started { Glibc.close(read) }   // else the thread's: it reads the 0 and returns
        return end()
    }

    /// On the reporting thread: the reports closed with why, then the process ends.
    private func end(by signal: Int32) -> Never {
        askWorkersForTheirTests()
        lock.lock()   // never unlocked: nothing else reports from now on
        // The watchdog's words, as a `--jobs` worker says them.
        if signal == SIGALRM { ProcessOutput.err(ProgramName.prefixed("[timeout] \(ForcedExit.lastResortPlace)\(Self.unstoppable); the process ends") + "\n") }
        let (unreported, last) = Self.joined(finishedOfRunningFile() + (parallel?.unreported(after: reported.count) ?? []), lastWords(signal))
        close(unreported, last)
        if signal == SIGALRM { _exit(1) }
        ProcessOutput.endBy(signal)
    }

    /// Under `--jobs`: each worker running a file is asked for the tests it finished, and given
    /// a second (in all) to send them (its slot's thread keeps them: `sent`). A worker stuck
    /// where its handler cannot run is not waited for longer.
    private func askWorkersForTheirTests() {
        var asked: [Int] = []
        holding { e in
            guard var run = e.parallel else { return }
            for (position, (_, pid)) in run.running where kill(pid, WorkerProtocol.recordsSignal) == 0 {
                run.sent[position] = nil
                asked.append(position)
            }
            e.parallel = run
        }
        for _ in 0..<100 where !asked.isEmpty {
            var waiting = false
            holding { e in waiting = asked.contains { e.parallel?.sent[$0] == nil && e.parallel?.running[$0] != nil } }
            if !waiting { break }
            usleep(10_000)
        }
    }

    /// The tests the running file finished, unless it was reported. Read while the thread that
    /// records them waits in the signal's handler, or in C past its time limit.
    private func finishedOfRunningFile() -> [FileResult] {
        guard let file = running, let records = runningRecords?(), !records.isEmpty else { return [] }
        // Whole records only: the signal may have come while one was being written (0x1E ends one).
        guard let end = records.lastIndex(of: 0x1E),
              let tests = try? ResultRecords.tests(records[...end], file: file), !tests.isEmpty else { return [] }
        var result = FileResult(file: file)
        result.tests = tests
        return [result]
    }

    /// The last words of a file whose finished tests are the last collected join them: one
    /// result, so every format names the file once (atk-new3 03: a serial run the watchdog
    /// ended in a finalizer listed the stuck file twice and counted 3 files when 2 ran).
    static func joined(_ collected: [FileResult], _ last: FileResult) -> ([FileResult], FileResult) {
        guard !last.isOfTheRun, var file = collected.last, file.file == last.file else { return (collected, last) }
        file.tests += last.tests
        return (Array(collected.dropLast()), file)
    }

    /// Why the run ended, as one more failure: the running file's (the watchdog), or the run's.
    private func lastWords(_ signal: Int32) -> FileResult {
        if signal == SIGALRM, let file = running {
            let closed = reported.last?.file == file ? " as the file's state closed" : ""
            let place = ForcedExit.lastResortPlace.isEmpty ? file + ": " : ForcedExit.lastResortPlace
            let message = Catalogue.timeout.message("\(place)\(Self.unstoppable)\(closed); the run ends here, later files do not run")
            // Reported already (stuck as its state closed): a failure that follows it, no file of its own.
            return FileResult(file: file, tests: [TestResult(name: file, file: file, line: 0, status: .errored, message: message, descriptor: "file")],
                              followsItsFile: closed.isEmpty ? nil : true)
        }
        let cause = switch signal {
        case SIGALRM: Self.unstoppable
        case SIGINT: "stopped by Ctrl-C"
        case SIGHUP: "stopped by SIGHUP"
        case SIGPIPE: "stopped as the reader of standard output went away (SIGPIPE)"
        case SIGQUIT: "stopped by SIGQUIT (Ctrl-\\)"
        default: "stopped by SIGTERM"
        }
        // Under --jobs, the files the workers were running.
        let files = running.map { [$0] } ?? parallel?.runningFiles ?? []
        let where_ = files.isEmpty ? "" : " while \(files.joined(separator: ", ")) ran"
        let id: Catalogue = signal == SIGALRM ? .timeout : .interrupted
        let notRun = parallel?.notRun(after: reported.count) ?? []
        let skipped = notRun.isEmpty ? "" : "; \(notRun.joined(separator: ", ")) did not run (queued behind \(files.joined(separator: ", ")))"
        let message = id.message("\(cause)\(where_); the run ends here with what it reported\(skipped), later files do not run")
        return FileResult(file: "", tests: [TestResult(name: "", file: "", line: 0, status: .errored, message: message, traceback: "", descriptor: "error")])
    }

    /// In a handler: wakes the thread, and waits (10 s at most) for it to end the process.
    private static func handOver(_ signal: Int32) -> Bool {
        guard watching != 0, wake >= 0 else { return false }
        var byte = UInt8(truncatingIfNeeded: signal)
        guard Glibc.write(wake, &byte, 1) == 1 else { return false }
        var left: UInt32 = 10
        while left > 0 { left = sleep(left) }
        return true
    }

    /// SIGPIPE: nothing here; the write that raised it fails with EPIPE (`onReaderGone`).
    private static let onBrokenPipe: @convention(c) (Int32) -> Void = { _ in }

    /// A write to standard output (or error) found its reader gone: the thread ends the run,
    /// once the report being written (if any) is done. false: no thread (the run has not
    /// started or has ended), so the caller ends the process as a filter does.
    private static let onReaderGone: () -> Bool = {
        guard watching != 0, wake >= 0 else { return false }
        var byte = UInt8(truncatingIfNeeded: SIGPIPE)
        guard Glibc.write(wake, &byte, 1) == 1 else { return false }
        readerWent = 1
        return true
    }

    /// SIGTERM, SIGHUP, Ctrl-C outside a test: handed over; then (no thread, or it did not end
    /// the process) the signal's own end.
    private static let onSignal: @convention(c) (Int32) -> Void = { signal in
        if signal == SIGINT && forwarding != 0 && forwarded == 0 && watching != 0 && wake >= 0 {
            forwarded = 1
            var byte = forwardByte
            if Glibc.write(wake, &byte, 1) == 1 { return }
        }
        _ = handOver(signal)
        Glibc.signal(signal, SIG_DFL)
        raise(signal)   // blocked until this handler returns
    }

    /// The watchdog's last resort, a second Ctrl-C: handed over; then the caller's own end.
    private static let onForcedExit: @convention(c) () -> Void = {
        _ = handOver(ForcedExit.signal)
    }
}
