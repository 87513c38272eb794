import CKCore
import CEditLine
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Standard input that is not a terminal (or a terminal without libedit): lines as they come,
/// no editing; the prompt only on a terminal. Lines are read from C's `stdin`, which Lua's
/// `io.read` shares: a line that reads the next one gets it, and the REPL goes on after it.
final class PipeLines: FrontEnd {
    let descriptor: Int32 = 0
    let isTerminal: Bool

    init(prompting: Bool) { isTerminal = prompting }

    func start(prompt: String) {
        guard isTerminal else { return }
        ProcessOutput.out(prompt)
        fflush(stdout)
    }

    /// One line (a line without its newline at the end of input is a line too).
    func readable() -> [InputEvent] {
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        let n = getline(&line, &capacity, stdin)
        guard n >= 0, let line else {
            clearerr(stdin)
            return [.end]
        }
        var bytes = Array(UnsafeRawBufferPointer(start: line, count: n))
        if bytes.last == 10 {
            bytes.removeLast()
            if bytes.last == 13 { bytes.removeLast() }
        }
        return [.line(bytes)]
    }

    var hasBufferedInput: Bool { ckedit_stdin_ready() != 0 }

    func remember(_ entry: [UInt8]) {}
    func aside(_ body: () -> Void) { body() }
    func didBuild() {}
    func interrupted(prompt: String) -> Bool {
        guard isTerminal else { return false }
        ProcessOutput.out("\n")
        start(prompt: prompt)
        return false
    }
    func resized() {}
    func close() {}
}
