import CKCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `--jobs N`: N worker processes (forked from this one, or this executable in its hidden
/// worker mode), each started once and asked for its next file while it runs one (WorkerProtocol;
/// the last files go to whichever worker is free first).
/// Results are handed on in the run's order, whatever order they finish in.
final class ParallelRunner: @unchecked Sendable {
    typealias File = (path: String, index: Int)

    private let jobs: Int
    private let settings: TestRunSettings
    private let executable = BytePath.realPath("/proc/self/exe") ?? "/proc/self/exe"
    /// Guards everything below it.
    private let condition = Condition()
    private var finished: [Int: FileResult] = [:]
    /// Reports a result (`run`'s `consume`) while the run goes on.
    private var report: ((FileResult) -> Bool)?
    /// How many results were reported; one is being reported; a report stopped the run.
    private var reported = 0, reporting = false, halted = false
    /// How many results the run waits for (the waiting thread is woken only when all came).
    private var expected = 0
    private var nextToStart = 0
    /// The positions of the run's files in the order they are handed out (`DispatchOrder`).
    private var dispatch: [Int] = []
    private var stopped = false
    private var running: [WorkerProcess] = []
    /// Workers that ended badly after answering for all their files.
    private var lateFailures: [FileResult] = []
    private var workersLeft = 0

    init(jobs: Int, settings: TestRunSettings) {
        self.jobs = jobs
        self.settings = settings
    }

    /// Calls `consume` with each file's result in order; it returns false to stop the run. The
    /// thread that stores the result next in order reports it (`store`): no thread is woken to.
    func run(_ files: [File], consume: (FileResult) -> Bool) {
        // A write to a worker that died must fail with EPIPE, not end this process.
        let previousPipeAction = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previousPipeAction) }
        workersLeft = min(jobs, files.count)
        expected = files.count
        dispatch = DispatchOrder.positions(of: files.map(\.path), settings: settings)
        RunEnding.beginParallelRun(files.map(\.path))
        withoutActuallyEscaping(consume) { consume in
            report = consume
            startSlots(files)
            condition.lock()
            while reported < files.count && !halted { condition.wait() }
            condition.unlock()
            stop()
            condition.lock()
            while workersLeft > 0 { condition.wait() }
            let late = lateFailures
            var going = !halted
            report = nil
            condition.unlock()
            for result in late where going { going = consume(result) }
        }
    }

    private func startSlots(_ files: [File]) {
        var forked = feedForked(files)
        RunEnding.watchCurrent()   // its thread only now: a process of one thread forks the workers
        RunEnding.forwardFirstInterrupt { [self] in
            condition.lock()
            let processes = running
            condition.unlock()
            // To the worker's process group, as a terminal's Ctrl-C reaches the programs a serial
            // run's tests started (a test waiting on `os.execute("sleep 6")` stops at once).
            for process in processes where process.isRunning && kill(-process.pid, SIGINT) != 0 { kill(process.pid, SIGINT) }
        }
        for _ in 0..<workersLeft {
            let first = forked.popLast()
            let slot = { [self] in
                serve(files, first: first?.worker, asked: first?.asked ?? [])
                condition.lock()
                workersLeft -= 1
                condition.broadcast()
                condition.unlock()
            }
            // No thread to be had: the slot serves (and reports) here.
            if !DetachedThread.start(slot) { slot() }
        }
    }

    /// The forked workers, each given its token and asked for its first file and the one after
    /// at once, from this thread: no worker waits for the slots' threads to start (this thread
    /// competes with the workers for the cores) before it starts on a file.
    private func feedForked(_ files: [File]) -> [(worker: Worker, asked: [Int])] {
        let processes = forkWorkers()
        var fed = processes.map(adopt).map { (worker: $0, asked: [Int]()) }
        for lookahead in [false, true] {
            for index in fed.indices {
                guard let position = claim(files.count, lookahead: lookahead) else { continue }
                request(files[position], from: fed[index].worker)
                fed[index].asked.append(position)
            }
        }
        return fed
    }

    /// Forked while this process has one thread (before the slots' threads start), all of them
    /// before any worker's token exists (no worker's memory holds another's token), after
    /// luassert and the preludes were compiled here (`WorkerLoop.prepare`): once, not once a
    /// worker, and each worker loads their bytecode into states of its own. (A state prepared
    /// here and handed to the workers cost more than it saved: its pages, shared with the
    /// parent, were copied on first write, 4,967 minor faults a `--jobs 2` run against 2,575.)
    /// A worker that replaces one that died is spawned and compiles its own.
    private func forkWorkers() -> [WorkerProcess] {
        // The thread compiling the preludes ahead (if it still runs) ends in `prepare`.
        guard ProcessThreads.count <= (SpecPrelude.compiled.isCompilingAhead ? 2 : 1) else { return [] }
        WorkerLoop.prepare()
        guard ProcessThreads.count == 1 else { return [] }
        return (0..<workersLeft).compactMap { _ in try? WorkerProcess(forking: settings) }
    }

    /// The next file to hand out; with `lookahead`, only while more files are left than workers.
    private func claim(_ count: Int, lookahead: Bool = false) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped, nextToStart < count, !lookahead || count - nextToStart > jobs else { return nil }
        nextToStart += 1
        return dispatch[nextToStart - 1]
    }

    private var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Keeps a file's result and reports each result that is next in the run's order: one
    /// thread reports at a time, and reports too what is stored meanwhile. A report that
    /// stops the run stops it here.
    private func store(_ result: FileResult, at position: Int) {
        RunEnding.stored(result, at: position)
        condition.lock()
        finished[position] = result
        var stopping = false
        while !reporting, !halted, let report, let next = finished.removeValue(forKey: reported) {
            reporting = true
            condition.unlock()
            let going = report(next)
            condition.lock()
            reporting = false
            reported += 1
            if !going { (halted, stopping) = (true, true) }
        }
        // The run's thread waits for the last result or a halt: a wake-up for each result cost
        // it a context switch a file on cores the workers need.
        if reported == expected || halted { condition.broadcast() }
        condition.unlock()
        if stopping { stop() }
    }

    /// No new files; the running workers are ended (their results are no longer wanted).
    private func stop() {
        condition.lock()
        stopped = true
        let processes = running
        condition.unlock()
        for process in processes { process.terminate() }
    }

    /// One worker slot: a worker process fed files until none are left; a worker that dies
    /// fails the file it was running and a new one takes the files it was asked for after it.
    /// `asked`: the files `first` was already asked for (`feedForked`), which this slot runs first.
    /// The worker is asked for its next file before it answers the one it runs (`Queue`), so it
    /// never waits on this process between files.
    private func serve(_ files: [File], first: Worker?, asked: [Int]) {
        var worker = first
        var queue = Queue(files: asked, asked: asked.count)
        var rerun = Set<Int>()
        while !isStopped, let position = queue.files.first ?? claim(files.count, lookahead: false) {
            if queue.files.isEmpty { queue.files = [position] }
            let file = files[position]
            if worker == nil {
                do { worker = try start() } catch {
                    store(crashed(file.path, "could not start a worker: \(errorText(error))"), at: position)
                    queue.files.removeFirst()
                    continue
                }
                queue.asked = 0
            }
            guard let current = worker else { continue }
            askAhead(&queue, of: current, files)
            RunEnding.running(file.path, at: position, worker: current.process.pid)
            let answer = awaitAnswer(current, file: file.path, at: position)
            guard let answer, answer.closed else {
                worker = nil
                if blame(current, answer, file.path, at: position, rerun: &rerun) { queue.files.removeFirst() }
                continue
            }
            current.lastFile = file.path
            queue.files.removeFirst()
            queue.asked -= 1
            askAhead(&queue, of: current, files, answered: true)
            // No file is left for it: its input ends now, and it exits while this slot reports.
            if queue.files.isEmpty { try? current.requests.close() }
            store(decode(answer, file: file.path), at: position)
        }
        if let worker { finish(worker) }
    }

    /// A slot's files in the order its worker runs them: the first is the one it runs, and
    /// the first `asked` of them its worker was asked for.
    private struct Queue {
        var files: [Int]
        var asked: Int
    }

    /// Asks the worker for the slot's files it was not asked for yet, and for one more while
    /// more files are left than workers (the last ones go to whichever worker is free first,
    /// so the workers end together). A worker that `answered` and has no file left is free:
    /// it is asked for the next file now, before this slot reports its result (a report may
    /// wait on the files before it in the run's order, or on standard output's reader).
    private func askAhead(_ queue: inout Queue, of worker: Worker, _ files: [File], answered: Bool = false) {
        let free = answered && queue.files.isEmpty
        if queue.files.count < 2, let next = claim(files.count, lookahead: !free) { queue.files.append(next) }
        while queue.asked < queue.files.count {
            request(files[queue.files[queue.asked]], from: worker)
            queue.asked += 1
        }
    }

    /// The worker ended before its file's state closed: the file fails (with its results, when
    /// they came first), or, when the worker may have been ended by a file before, runs again.
    private func blame(_ worker: Worker, _ answer: Answer?, _ file: String, at position: Int, rerun: inout Set<Int>) -> Bool {
        worker.process.waitUntilExit()
        if let answer {
            store(decode(answer, file: file, ending: worker.died("as the file's state closed")), at: position)
            return true
        }
        // It ended while the file ran (the watchdog's last resort): the tests it finished stay.
        if let end = worker.sentRecords.lastIndex(of: 0x1E),
           let tests = try? ResultRecords.tests(worker.sentRecords[...end], file: file), !tests.isEmpty {
            var result = crashed(file, worker.died("while the file ran"))
            result.tests = tests + result.tests
            store(result, at: position)
            return true
        }
        // Ended or stopped after answering a file: a file before may have done it (a process it
        // left running, `kill -STOP $PPID`), so this one runs again on a new worker (once)
        // rather than take the blame.
        if worker.lastFile != nil, rerun.insert(position).inserted { return false }
        store(crashed(file, worker.died("before reporting results")), at: position)
        return true
    }

    /// A worker that died since its last answer cannot take it (EPIPE: SIGPIPE is ignored while
    /// workers run); reading its answer then finds it gone.
    private func request(_ file: File, from worker: Worker) {
        try? worker.requests.write(contentsOf: Data(WorkerProtocol.request(index: file.index, path: file.path).utf8))
    }

    private final class Worker {
        let process: WorkerProcess
        /// Its answers; its standard output is read alongside.
        let reader: LineReader
        let output: WorkerOutput
        let token = WorkerProtocol.newToken()
        var lastFile: String?
        /// What it said on its answers that was no answer (the cause it ended with).
        var lastWords: [String] = []
        /// The whole records of the file it runs, when it sent them (asked, or as the watchdog ended it).
        var sentRecords: [UInt8] = []
        var requests: OutputDescriptor { process.requests }

        init(process: WorkerProcess) {
            self.process = process
            output = WorkerOutput(fd: process.output)
            reader = LineReader(fd: process.answers)
            reader.keepWaiting = { [unowned process] in process.mayStillAnswer() }
            reader.alongside = (process.output, { [unowned output] in output.read() })
        }

        /// Keeps a line on its answers that is no result as the cause it gives (a few, bounded).
        func note(_ line: [UInt8]) {
            guard !line.isEmpty, lastWords.count < 3, WorkerProtocol.resultLine(line, token: token) == nil else { return }
            lastWords.append(String(decoding: line.prefix(1000), as: UTF8.self))
        }

        /// Why its file failed: how it ended, after the cause it gave.
        func died(_ when: String) -> String {
            let ending = "its worker process \(process.ending) \(when)"
            return lastWords.isEmpty ? ending : "\(lastWords.joined(separator: " ")) (\(ending))"
        }
    }

    private func start() throws -> Worker {
        adopt(try WorkerProcess(executable: executable, arguments: settings.workerArguments()))
    }

    /// A started worker: tracked, and given its token.
    private func adopt(_ process: WorkerProcess) -> Worker {
        condition.lock()
        running.append(process)
        condition.unlock()
        let worker = Worker(process: process)
        try? worker.requests.write(contentsOf: Data((worker.token + "\n").utf8))
        return worker
    }

    /// No more files: the worker's input ends, and how it exits still counts. Its answers end
    /// with it; what its standard output holds then is dropped, unread: a process a test left
    /// running may hold it and write forever (`yes &`).
    private func finish(_ worker: Worker) {
        try? worker.requests.close()
        while let line = worker.reader.next() { worker.note(line) }
        worker.process.waitUntilExit()
        condition.lock()
        if !worker.process.exitedCleanly, let lastFile = worker.lastFile, !stopped {
            lateFailures.append(crashed(lastFile, worker.died("after reporting results")))
        }
        condition.unlock()
    }

    /// A worker's answer: its result line (the marker and token cut off), what its file wrote
    /// to standard output, and whether its state closed after (false: the worker ended first).
    private struct Answer {
        let line: ArraySlice<UInt8>
        let printed: String?
        var closed = true
    }

    /// Reads the worker's answers up to the result line bearing the token and naming `file` and
    /// the line saying its state closed, then what its standard output holds. A result for
    /// another file (a second one for the file before, or one a test forged with the token it
    /// read from its memory) answers nothing.
    /// A records line (the worker asked for its finished tests as the run ends) is kept for the
    /// run's ending (`RunEnding.sent`).
    private func awaitAnswer(_ worker: Worker, file: String, at position: Int) -> Answer? {
        worker.lastWords = []
        worker.sentRecords = []
        var results: ArraySlice<UInt8>?
        while let line = worker.reader.next() {
            // An answer cut short (its worker died writing it) is no answer.
            let ended = worker.reader.lastLineEnded
            if ended, let records = WorkerProtocol.recordsLine(line, token: worker.token) {
                if results == nil {
                    RunEnding.sent(records, at: position)
                    worker.sentRecords = Array(records)
                }
                continue
            }
            if ended, let done = results, WorkerProtocol.isClosed(line, token: worker.token) {
                worker.output.drain()
                return Answer(line: done, printed: worker.output.take())
            }
            if ended, results == nil, let result = WorkerProtocol.resultLine(line, token: worker.token),
               ResultRecords.fileName(result).map({ $0 == file }) ?? true {
                results = result
                continue
            }
            worker.note(line)
        }
        return results.map { Answer(line: $0, printed: worker.output.take(), closed: false) }
    }

    /// `ending`: why its worker ended before the file's state closed (a failure added).
    private func decode(_ answer: Answer, file: String, ending: String? = nil) -> FileResult {
        guard var result = ResultRecords.fileResult(answer.line) else {
            return crashed(file, "its worker sent a result it could not read")
        }
        // What the worker's processes wrote to standard output goes where a serial run's goes:
        // to standard error under a machine format (atk-new 11: lost from JSON, inside TAP and
        // JUnit's document), else with what the file printed.
        if let printed = answer.printed {
            if StandardStreams.reportOwnsStandardOutput { StandardStreams.err(printed) } else { result.output = printed + result.output }
        }
        if let ending { result.tests += crashed(file, ending).tests }
        return result
    }

    private func crashed(_ file: String, _ detail: String) -> FileResult {
        let message = Catalogue.testFailure.message("\(file): \(detail)")
        // An error of the file, outside its tests, as a serial run reports it (RunEnding's last
        // words): JUnit's bare <error>, not a test (atk-new 09).
        return FileResult(file: file, tests: [TestResult(name: file, file: file, line: 0, status: .errored, message: message, descriptor: "file")])
    }
}
