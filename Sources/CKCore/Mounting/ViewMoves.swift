/// How many views a reorder moves: the kept views (those with an index from before the pass)
/// outside a longest increasing subsequence of their old indices stay where they are relative
/// to each other, so only the others need to move, as the fastest keyed reconcilers do.
enum ViewMoves {
    /// `order`: a superview's new subviews; arrivals carry index -1 and are inserts, not moves.
    /// O(n) when the kept views are already in order, O(n log n) otherwise.
    static func count(_ order: [View]) -> Int {
        var kept = 0
        var last: Int32 = -1
        var inOrder = true
        for v in order where v.indexInSuperview >= 0 {
            kept += 1
            if v.indexInSuperview < last { inOrder = false }
            last = v.indexInSuperview
        }
        if inOrder { return 0 }
        return kept - longestIncreasingRun(order.lazy.map(\.indexInSuperview).filter { $0 >= 0 })
    }

    /// Patience sorting: `tails[k]` is the smallest last element of an increasing
    /// subsequence of length k + 1 seen so far.
    static func longestIncreasingRun<S: Sequence>(_ values: S) -> Int where S.Element == Int32 {
        var tails: [Int32] = []
        for x in values {
            var low = 0, high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if tails[mid] < x { low = mid + 1 } else { high = mid }
            }
            if low == tails.count { tails.append(x) } else { tails[low] = x }
        }
        return tails.count
    }
}
