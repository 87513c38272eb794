import CKCore
import CKTestHelpers
import Testing

/// A child's place across builds is its entry of the children list, `false` and nil holes
/// counted; what looks for a lost child's neighbour (the live view's focus) goes by entries too.
@Suite("A child's entry and its neighbours' order")
struct SiblingPlaceTests {
    /// Children at entries 3, 4, 5 and 11: `{nil, nil, a, b, c, [11] = submit}`.
    private func listWithHoles() throws -> (CoreFixture, Host) {
        let f = CoreFixture()
        let leaf = f.component("Leaf", view: "UIView")
        let list = ComponentClass(name: "List")
        list.children = { _ in ([try f.make(leaf), try f.make(leaf), try f.make(leaf), try f.make(leaf)], [3, 4, 5, 11]) }
        f.runtime.define(list)
        let host = try Host(runtime: f.runtime) { _ in try f.make(list) }
        try host.mount()
        return (f, host)
    }

    @Test func aChildsEntryCountsTheHolesBeforeIt() throws {
        let (_, host) = try listWithHoles()
        let root = try #require(host.root)
        #expect(root.children.map(\.entryInParent) == [3, 4, 5, 11])
        #expect(root.entryInParent == 1)
    }

    /// The one at the entry, then the nearest before it, then after it: a child lost from entry
    /// 6 has entry 5's as its neighbour, not entry 11's (the fourth child, as the lost one was).
    @Test func neighboursAreLookedForAtTheEntryThenBeforeThenAfter() throws {
        let (_, host) = try listWithHoles()
        let root = try #require(host.root)
        #expect(root.childIndices(aroundEntry: 6) == [2, 1, 0, 3])
        #expect(root.childIndices(aroundEntry: 4) == [1, 0, 2, 3])
        #expect(root.childIndices(aroundEntry: 11) == [3, 2, 1, 0])
        #expect(root.childIndices(aroundEntry: 1) == [0, 1, 2, 3])
        #expect(root.childIndices(aroundEntry: 40) == [3, 2, 1, 0])
    }
}
