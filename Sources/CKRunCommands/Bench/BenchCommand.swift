import ArgumentParser
import CKLua
import Foundation

/// `ckrun bench`: runtime costs, each as a ratio to plain Lua work measured in the same process.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the runtime against plain Lua (median of repeated runs)."
    )

    @Option(help: "Repetitions per figure; the median is reported.")
    var repeats = 5

    @Flag(help: "Smaller sizes, for a quick look.")
    var quick = false

    @Option(help: "Run only the figures whose name contains this.")
    var only: String?

    func run() throws {
        let engine = Engine()
        BenchSupport.install(in: engine)
        let startup = quick ? nil : measureStartup()
        do {
            try engine.runChunk(BenchScript.source, name: "=bench",
                                arguments: [String(repeats), quick ? "quick" : "full", only ?? "", startup.map { String($0) } ?? ""])
        } catch {
            FileHandle.standardError.write(Data("ckrun bench: \(error.description)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Median wall time of `ckrun -e ''`, in milliseconds.
    private func measureStartup() -> Double? {
        var times: [Double] = []
        for _ in 0..<max(5, repeats) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            p.arguments = ["-e", ""]
            let start = DispatchTime.now().uptimeNanoseconds
            guard (try? p.run()) != nil else { return nil }
            p.waitUntilExit()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return times.sorted()[times.count / 2]
    }
}
