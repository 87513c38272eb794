/// `--shard I/N`: shards split the tests, not the files. Every file is loaded in every shard;
/// the test at `position` among its file's selected tests (declaration order, before any
/// shuffle) of the file at `fileIndex` (sorted order) belongs to shard
/// `(fileIndex + position) % N + 1`. So the N shards partition the selected tests exactly,
/// and starting each file at a different shard keeps many small files balanced.
struct Shard: Sendable, Equatable, CustomStringConvertible {
    let index: Int
    let count: Int

    init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
              count >= 1, index >= 1, index <= count else { return nil }
        self.index = index
        self.count = count
    }

    func includes(fileIndex: Int, position: Int) -> Bool {
        (fileIndex + position) % count == index - 1
    }

    var description: String { "\(index)/\(count)" }
}
