import CKTestHelpers
import Foundation
import Testing

/// The outsider's attack after issue 24, B6: every error the process prints carries a stable id
/// from the catalogue. Usage errors went out as ArgumentParser's `Error: …` or `ckrun: …`, a
/// missing or unreadable file as `cannot read …`, with no id.
@Suite("Every printed error starts with its id")
struct ErrorIdTests {
    static let badInvocations: [[String]] = [
        ["--timeout", "x", "-e", "print(1)"],
        ["--timeout", "0", "-e", "print(1)"],
        ["--memory-limit", "0.5", "-e", "print(1)"],
        ["--memory-limit", "0", "-e", "print(1)"],
        ["--clock", "sideways", "-e", "print(1)"],
        ["test", "--shard", "3/2"],
        ["test", "--memory-limit", "0.5"],
        ["test", "--timeout", "-1"],
        ["test", "--jobs", "0"],
        // (`ckrun test /nonexistent/spec` is an error of the run, in its report on stdout, as
        // busted's: TestRunnerBasicsTests.aMissingPathIsAnErrorOfTheRunAndTheOthersRun.)
        ["tree"],
        ["tree", "/nonexistent/app.lua"],
        ["tree", "--memory-limit", "0", "/nonexistent/app.lua"],
        ["repl", "/nonexistent/app.lua"],
        ["bench", "--repeats", "0"],
        ["/nonexistent/app.lua"],
        ["/tmp"],
    ]

    @Test(arguments: badInvocations)
    func eachErrorLineStartsWithAnId(_ arguments: [String]) throws {
        let r = try Ckrun.run(arguments, stdin: "", timeout: 30)
        #expect(r.status != 0, "\(arguments)")
        let lines = r.stderr.split(separator: "\n")
        #expect(!lines.isEmpty, "\(arguments): nothing on stderr")
        for line in lines {
            // lua.c's shape: `progname: [id] …`.
            let text = line.drop { $0 != " " && $0 != "[" }.drop { $0 == " " }
            let message = line.hasPrefix("[") ? Substring(line) : text
            #expect(message.range(of: #"^\[[a-zA-Z]+\] "#, options: .regularExpression) != nil, "\(arguments): \(line)")
        }
    }
}

/// B5: SIGTERM during a turn stopped it as `[interrupted] stopped by Ctrl-C`; it names SIGTERM.
@Suite("The signal that stopped a turn")
struct TerminationMessageTests {
    @Test func sigtermIsNamed() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("app.lua", "return ck.component('C', {render = function() return ck.Text{text = 'x'} end})\n")
        let process = Process()
        process.executableURL = Ckrun.executableURL
        process.arguments = [app.path]
        let input = Pipe(), err = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        input.fileHandleForWriting.write(Data("io.stderr:write('looping\\n') while true do end\n".utf8))
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("looping") {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
        kill(process.processIdentifier, SIGTERM)
        seen += err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: seen, as: UTF8.self)
        #expect(text.contains("[interrupted]") && text.contains("stopped by SIGTERM"), "\(text)")
        #expect(!text.contains("Ctrl-C"), "\(text)")
    }
}
