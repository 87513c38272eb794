/// Where each kept handle (SPEC §1, `ObjectRegistry.keepWhileLive`) is held, by its handle slot:
/// its arena (retained) and the slot there. An open-addressing table sized by the handles kept at
/// once, not by every handle slot (a dense array by handle slot cost 26 B a scoped leaf), hashed
/// by one multiply (Swift's `Dictionary` hashes an `Int32` with SipHash: a keep and a let-go cost
/// ~390 instructions more an update).
final class KeptHandles {
    private struct Entry {
        /// 0: empty (handle slots start at 1).
        var handle: Int32
        var arenaSlot: Int32
        var arena: Unmanaged<Arena>?
    }

    private var entries: UnsafeMutablePointer<Entry>
    /// Capacity - 1 (a power of two less one).
    private var mask: Int
    /// 32 less the capacity's bits: the multiply's top bits are the index.
    private var shift: UInt32
    private(set) var count = 0

    private static let smallest = 16

    init() {
        entries = Self.allocate(Self.smallest)
        mask = Self.smallest - 1
        shift = 32 - UInt32(Self.smallest.trailingZeroBitCount)
    }

    deinit {
        for i in 0...mask where entries[i].handle != 0 { entries[i].arena?.release() }
        entries.deallocate()
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Entry> {
        let p = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
        p.initialize(repeating: Entry(handle: 0, arenaSlot: 0, arena: nil), count: capacity)
        return p
    }

    @inline(__always)
    private func home(of handle: Int32) -> Int {
        Int((UInt32(bitPattern: handle) &* 0x9E37_79B1) >> shift)
    }

    /// Records that `handle` is kept in `arena`'s slot `arenaSlot` (not yet recorded).
    func insert(_ handle: Int32, arena: Arena, arenaSlot: Int32) {
        if (count + 1) &* 2 > mask + 1 { resize(to: (mask + 1) * 2) }
        var i = home(of: handle)
        while entries[i].handle != 0 { i = (i + 1) & mask }
        entries[i] = Entry(handle: handle, arenaSlot: arenaSlot, arena: .passRetained(arena))
        count += 1
    }

    /// Forgets `handle` and returns where it was kept (the arena's retain passes to the caller:
    /// `takeRetainedValue`), or nil if it was not recorded.
    func remove(_ handle: Int32) -> (arena: Unmanaged<Arena>, arenaSlot: Int32)? {
        var i = home(of: handle)
        while entries[i].handle != handle {
            if entries[i].handle == 0 { return nil }
            i = (i + 1) & mask
        }
        let found = entries[i]
        count -= 1
        // Backward-shift deletion: each later entry of the run moves into the hole if its home
        // does not lie (cyclically) between the hole and itself.
        var hole = i, j = i
        while true {
            j = (j + 1) & mask
            let h = entries[j].handle
            if h == 0 { break }
            let k = home(of: h)
            if (j > hole && (k <= hole || k > j)) || (j < hole && (k <= hole && k > j)) {
                entries[hole] = entries[j]
                hole = j
            }
        }
        entries[hole] = Entry(handle: 0, arenaSlot: 0, arena: nil)
        if mask + 1 > Self.smallest, count &* 8 < mask + 1 { resize(to: max(Self.smallest, (mask + 1) / 4)) }
        return (found.arena.unsafelyUnwrapped, found.arenaSlot)
    }

    /// The table again at `capacity` (a power of two, more than twice `count`).
    private func resize(to capacity: Int) {
        let old = entries, oldCapacity = mask + 1
        entries = Self.allocate(capacity)
        mask = capacity - 1
        shift = 32 - UInt32(capacity.trailingZeroBitCount)
        for e in UnsafeBufferPointer(start: old, count: oldCapacity) where e.handle != 0 {
            var i = home(of: e.handle)
            while entries[i].handle != 0 { i = (i + 1) & mask }
            entries[i] = e
        }
        old.deallocate()
    }
}
