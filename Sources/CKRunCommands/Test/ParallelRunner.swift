import CKCore
import Foundation

/// `--jobs N`: runs each file in a child process (this executable in its hidden worker mode),
/// N at a time, and hands the results back in the run's order, whatever order they finish in.
final class ParallelRunner: @unchecked Sendable {
    typealias File = (path: String, index: Int)

    private let jobs: Int
    private let settings: TestRunSettings
    private let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    /// Guards everything below it.
    private let condition = NSCondition()
    private var finished: [Int: (result: FileResult, stderr: String)] = [:]
    private var nextToStart = 0
    private var stopped = false
    private var running: [Int: Process] = [:]

    init(jobs: Int, settings: TestRunSettings) {
        self.jobs = jobs
        self.settings = settings
    }

    /// Calls `consume` with each file's result in order; it returns false to stop the run.
    func run(_ files: [File], consume: (FileResult) -> Bool) {
        for _ in 0..<min(jobs, files.count) {
            Thread.detachNewThread { [self] in
                while let position = claim(files.count) {
                    let outcome = runWorker(files[position], position: position)
                    store(outcome, at: position)
                }
            }
        }
        for position in files.indices {
            let (result, stderr) = wait(for: position)
            if !stderr.isEmpty { StandardStreams.err(stderr) }
            if !consume(result) { break }
        }
        stop()
    }

    private func claim(_ count: Int) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped, nextToStart < count else { return nil }
        nextToStart += 1
        return nextToStart - 1
    }

    private func store(_ outcome: (FileResult, String), at position: Int) {
        condition.lock()
        finished[position] = outcome
        condition.broadcast()
        condition.unlock()
    }

    private func wait(for position: Int) -> (FileResult, String) {
        condition.lock()
        defer { condition.unlock() }
        while finished[position] == nil { condition.wait() }
        return finished.removeValue(forKey: position)!
    }

    /// No new workers; the running ones are ended (their results are no longer wanted).
    private func stop() {
        condition.lock()
        stopped = true
        let processes = Array(running.values)
        condition.unlock()
        for process in processes where process.isRunning { process.terminate() }
    }

    private func runWorker(_ file: File, position: Int) -> (FileResult, String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = settings.workerArguments(file: file.path, fileIndex: file.index)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        condition.lock()
        if stopped {
            condition.unlock()
            return (FileResult(file: file.path), "")
        }
        running[position] = process
        condition.unlock()
        defer {
            condition.lock()
            running[position] = nil
            condition.unlock()
        }
        do {
            try process.run()
        } catch {
            return (crashed(file.path, "could not start a worker: \(error.localizedDescription)"), "")
        }
        // Read both pipes at once so a worker that fills one is never blocked.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let stderr = String(decoding: errData, as: UTF8.self)
        let (decoded, otherOutput) = WorkerProtocol.decode(String(decoding: outData, as: UTF8.self))
        guard var result = decoded else {
            return (crashed(file.path, "its worker process ended (status \(process.terminationStatus)) without reporting results"), stderr)
        }
        if !otherOutput.isEmpty { result.output = otherOutput.asLines + result.output }
        return (result, stderr)
    }

    private func crashed(_ file: String, _ detail: String) -> FileResult {
        let message = Catalogue.testFailure.message("\(file): \(detail)")
        return FileResult(file: file, tests: [TestResult(name: file, file: file, line: 0, status: .errored, message: message)])
    }
}
