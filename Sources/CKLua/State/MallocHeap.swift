import CLuaShims

/// The process's malloc heap (Lua's blocks and Swift's objects together).
public enum MallocHeap {
    /// Keeps what is freed in the heap for the next allocations (`ckalloc_keep_freed_memory`):
    /// a process that makes a state, closes it and makes the next (`ckrun test`, a state a file)
    /// then takes the next state's memory from the last one's instead of faulting pages in again.
    public static func keepFreedMemory() { ckalloc_keep_freed_memory() }

    /// Has malloc merge the small blocks freed since its last merge now: a benchmark calls it
    /// after its untimed collections, so the merge falls outside what it times.
    public static func settle() { ckalloc_settle_heap() }
}
