#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A file's path as the system knows it: the bytes from the command line or a directory listing,
/// carried in a `String` by `ByteText` (a byte that is not UTF-8 is one private-use scalar).
/// Every system call on such a path goes through here, with its exact bytes, and a reader sees
/// it through `shown` (`caf\xE9_spec.lua`). Swift's own conversions (a `String` passed as a C
/// string, `FileManager`, `String(cString:)`) wrote or read other bytes: `ckrun tree $'\xff.lua'`
/// said no such file. `check-layout` refuses them for paths.
public enum BytePath {
    /// `body` with `path`'s bytes as a C string (a path holding a NUL ends there, as in C).
    public static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        guard path.unicodeScalars.contains(where: ByteText.isCarried) else { return try path.withCString(body) }
        var bytes = ByteText.bytes(of: path)
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { raw in
            try raw.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// The path a C string names (from `argv`, `realpath`, `getcwd`).
    public static func path(cString: UnsafePointer<CChar>) -> String { ByteText.text(cString: cString) }

    /// `path` for a reader: each byte that is not UTF-8 as `\xNN`.
    public static func shown(_ path: String) -> String { ByteText.shown(path) }

    /// `stat(2)` of `path` (links followed), or nil.
    public static func status(_ path: String) -> stat? {
        var info = stat()
        return withCString(path) { stat($0, &info) } == 0 ? info : nil
    }

    public static func exists(_ path: String) -> Bool { status(path) != nil }

    /// Whether `path` (links followed) is on /proc or /sys, the file systems of the process and
    /// the kernel (the device of a mounted /proc or /sys): their files are no one's sources, and
    /// /proc's links lead back to the whole file system (`/proc/self/root`), so a walk never ends.
    public static func isKernelFileSystem(_ path: String) -> Bool {
        guard let device = status(path)?.st_dev, let root = status("/")?.st_dev else { return false }
        return ["/proc", "/sys"].contains { mount in
            guard let own = status(mount)?.st_dev else { return false }
            return own != root && own == device
        }
    }

    public static func isDirectory(_ path: String) -> Bool { status(path).map { $0.st_mode & S_IFMT == S_IFDIR } ?? false }

    /// `access(2)`.
    public static func access(_ path: String, _ mode: Int32) -> Bool { withCString(path) { Glibc.access($0, mode) } == 0 }

    /// `open(2)`: the descriptor, or -1 with errno set.
    public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        withCString(path) { Glibc.open($0, flags, mode) }
    }

    /// The real path (links and `..` resolved), or nil.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return ByteText.text(cString: resolved)
    }

    /// The working directory, or "." when it cannot be read.
    public static func currentDirectory() -> String {
        guard let cwd = getcwd(nil, 0) else { return "." }
        defer { free(cwd) }
        return ByteText.text(cString: cwd)
    }

    public static func changeDirectory(_ path: String) -> Bool { withCString(path) { chdir($0) } == 0 }

    /// `path` made absolute against the working directory, lexically (`.` and `..` kept).
    public static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        let base = currentDirectory()
        return base.hasSuffix("/") ? base + path : base + "/" + path
    }

    /// A directory's entries ("." and ".." left out), each name as its bytes; nil if it
    /// cannot be read.
    public static func entries(of directory: String) -> [String]? {
        guard let dir = withCString(directory, { opendir($0) }) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { ByteText.text($0.prefix { $0 != 0 }) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// `mkdir -p` of the directory that holds `path`; errno's message when one cannot be made.
    public static func makeParentDirectories(of path: String) -> String? {
        var prefix = "", parts = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        if path.hasPrefix("/") { prefix = "/"; parts = parts.dropFirst() }
        for part in parts where !part.isEmpty {
            prefix += part
            if withCString(prefix, { mkdir($0, 0o777) }) != 0 {
                guard errno == EEXIST else { return "cannot make the directory \(shown(prefix)): \(SystemError.text(errno))" }
                var st = stat()
                if withCString(prefix, { stat($0, &st) }) == 0, st.st_mode & S_IFMT != S_IFDIR {
                    return "cannot make the directory \(shown(prefix)): a file of that name is in the way"
                }
            }
            prefix += "/"
        }
        return nil
    }
}
