/// How every message shows a float a script gave (docs/api.md, "Argument numbers"): as Swift
/// writes it, NaN as `nan` whatever its sign bit (0/0 is a negative NaN on x86, which C's printf
/// and Lua's `tostring` write `-nan`).
public enum NumberText {
    public static func text(_ d: Double) -> String { d.isNaN ? "nan" : "\(d)" }

    /// `d`, which is not an integer's value, with why: `1.5 (a number that is not an integer)`,
    /// `1e+300 (an integral number outside the integer range)`.
    public static func notInteger(_ d: Double) -> String {
        if d.isNaN { return "nan (not a number)" }
        if d.isFinite, d.rounded() == d { return "\(d) (an integral number outside the integer range, -2^63 to 2^63-1)" }
        return "\(d) (a number that is not an integer)"
    }
}
