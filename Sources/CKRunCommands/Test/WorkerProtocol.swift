import Foundation

/// How a `--jobs` worker hands its file's results to the parent: one line on standard output,
/// a marker then JSON. Anything else the worker printed (a child process writing straight
/// to the terminal, say) is kept as the file's output.
enum WorkerProtocol {
    static let marker = "\u{1E}ckrun-test-result "

    static func encode(_ result: FileResult) -> String {
        let json = (try? JSONEncoder().encode(result)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        return marker + json + "\n"
    }

    /// The result, if the worker got as far as reporting one, and everything else it printed.
    static func decode(_ stdout: String) -> (result: FileResult?, otherOutput: String) {
        var result: FileResult?
        var other: [Substring] = []
        for line in stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(marker) {
                result = try? JSONDecoder().decode(FileResult.self, from: Data(line.dropFirst(marker.count).utf8))
            } else {
                other.append(line)
            }
        }
        return (result, other.joined(separator: "\n"))
    }
}
