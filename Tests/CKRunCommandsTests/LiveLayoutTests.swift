import CKCore
@testable import CKRunCommands
import Testing

/// A tree made in a line: a root and its children, each child a kind (the focusable ones are
/// buttons).
func liveTree(_ root: LiveTree.Kind, _ children: [LiveTree.Kind]) -> LiveTree {
    var tree = LiveTree()
    let r = tree.add(.init(kind: root), under: nil)
    for c in children {
        var node = LiveTree.Node(kind: c)
        if case .button = c { node.focusable = true }
        tree.add(node, under: r)
    }
    return tree
}

@Suite("The live view's layout: a view tree and a size give frames (no terminal)")
struct LiveLayoutTests {
    let rows: [LiveTree.Kind] = [.text(["Yesterday"]), .button("Download"), .text(["Let It Be"])]

    @Test func aVerticalStackPutsItsChildrenOneUnderAnother() {
        let frames = Layout.frames(liveTree(.stack(StackLayout()), rows), in: Size(width: 40, height: 10))
        #expect(frames[0] == Rect(x: 0, y: 0, width: 40, height: 10), "the root stack takes the area")
        // alignItems is stretch by default (CKFlexboxComponent's, CSS's): each child is as wide
        // as the column (atk-apps2 07).
        #expect(frames[1] == Rect(x: 0, y: 0, width: 40, height: 1))
        #expect(frames[2] == Rect(x: 0, y: 1, width: 40, height: 1))
        #expect(frames[3] == Rect(x: 0, y: 2, width: 40, height: 1))
        let atStart = Layout.frames(liveTree(.stack(StackLayout(alignItems: .start)), rows), in: Size(width: 40, height: 10))
        #expect(atStart[2] == Rect(x: 0, y: 1, width: 12, height: 1), "[ Download ] is 12 cells")
    }

    /// A button a stretching stack makes as wide as its column is hit across that width, the
    /// blank cells after `[ Download ]` too: UIKit hit-tests a view's bounds, and a stretched
    /// UIButton's frame (CKFlexboxComponent's layout) is the column's width. With
    /// `alignItems = "start"` its frame, and what a click hits, is its title's.
    @Test func aStretchedButtonIsHitAcrossItsFrameAsUIKitHitsItsBounds() {
        var stretched = Scene()
        stretched.resize(to: Size(width: 40, height: 10))
        stretched.replace(with: liveTree(.stack(StackLayout()), rows), key: { $0 })
        #expect(stretched.focusable(atRow: 1, column: 39) == 2)
        var atStart = Scene()
        atStart.resize(to: Size(width: 40, height: 10))
        atStart.replace(with: liveTree(.stack(StackLayout(alignItems: .start)), rows), key: { $0 })
        #expect(atStart.focusable(atRow: 1, column: 11) == 2)
        #expect(atStart.focusable(atRow: 1, column: 12) == nil)
    }

    @Test func aHorizontalStackWithSpacingPutsThemSideBySide() {
        let style = StackLayout(direction: .horizontal, spacing: 2)
        let frames = Layout.frames(liveTree(.stack(style), rows), in: Size(width: 60, height: 3))
        #expect(frames[1...].map(\.x) == [0, 11, 25])
        #expect(frames[1...].map(\.y) == [0, 0, 0])
    }

    @Test(arguments: [(StackLayout.Alignment.start, 0, 12), (.center, 14, 12), (.end, 28, 12), (.stretch, 0, 40)])
    func alignItemsPlacesChildrenAcrossTheDirection(alignment: StackLayout.Alignment, x: Int, width: Int) {
        let frames = Layout.frames(liveTree(.stack(StackLayout(alignItems: alignment)), [.button("Download")]), in: Size(width: 40, height: 5))
        #expect(frames[1].x == x)
        #expect(frames[1].width == width)
    }

    @Test(arguments: [(StackLayout.Justification.start, [0, 1, 2]), (.center, [3, 4, 5]), (.end, [7, 8, 9]), (.spaceBetween, [0, 5, 9])])
    func justifyContentPlacesChildrenAlongTheDirection(justify: StackLayout.Justification, ys: [Int]) {
        let frames = Layout.frames(liveTree(.stack(StackLayout(justifyContent: justify)), rows), in: Size(width: 40, height: 10))
        #expect(frames[1...].map(\.y) == ys)
    }

    @Test func aBoxFramesItsClassItsAttributesAndItsChild() {
        var tree = LiveTree()
        let box = tree.add(.init(kind: .box(title: "UIView", lines: ["color = \"red\""])), under: nil)
        tree.add(.init(kind: .text(["inside"])), under: box)
        let frames = Layout.frames(tree, in: Size(width: 80, height: 20))
        #expect(frames[0] == Rect(x: 0, y: 0, width: 17, height: 4), "13 cells of attribute + 2 + 2; 1 + 1 + 1 + 1 rows")
        #expect(frames[1] == Rect(x: 2, y: 2, width: 6, height: 1))
    }

    @Test func wideCharactersTakeTwoCells() {
        let frames = Layout.frames(liveTree(.stack(StackLayout(alignItems: .start)), [.text(["日本語"]), .text(["e\u{301}"])]), in: Size(width: 10, height: 2))
        #expect(frames[1].width == 6)
        #expect(frames[2].width == 1, "a combining accent takes no cell")
    }

    /// Nothing recurses: a chain of 100,000 stacks is measured and placed (a recursive layout
    /// overflowed the stack long before).
    @Test func aDeepChainIsLaidOutWithoutRecursion() {
        var tree = LiveTree()
        var parent: Int? = nil
        for _ in 0..<100_000 { parent = tree.add(.init(kind: .stack(StackLayout())), under: parent) }
        tree.add(.init(kind: .text(["leaf"])), under: parent)
        let frames = Layout.frames(tree, in: Size(width: 20, height: 5))
        #expect(frames.last == Rect(x: 0, y: 0, width: 20, height: 1), "stretched across the chain (alignItems' default)")
    }
}
