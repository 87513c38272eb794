import CKCore
import CKLua
#if canImport(Glibc)
import Glibc
#endif

/// The directory ckrun started in, noted before any script runs: a path given on the command
/// line or in the environment names a file as of then, as lua.c and editors read them. An app
/// that changes directory does not move its own file (`.reload`, `--watch`) or a relative
/// `$CKRUN_HISTORY`.
enum StartDirectory {
    nonisolated(unsafe) private(set) static var path: String?

    /// At the process's start.
    static func note() { path = BytePath.currentDirectory() }

    /// `relative` as of the start (an absolute path as it is).
    static func absolute(_ relative: String) -> String {
        guard !relative.hasPrefix("/"), let path else { return relative }
        return path == "/" ? "/" + relative : path + "/" + relative
    }

    /// Runs `body` in the start directory, then goes back to the current one (the app's own):
    /// `.reload` runs the app file's top level where a fresh start runs it, under the names it
    /// had then. As it is when either directory cannot be entered.
    static func within<T>(_ body: () throws(LuaError) -> T) throws(LuaError) -> T {
        guard let path else { return try body() }
        let here = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard here >= 0 else { return try body() }
        defer { _ = fchdir(here); close(here) }
        guard path != BytePath.currentDirectory(), BytePath.withCString(path, { chdir($0) }) == 0 else { return try body() }
        return try body()
    }
}
