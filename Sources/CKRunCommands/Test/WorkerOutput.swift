#if canImport(Glibc)
import Glibc
#endif

/// What a `--jobs` worker's tests and their processes write to its standard output (a pipe of
/// its own, non-blocking here), read as it comes so the worker never waits on a full pipe, and
/// kept up to `cap` bytes a file, as a test's `print` is: a child writing 100 MB costs the
/// runner no more memory than one writing 1 MB.
final class WorkerOutput {
    static let cap = 1_000_000
    private let fd: Int32
    private var kept: [UInt8] = []
    private var dropped = 0
    private let chunk = UnsafeMutableRawPointer.allocate(byteCount: 65536, alignment: 16)

    init(fd: Int32) { self.fd = fd }
    deinit { chunk.deallocate() }

    /// Reads one chunk of what is there; false at the end (no writer left) or on an error.
    @discardableResult
    func read() -> Bool {
        var count = 0
        repeat { count = Glibc.read(fd, chunk, 65536) } while count < 0 && errno == EINTR
        if count < 0 { return errno == EAGAIN }
        guard count > 0 else { return false }
        let room = max(0, Self.cap - kept.count)
        kept.append(contentsOf: UnsafeRawBufferPointer(start: chunk, count: min(room, count)))
        dropped += count - min(room, count)
        return true
    }

    /// Reads what the pipe holds now (all the worker wrote before it answered: its writes were
    /// done by then), and no more than 1 MiB: a process a test left running may write forever.
    func drain() {
        var total = 0
        while total < 1 << 20 {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) > 0, ready.revents & Int16(POLLIN) != 0 else { return }
            let before = kept.count + dropped
            guard read() else { return }
            total += kept.count + dropped - before
        }
    }

    /// What was kept since the last call, ending in a newline (nil: nothing), and the cut's note.
    func take() -> String? {
        defer { kept = []; dropped = 0 }
        guard !kept.isEmpty else { return nil }
        var text = String(decoding: kept, as: UTF8.self)
        if kept.last != 10 { text += "\n" }
        if dropped > 0 { text += "[cut: output past \(Self.cap) bytes not kept]\n" }
        return text
    }
}
