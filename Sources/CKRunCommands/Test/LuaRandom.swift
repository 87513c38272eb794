/// Lua 5.4's `math.random` (xoshiro256**, `math.randomseed(n)` as lmathlib.c seeds it), so
/// busted's file shuffle (`busted/utils.lua`'s `shuffle(list, seed)`, over the run's files) gives
/// busted's order for a `--seed`: a failure that depends on busted's order is reproduced.
struct LuaRandom {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// `math.randomseed(seed)`: the state `{seed, 0xff, 0, 0}`, 16 values discarded.
    init(seed: Int64) {
        state = (UInt64(bitPattern: seed), 0xff, 0, 0)
        for _ in 0..<16 { _ = next() }
    }

    mutating func next() -> UInt64 {
        let (s0, s1, s2, s3) = state
        let result = rotate(s1 &* 5, 7) &* 9
        let t2 = s2 ^ s0, t3 = s3 ^ s1
        state = (s0 ^ t3, s1 ^ t2, t2 ^ (s1 << 17), rotate(t3, 45))
        return result
    }

    private func rotate(_ x: UInt64, _ n: UInt64) -> UInt64 { (x << n) | (x >> (64 - n)) }

    /// `math.random(n)`, n >= 1: lmathlib.c's `project` onto [0, n - 1], plus 1.
    mutating func random(_ n: Int) -> Int {
        let limit = UInt64(n - 1)
        var value = next()
        if limit & (limit &+ 1) == 0 { return Int(value & limit) + 1 }
        var mask = limit
        for shift: UInt64 in [1, 2, 4, 8, 16, 32] { mask |= mask >> shift }
        value &= mask
        while value > limit { value = next() & mask }
        return Int(value) + 1
    }

    /// busted's `shuffle(t, seed)`: `math.randomseed(seed)`, then from the last place down, swap
    /// with `math.random(n)`.
    static func bustedShuffle<T>(_ items: inout [T], seed: Int64) {
        var random = LuaRandom(seed: seed)
        var n = items.count
        while n >= 2 {
            items.swapAt(n - 1, random.random(n) - 1)
            n -= 1
        }
    }
}
