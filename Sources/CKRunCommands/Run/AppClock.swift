#if canImport(Glibc)
import Glibc
#endif

/// The clock an interactive run's timers (`ck.after`) follow (SPEC §9). On the wall clock they
/// fire in real time while the run waits for input; on the virtual clock (a pipe: deterministic)
/// time moves only when the run says so: after each input it runs until idle, or `.advance`
/// moves it. Either can be paused (`--paused`, `.pause`): then only `.advance` moves it.
final class AppClock {
    enum Mode: String, CaseIterable { case wall, virtual }

    let mode: Mode
    private(set) var isPaused: Bool
    /// The reading when the wall clock last started or moved, and when (monotonic seconds).
    private var base = 0.0
    private var startedAt = AppClock.monotonic()

    init(mode: Mode, paused: Bool) {
        self.mode = mode
        isPaused = paused
    }

    /// The wall clock's reading (the virtual clock's is the run loop's own `now`).
    var wallNow: Double { isPaused ? base : base + (Self.monotonic() - startedAt) }

    func pause() {
        guard !isPaused else { return }
        base = wallNow
        isPaused = true
    }

    func resume() {
        guard isPaused else { return }
        startedAt = Self.monotonic()
        isPaused = false
    }

    /// The run loop's clock moved past this one (`.advance`, `ck.advance`): go on from there.
    func caughtUp(with loopNow: Double) {
        guard mode == .wall, loopNow > wallNow else { return }
        base = loopNow
        startedAt = Self.monotonic()
    }

    /// Seconds the run may wait before the timer due at `due` must fire; nil when timers do not
    /// fire by themselves (the virtual clock, a paused one, no timer).
    func wait(until due: Double?) -> Double? {
        guard mode == .wall, !isPaused, let due else { return nil }
        return max(0, due - wallNow)
    }

    static func monotonic() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
}
