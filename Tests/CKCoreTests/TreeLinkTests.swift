import CKCore
import CKTestHelpers
import Testing

/// Links up the tree (a component's parent and previous instance, a scope's parent) hold no weak
/// references; these check that they still never outlive what they point at.
@Suite("Links up the tree")
struct TreeLinkTests {
    @Test func aComponentHeldAfterItsTreeIsFreedHasNoParentButKeepsItsPath() throws {
        let f = CoreFixture()
        let leaf = f.component("Leaf", view: "UILabel")
        let list = f.stack("List") { _ in [try f.make(leaf), try f.make(leaf)] }
        var host: Host? = try Host(runtime: f.runtime) { _ in try f.make(list) }
        try host!.mount()
        let kept = host!.root!.children[1]
        #expect(kept.parent === host!.root)
        #expect(kept.view?.superview != nil)
        try host!.destroy()
        host = nil
        // The list (the only owner of its children array) is gone; the leaf must not point at it,
        // and names it still in its path, as before the list went (attack atk-mem 02).
        #expect(kept.parent == nil)
        #expect(kept.path == "List/Leaf")
        #expect(kept.shownPath == "List/Leaf")
    }

    @Test func theNextGenerationForgetsAFreedPreviousInstance() throws {
        let f = CoreFixture()
        let item = f.component("Item", scope: true)
        let host = try Host(runtime: f.runtime) { _ in try f.make(item) }
        try host.mount()
        weak let first = host.root
        try host.update(model: .nil)
        #expect(first == nil, "the first generation's root is freed once the second is committed")
        #expect(host.root?.scope?.isLive == true)
    }

    @Test func aScopeKeepsItsParentAfterLeavingTheTree() throws {
        let f = CoreFixture()
        let item = f.component("Item", identifiedByProps: true)
        let owner = f.component("Owner", scope: true) { c in
            c.state.isNil ? try f.make(item, props: .string("a")) : nil
        }
        let host = try Host(runtime: f.runtime) { _ in try f.make(owner) }
        let gone = try #require(host.find("Item")?.scope)
        try host.root!.scope!.host!.enqueue(.value(.int(1)), for: host.root!.scope!, synchronous: true)
        try host.flush()
        #expect(!gone.isLive)
        #expect(gone.parent === host.root!.scope, "a scope that left still names where it was")
        #expect(gone.path == "Owner/Item#a")
    }
}

/// After a build the runtime hands its bridge what the commit took out of the tree
/// (`Runtime.onComponentsLeft`), so a bridge can free a replaced generation in one collection.
@Suite("What a build replaces")
struct LeftTreeTests {
    @Test func aRedrawHandsOverWhatItReplacedParentsFirst() throws {
        let f = CoreFixture()
        let leaf = f.component("Leaf", view: "UILabel")
        let row = f.stack("Row") { _ in [try f.make(leaf)] }
        let list = f.stack("List") { _ in [try f.make(row), try f.make(row)] }
        let host = try Host(runtime: f.runtime) { _ in try f.make(list) }
        try host.mount()
        var handed: [[String]] = []
        var heldAtHandOver: [Bool] = []
        f.runtime.onComponentsLeft = { left in
            handed.append(left.map { $0?.name ?? "-" })
            heldAtHandOver.append(left.allSatisfy { $0?.isMounted == false })
        }
        try host.update(model: .nil)
        #expect(handed == [["List", "Row", "Leaf", "Row", "Leaf"]], "each before what it held")
        #expect(heldAtHandOver == [true], "handed over once unmounted")
    }

    /// The replaced leaf shares its props with its successor: it holds nothing the tree does not.
    @Test func aLeafUpdateHandsOverNothing() throws {
        let f = CoreFixture()
        let item = f.component("Item", scope: true)
        let host = try Host(runtime: f.runtime) { _ in try f.make(item) }
        try host.mount()
        var calls = 0
        f.runtime.onComponentsLeft = { _ in calls += 1 }
        try host.update(model: .nil)
        #expect(calls == 0)
    }
}
