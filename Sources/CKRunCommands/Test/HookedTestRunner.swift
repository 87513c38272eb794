import Foundation

/// Runs a file's planned tests with busted's hook order: a block's `setup` before its first
/// test and `teardown` after its last; `before_each` outer to inner, `after_each` inner to
/// outer. Each hook and each test body is a separate call with its own time limit.
final class HookedTestRunner {
    private let session: SpecSession
    private let file: String
    private let settings: TestRunSettings
    /// Blocks entered, outermost first.
    private var open: [Int] = []
    private var setupDone: Set<Int> = []
    private var setupFailures: [Int: TestResult] = [:]
    private var blockNames: [Int: String] = [:]
    /// Where a failing teardown is reported: the block's last test.
    private var lastResultOfBlock: [Int: Int] = [:]
    private var results: [TestResult] = []

    init(session: SpecSession, file: String, settings: TestRunSettings) {
        self.session = session
        self.file = file
        self.settings = settings
    }

    func run(_ plan: [PlannedTest]) -> [TestResult] {
        for test in plan {
            if test.pending {
                results.append(result(test, status: .skipped, message: "pending"))
                continue
            }
            for (block, name) in zip(test.blocks, test.blockNames) { blockNames[block] = name }
            leave(to: test.blocks)
            enter(test.blocks)
            results.append(run(test))
            for block in test.blocks { lastResultOfBlock[block] = results.count - 1 }
            if settings.failFast, results[results.count - 1].didFail { break }
        }
        leave(to: [])
        return results
    }

    private func leave(to path: [Int]) {
        while let last = open.last, open.count > path.count || path[open.count - 1] != last {
            open.removeLast()
            guard setupDone.contains(last) else { continue }
            let outcome = session.phase("teardown", id: last, timeout: settings.timeout)
            if let index = lastResultOfBlock[last] { results[index].absorb(outcome, in: "teardown of \(describe(last))") }
        }
    }

    private func enter(_ path: [Int]) {
        for block in path.dropFirst(open.count) {
            let outerFailed = open.contains { setupFailures[$0] != nil }
            open.append(block)
            if outerFailed { continue }
            var failure = TestResult(name: "", file: file, line: 0, status: .passed)
            failure.absorb(session.phase("setup", id: block, timeout: settings.timeout), in: "setup of \(describe(block))")
            if failure.didFail { setupFailures[block] = failure } else { setupDone.insert(block) }
        }
    }

    private func run(_ test: PlannedTest) -> TestResult {
        if let failed = test.blocks.lazy.compactMap({ self.setupFailures[$0] }).first {
            var copy = result(test, status: failed.status, message: failed.message)
            copy.traceback = failed.traceback
            return copy
        }
        let start = DispatchTime.now()
        var outcome = result(test, status: .passed, message: nil)
        _ = try? session.call("begin", String(test.id))
        var entered = 0
        for block in test.blocks {
            entered += 1
            outcome.absorb(session.phase("before_each", id: block, timeout: settings.timeout), in: "before_each")
            if outcome.status != .passed { break }
        }
        if outcome.status == .passed {
            outcome.absorb(session.phase("body", id: test.id, timeout: settings.timeout), in: nil)
        }
        outcome.absorb(session.phase("finally", id: 0, timeout: settings.timeout), in: "finally")
        for block in test.blocks.prefix(entered).reversed() {
            outcome.absorb(session.phase("after_each", id: block, timeout: settings.timeout), in: "after_each")
        }
        outcome.output = (try? session.call("finish")) ?? ""
        outcome.seconds = seconds(since: start)
        return outcome
    }

    private func result(_ test: PlannedTest, status: TestStatus, message: String?) -> TestResult {
        TestResult(name: test.fullName, file: file, line: test.line, status: status, message: message)
    }

    private func describe(_ block: Int) -> String {
        let name = blockNames[block] ?? ""
        return name.isEmpty ? "the file's top level" : "describe \"\(name)\""
    }
}

extension TestResult {
    /// Takes in how one phase ended: the first failure or error decides the status; later
    /// ones are appended to the message. `phase` names a hook for the message.
    mutating func absorb(_ outcome: PhaseOutcome, in phase: String?) {
        let prefix = phase.map { "in \($0): " } ?? ""
        switch outcome {
        case .passed:
            return
        case .skipped(let reason):
            if status == .passed {
                status = .skipped
                message = reason
            }
        case .failed(let text, let trace), .errored(let text, let trace):
            let newStatus: TestStatus = if case .failed = outcome { .failed } else { .errored }
            if didFail {
                message = (message ?? "") + "\n" + prefix + text
            } else {
                status = newStatus
                message = prefix + text
                traceback = trace
            }
        }
    }
}
