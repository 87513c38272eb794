/// The clock's unit: whole nanoseconds in an `Int64` (292 years), so that times a script gives
/// in decimal seconds add up exactly (0.1 + 0.1 + 0.1 is 0.3) and each conversion rounds once.
/// A delay past the range, or `math.huge`, is `never`; the clock itself stops at `end` (a finite
/// move past it, `ck.advance(1e10)`, reaches `end` and fires what is due).
public enum ClockTicks {
    /// A time the clock never reaches.
    public static let never = Int64.max
    /// The latest time the clock reaches (292.27 years): a finite move past it stops there.
    public static let end = never - 1
    static let perSecond = 1_000_000_000.0

    /// `seconds` in nanoseconds, rounded to the nearest (nan: 0).
    public static func ticks(_ seconds: Double) -> Int64 {
        guard !seconds.isNaN else { return 0 }
        let t = (seconds * perSecond).rounded()
        // 2^63 is the first Double past Int64 (9.2e9 s, under it, was `never`: atk-new2 01).
        if t >= 9_223_372_036_854_775_808.0 { return never }
        if t <= -9_223_372_036_854_775_808.0 { return -never }
        return Int64(t)
    }

    /// Nanoseconds in seconds (`never`: infinity).
    public static func seconds(_ ticks: Int64) -> Double {
        ticks == never ? .infinity : Double(ticks) / perSecond
    }

    /// `a + b`, `never` when it passes the range.
    static func adding(_ a: Int64, to b: Int64) -> Int64 {
        if a == never || b == never { return never }
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (a < 0 ? 0 : never) : sum
    }
}
