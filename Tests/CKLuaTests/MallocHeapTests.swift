import CKLua
import Foundation
import Testing

@Suite("MallocHeap.keepFreedMemory: what a state freed stays for the next one")
struct MallocHeapTests {
    /// A 16 MiB block (a big state's worth) is carved from the heap, not a mapping of its own
    /// that its free would unmap and the next state fault back in page by page. glibc marks a
    /// mapped chunk in the size word before it (IS_MMAPPED, 0x2): read there, not from the
    /// process's resident size, which the suite's other tests move. Before: the block was mapped.
    @Test func aBigBlockIsNotAMappingOfItsOwn() throws {
        MallocHeap.keepFreedMemory()
        let block = try #require(malloc(16 << 20))
        defer { free(block) }
        let sizeWord = block.load(fromByteOffset: -MemoryLayout<UInt>.size, as: UInt.self)
        #expect(sizeWord & 0x2 == 0, "the 16 MiB block was mapped on its own (size word \(sizeWord))")
    }
}
