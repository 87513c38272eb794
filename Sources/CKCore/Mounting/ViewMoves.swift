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
        var indices: [Int32] = []
        indices.reserveCapacity(kept)
        for v in order where v.indexInSuperview >= 0 { indices.append(v.indexInSuperview) }
        return kept - longestIncreasingRun(indices)
    }

    /// Patience sorting: `tails[k]` is the smallest last element of an increasing
    /// subsequence of length k + 1 seen so far (in one buffer as long as `values`).
    static func longestIncreasingRun(_ values: [Int32]) -> Int {
        var tails = [Int32](repeating: 0, count: values.count)
        return tails.withUnsafeMutableBufferPointer { tails in
            var length = 0
            for x in values {
                // A nearly sorted list (a swap, a removal) mostly extends the longest run.
                if length == 0 || tails[length - 1] < x {
                    tails[length] = x
                    length += 1
                    continue
                }
                var low = 0, high = length - 1
                while low < high {
                    let mid = (low + high) / 2
                    if tails[mid] < x { low = mid + 1 } else { high = mid }
                }
                tails[low] = x
            }
            return length
        }
    }
}
