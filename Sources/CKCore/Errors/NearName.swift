/// The name a misspelling most likely meant, for the "did you mean" of messages (a lifecycle
/// method, a prop, a controller class, a type).
public enum NearName {
    /// The candidate one or two edits away (two only for longer names), if exactly one is nearest.
    public static func nearest(_ name: String, in candidates: [String]) -> String? {
        guard name.utf8.count >= 3 else { return nil }
        let limit = name.utf8.count >= 8 ? 2 : 1
        // The distance is at least the lengths' difference: a script-sized name is never
        // compared (its table of distances was 8 bytes × its length × the candidate's).
        let close = candidates.filter { abs($0.utf8.count - name.utf8.count) <= limit }
        let scored = close.map { ($0, distance(Array(name.utf8), Array($0.utf8))) }.filter { $0.1 > 0 && $0.1 <= limit }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.0
    }

    /// Edit distance (insertions, deletions, substitutions and swaps of neighbours).
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, rows[i - 2][j - 2] + 1) }
                rows[i][j] = d
            }
        }
        return rows[a.count][b.count]
    }
}
