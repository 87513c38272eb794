import CKLua
import Foundation
import Testing

@Suite("MallocHeap.keepFreedMemory: what a state freed stays for the next one")
struct MallocHeapTests {
    /// The process's resident bytes (/proc/self/statm).
    static func resident() -> Int {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// A 16 MiB block (a big state's worth), written and freed, stays in the process: not a
    /// mapping of its own, unmapped at its free, nor trimmed off the heap's top, either of which
    /// the next state would fault back in page by page. Before: the block was mapped on its
    /// own, and the process's resident size fell by 16 MiB at its free.
    @Test func aFreedBlockStaysInTheProcess() throws {
        MallocHeap.keepFreedMemory()
        let size = 16 << 20
        let block = try #require(malloc(size))
        memset(block, 1, size)
        let before = Self.resident()
        free(block)
        let given = before - Self.resident()
        #expect(given < size / 2, "\(given) bytes went back to the system at the block's free")
    }
}
