#if canImport(Glibc)
import Glibc
#endif

/// The name in front of every error ckrun writes as its own: argv[0], as
/// lua.c puts its own name in front of its errors, so `exec -a mylua`, a link or a path names
/// every line of a run the same way; "ckrun" when argv[0] is empty. C's lines use glibc's
/// `program_invocation_name`, the same argv[0] (`cklastresort_program`). `check-layout`
/// refuses a "ckrun: " written by hand.
public enum ProgramName {
    public static let shown: String = {
        let first = CommandLine.arguments.first ?? ""
        return first.isEmpty ? "ckrun" : first
    }()

    /// `message` as a line of the program's own, without its newline: "NAME: message".
    public static func prefixed(_ message: String) -> String { shown + ": " + message }
}
