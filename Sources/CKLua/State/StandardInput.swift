import CLuaShims

/// A script's standard input read by ckrun itself, for a full-screen view that owns the terminal
/// (`ckstdin.c`): never through C's stdin, whose buffer only libc's internals could see.
public enum StandardInput {
    /// What a read asks of the view: `lending` 1, give the terminal back in line mode; 0, take it
    /// again, with the bytes the read got (`length` 0 when none, or the terminal did not echo them).
    public typealias Lender = @convention(c) (_ lending: Int32, _ read: UnsafePointer<CChar>?, _ length: Int) -> Void

    /// From now on `engine`'s scripts read standard input (`io.read`, `io.lines()`, `io.stdin:read`)
    /// through ckrun's own stream; with `lend` set, a read calls it around its wait, and a wait
    /// ends on the turn's stop (`--timeout`, Ctrl-C) as a script's loop would. Call before the
    /// script first reads; nil: no lender (the stream stays, and what it holds). False when it
    /// could not be set (reads then go to C's stdin as before).
    @discardableResult
    public static func own(in engine: Engine, lend: Lender? = nil) -> Bool {
        ckstdin_lend(engine.lua.L, lend) != 0
    }
}
