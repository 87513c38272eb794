import CLuaShims

/// The process's malloc heap (Lua's blocks and Swift's objects together), for benchmarks.
public enum MallocHeap {
    /// Has malloc merge the small blocks freed since its last merge now: a benchmark calls it
    /// after its untimed collections, so the merge falls outside what it times.
    public static func settle() { ckalloc_settle_heap() }
}
