#if canImport(Glibc)
import Glibc
#endif

/// The one writer of the process's standard output and standard error (scripts/check-layout
/// forbids other writes to them). It never traps: a reader that went away (EPIPE) ends the
/// process as a filter ends, quietly with SIGPIPE's status; any other failure (EBADF, ENOSPC,
/// EIO) is kept, and `finish` reports it as `[cannotWrite]` and makes the exit status non-zero.
public enum ProcessOutput {
    public enum Stream: Int32, Sendable {
        case output = 1, error = 2
        var name: String { self == .output ? "standard output" : "standard error" }
    }

    /// The first failure other than EPIPE: the stream and its errno.
    nonisolated(unsafe) public private(set) static var failure: (stream: Stream, error: Int32)?

    public static func out(_ text: String) { write(text, to: .output) }
    public static func err(_ text: String) { write(text, to: .error) }

    public static func write(_ text: String, to stream: Stream) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0), to: stream) }
    }

    /// What ends the process when a stream's reader has gone, instead of ending it at once: a
    /// test run's, which still writes its report files (`--junit`) first. It is called once, on
    /// the thread whose write failed, and says whether it took the end over; from then on what is
    /// written to that stream is dropped.
    nonisolated(unsafe) public static var onReaderGone: (() -> Bool)?
    /// The streams whose reader has gone, once `onReaderGone` took the end over.
    nonisolated(unsafe) private static var gone: (output: Bool, error: Bool) = (false, false)

    /// C's stdout, the stream Lua's print and Swift's print buffer in (set by `main`); nil: every
    /// stream is flushed.
    nonisolated(unsafe) public static var stdioOutput: UnsafeMutablePointer<FILE>?

    /// Writes to `stream`, or to `descriptor` standing for it (a copy of standard output kept for a report).
    public static func write(_ bytes: UnsafeRawBufferPointer, to stream: Stream, descriptor: Int32? = nil) {
        if stream == .output ? gone.output : gone.error { return }
        // What stdio holds (Lua's print, Swift's print) goes first: the order is the program's.
        // stdout alone: fflush(nil) locks every stream, stdin too, which a test blocked in
        // io.read holds, and the run's ending waited there until the process was killed.
        if fflush(stdioOutput) != 0 { failed(.output, errno) }
        if let error = writeAll(descriptor ?? stream.rawValue, bytes) { failed(stream, error) }
    }

    /// write(2) until all of `bytes` is written (short writes continued, EINTR retried); the errno that stopped it, or nil.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return n < 0 ? errno : EIO }
            offset += n
        }
        return nil
    }

    /// Whether the process started with SIGPIPE ignored (`trap '' PIPE`, a supervisor's choice):
    /// then a reader that goes away ends nothing, as under lua5.4, whose writes just fail; what
    /// is written to that stream afterwards is dropped. Set by `noteInheritedSignals`.
    nonisolated(unsafe) public private(set) static var pipeIgnoredAtStart = false

    /// Reads how the process was started: call first thing, before anything sets a handler.
    public static func noteInheritedSignals() {
        var action = sigaction()
        guard sigaction(SIGPIPE, nil, &action) == 0 else { return }
        pipeIgnoredAtStart = unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    static func failed(_ stream: Stream, _ error: Int32) {
        if error == EPIPE {
            if stream == .output ? gone.output : gone.error { return }
            if !pipeIgnoredAtStart { guard let onReaderGone, onReaderGone() else { endAsFilter() } }
            if stream == .output { gone.output = true } else { gone.error = true }
            return
        }
        if failure == nil { failure = (stream, error) }
    }

    /// Whether `descriptor` is a pipe whose reader has gone: stdio forgets the errno of a write
    /// that failed (Lua's print while SIGPIPE is ignored) but keeps its error flag.
    static func readerGone(_ descriptor: Int32) -> Bool {
        var probe = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        return poll(&probe, 1, 0) == 1 && probe.revents & Int16(POLLERR) != 0
    }

    /// Why an earlier write to `descriptor` failed, when stdio kept only its error flag: a closed
    /// descriptor (or the read-only /dev/null that stands for one closed at start) says so;
    /// anything else (a full disk) went with the write (0: unknown).
    static func lostCause(_ descriptor: Int32) -> Int32 {
        let flags = fcntl(descriptor, F_GETFL)
        if flags == -1 { return errno }
        return flags & O_ACCMODE == O_RDONLY ? EBADF : 0
    }

    /// Ends the process as SIGPIPE ends a filter whose reader has gone (`ckrun test | head -1`).
    public static func endAsFilter() -> Never { endBy(SIGPIPE) }

    /// Ends the process by `signal` with its default action, unblocked, so that the parent sees
    /// how it ended (a filter's SIGPIPE; the signal that stopped an interactive run).
    public static func endBy(_ signal: Int32) -> Never {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
        _exit(128 + signal)
    }

    /// The exit status for a run that ends with `status`: `stdio` (C's stdout) flushed, and a
    /// failed write reported on standard error (if it works) with a status that is not 0.
    public static func finish(status: Int32, stdio: UnsafeMutablePointer<FILE>) -> Int32 {
        errno = 0
        if fflush(stdio) != 0 || ferror(stdio) != 0 { failed(.output, readerGone(1) ? EPIPE : errno != 0 ? errno : lostCause(1)) }
        guard let failure else { return status }
        let reason = failure.error == 0 ? "a write the script made failed earlier" : SystemError.text(failure.error)
        var text = ProgramName.prefixed(Catalogue.cannotWrite.message("cannot write \(failure.stream.name): \(reason); part of what ckrun wrote there is lost; give it an output it can write (a file on a disk with room, a pipe, a terminal)")) + "\n"
        text.withUTF8 { _ = writeAll(2, UnsafeRawBufferPointer($0)) }
        return status == 0 ? 1 : status
    }
}
