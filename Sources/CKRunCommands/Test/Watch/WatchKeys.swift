#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `--watch`'s keys on a terminal, as Jest's: `a` runs every test file, `f` the tests that failed
/// last, `u` every file updating the snapshots that differ, `p` asks for a test-name pattern
/// (`--filter`; empty clears it), `q` quits. Standard input is read a key at a time without echo
/// while the watcher waits (restored at the end, on Ctrl-C too); not a terminal: no keys.
final class WatchKeys {
    enum Key: UInt8 {
        case all = 0x61, failed = 0x66, update = 0x75, pattern = 0x70, quit = 0x71
    }

    /// The terminal's settings before the watcher changed them: restored at exit and on a signal.
    nonisolated(unsafe) private static var saved = termios()

    let fd: Int32 = 0
    static let usage = "a: all, f: failed, u: update snapshots, p: filter by name, q: quit"

    /// nil when standard input is not a terminal.
    init?() {
        guard isatty(0) == 1, tcgetattr(0, &Self.saved) == 0 else { return nil }
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { number in
                WatchKeys.restore()
                _exit(128 + number)
            }
        }
        atexit { WatchKeys.restore() }
        keysMode()
    }

    /// The settings as they were, unless the process is in the background (it would stop there).
    private static func restore() {
        if ForegroundTerminal.owns(0) { tcsetattr(0, TCSANOW, &saved) }
    }

    /// One key at a time, no echo; Ctrl-C still signals.
    private func keysMode() {
        var raw = Self.saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(0, TCSANOW, &raw)
    }

    enum Input { case key(Key), other, end }

    /// What was typed (input is ready): a key, something else, or the end of input. A key acts
    /// only when its byte came alone, as Jest's watch mode compares each chunk of input with a
    /// key: a paste (or an arrow's escape sequence) arrives as a burst of bytes, every byte the
    /// terminal has at once, and is ignored whole, so pasting text holding a `q` quits nothing.
    func read() -> Input {
        var burst = [UInt8](repeating: 0, count: 4096)
        let count = Glibc.read(fd, &burst, burst.count)
        guard count > 0 else { return .end }
        guard count == 1, !moreArrives() else {
            while moreArrives(), Glibc.read(fd, &burst, burst.count) > 0 {}   // the rest of the burst
            return .other
        }
        return Key(rawValue: burst[0]).map(Input.key) ?? .other
    }

    /// Input follows within a few milliseconds: the same burst (a paste the terminal writes in
    /// pieces), never a person's next key.
    private func moreArrives() -> Bool {
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, 15) > 0
    }

    /// Asks for a line with the terminal's own editing and echo: the bytes up to the line's end.
    func ask(_ prompt: String) -> String {
        StandardStreams.err(prompt)
        tcsetattr(0, TCSANOW, &Self.saved)
        defer { keysMode() }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while Glibc.read(fd, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        return String(decoding: line, as: UTF8.self)
    }
}
