/// A file's tests as its `describe` and `it` calls declared them (decoded from the prelude's JSON).
struct SpecNode: Decodable, Sendable {
    enum Kind: String, Decodable, Sendable { case block, test }
    var kind: Kind
    var id: Int
    var name: String
    var fullName: String
    var line: Int
    var pending: Bool?
    var selected: Bool?
    var children: [SpecNode]?
}

/// A test to run, with the describe blocks around it (the file's root block first).
struct PlannedTest: Sendable {
    var id: Int
    var fullName: String
    var line: Int
    var pending: Bool
    var blocks: [Int]
    /// Full names of `blocks`, for messages about their hooks.
    var blockNames: [String]
}

/// Chooses which tests of a file run and in what order.
enum TestPlanner {
    /// Selected tests in this shard; shuffled within each block when `random` is given
    /// (blocks stay together, so each block's setup and teardown still run once).
    static func plan(_ root: SpecNode, fileIndex: Int, shard: Shard?, random: SeededRandom?) -> [PlannedTest] {
        var kept = Set<Int>()
        var position = 0
        for test in tests(in: root) where test.selected ?? false {
            if shard?.includes(fileIndex: fileIndex, position: position) ?? true { kept.insert(test.id) }
            position += 1
        }
        var random = random
        var plan: [PlannedTest] = []
        order(root, blocks: [], names: [], kept: kept, random: &random, into: &plan)
        return plan
    }

    private static func tests(in node: SpecNode) -> [SpecNode] {
        if node.kind == .test { return [node] }
        return (node.children ?? []).flatMap { tests(in: $0) }
    }

    private static func order(_ node: SpecNode, blocks: [Int], names: [String], kept: Set<Int>,
                              random: inout SeededRandom?, into plan: inout [PlannedTest]) {
        switch node.kind {
        case .test:
            guard kept.contains(node.id) else { return }
            plan.append(PlannedTest(id: node.id, fullName: node.fullName, line: node.line,
                                    pending: node.pending ?? false, blocks: blocks, blockNames: names))
        case .block:
            var children = (node.children ?? []).filter { child in
                tests(in: child).contains { kept.contains($0.id) }
            }
            random?.shuffle(&children)
            for child in children {
                order(child, blocks: blocks + [node.id], names: names + [node.fullName], kept: kept,
                      random: &random, into: &plan)
            }
        }
    }
}
