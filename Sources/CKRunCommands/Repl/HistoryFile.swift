import CKCore
#if canImport(Glibc)
import Glibc
#endif

/// The REPL's history file, in the format libedit reads (`_HiStOrY_V2_`, then one entry a line,
/// its spaces, newlines, controls and backslashes escaped as libedit's `strvis` does, so a
/// line written by either reads the same). Each entry is appended
/// when it is entered, under a lock, so a session that ends by a closed terminal, Ctrl-\\ or a
/// crash loses none of it, and sessions sharing the file interleave their lines. When a session
/// leaves, the file is cut to the newest `limit` entries: written whole beside it and renamed
/// over it (`ReplacingFile`), header first, so a cut that fails keeps the old file. (libedit's
/// own cut dropped the header, after which libedit read nothing from the file.)
struct HistoryFile {
    static let header: [UInt8] = Array("_HiStOrY_V2_".utf8)
    let path: String
    let limit: Int

    /// The entry's line as libedit would write it (without the newline).
    static func encoded(_ entry: String) -> [UInt8] {
        var out: [UInt8] = []
        for byte in entry.utf8 {
            if byte == UInt8(ascii: "\\") {
                out += [byte, byte]
            } else if byte <= 0x20 || byte == 0x7F {
                out += Array("\\\(String(byte, radix: 8).leftPadded(to: 3))".utf8)
            } else {
                out.append(byte)
            }
        }
        return out
    }

    /// The last entry's line in `bytes` (a history file's contents), nil if it has none.
    static func lastLine(of bytes: [UInt8]) -> [UInt8]? {
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: true)
        guard let last = lines.last, !last.elementsEqual(header) else { return nil }
        return Array(last)
    }

    /// Appends one entry (the header first into an empty file). Best effort: history that
    /// cannot be written is no error of the session's.
    func append(_ entry: String) {
        withLockedFile { fd, size in
            let line = (size == 0 ? Self.header + [10] : []) + Self.encoded(entry) + [10]
            _ = line.withUnsafeBytes { ProcessOutput.writeAll(fd, $0) }
        }
    }

    /// Keeps the newest `limit` entries and the header (put back if the file lost it).
    func cut() {
        withLockedFile(appendingAnyway: false) { _, _ in
            guard case .bytes(let bytes) = RegularFile.read(path, limit: TerminalLines.historyBytesLimit, what: "the history file") else { return }
            var lines = bytes.split(separator: 10, omittingEmptySubsequences: true)
            let hadHeader = lines.first.map { $0.elementsEqual(Self.header) } ?? false
            if hadHeader { lines.removeFirst() }
            guard lines.count > limit || !hadHeader else { return }
            let kept = lines.suffix(limit).flatMap { $0 + [10] }
            // Through a symlink (a dotfiles repository's link) the file it names is cut.
            try? ReplacingFile.write(Self.header + [10] + kept, to: BytePath.realPath(path) ?? path)
        }
    }

    /// Runs `body` with the file open for appending and locked, once the descriptor is the
    /// file the path names (another session's cut may have renamed a new file over it). The
    /// lock is waited for 50 ms at most: a process that holds it for good (stopped, hung, an
    /// NFS lock) must not hold the prompt. Without it an entry is appended all the same (one
    /// write, O_APPEND); a cut is left to a later session.
    private func withLockedFile(appendingAnyway: Bool = true, _ body: (Int32, Int) -> Void) {
        for _ in 0..<3 {
            let fd = BytePath.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return }
            defer { close(fd) }
            guard Self.lock(fd) else {
                var st = stat()
                if appendingAnyway, fstat(fd, &st) == 0 { body(fd, Int(st.st_size)) }
                return
            }
            var held = stat()
            guard fstat(fd, &held) == 0, held.st_mode & S_IFMT == S_IFREG else { return }
            guard let named = BytePath.status(path), named.st_ino == held.st_ino, named.st_dev == held.st_dev else { continue }
            body(fd, Int(held.st_size))
            return
        }
    }
}

extension HistoryFile {
    /// `flock` without waiting, tried for 50 ms.
    static func lock(_ fd: Int32) -> Bool {
        for attempt in 0..<10 {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
            guard errno == EWOULDBLOCK || errno == EINTR, attempt < 9 else { return false }
            usleep(5_000)
        }
        return false
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
