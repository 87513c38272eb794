import CLuaShims

/// A script's standard input while a full-screen view owns the terminal (`ckstdin.c`).
public enum StandardInput {
    /// From now, a read of standard input by `engine`'s scripts (`io.read`, `io.lines()`,
    /// `io.stdin:read`) calls `lend(1)` before it waits and `lend(0)` after, so that the view
    /// gives the terminal back in line mode for the read and takes it again; nil: reads go to
    /// C's stdin again. False when it could not be set (reads then wait as before).
    @discardableResult
    public static func lend(in engine: Engine, to lend: (@convention(c) (Int32) -> Void)?) -> Bool {
        ckstdin_lend(engine.lua.L, lend) != 0
    }
}
