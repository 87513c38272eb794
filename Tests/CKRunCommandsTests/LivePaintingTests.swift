import CKCore
@testable import CKRunCommands
import Testing

@Suite("The live view's painting and focus, on a canvas of text")
struct LivePaintingTests {
    func paint(_ tree: LiveTree, _ size: Size, focused: Int? = nil, top: Int = 0) -> [String] {
        let canvas = TextCanvas(size)
        let frames = Layout.frames(tree, in: size)
        Painter(tree: tree, frames: frames, region: Rect(x: 0, y: 0, width: size.width, height: size.height), top: top, focused: focused)
            .paint(on: canvas)
        return canvas.lines
    }

    @Test func textsButtonsAndBoxesAreDrawnWhereTheyAreLaidOut() {
        var tree = LiveTree()
        let root = tree.add(.init(kind: .stack(StackLayout(direction: .horizontal, spacing: 1))), under: nil)
        tree.add(.init(kind: .text(["Title"])), under: root)
        let box = tree.add(.init(kind: .box(title: "UISwitch", lines: ["on = true"])), under: root)
        tree.add(.init(kind: .button("OK"), focusable: true), under: box)
        // The box is stretched to the row's height (alignItems' default, as in ComponentKit).
        #expect(paint(tree, Size(width: 30, height: 5), focused: 3) == [
            "Title ┌─ UISwitch ─┐",
            "      │ on = true  │",
            "      │ [▸OK◂]     │",
            "      │            │",
            "      └────────────┘",
        ])
    }

    @Test func whatDoesNotFitIsClippedAndScrolled() {
        let tree = liveTree(.stack(StackLayout()), (1...6).map { .text(["row \($0): 日本"]) })
        #expect(paint(tree, Size(width: 9, height: 3)) == ["row 1: 日", "row 2: 日", "row 3: 日"], "a wide character that does not fit is left out whole")
        #expect(paint(tree, Size(width: 9, height: 3), top: 3) == ["row 4: 日", "row 5: 日", "row 6: 日"])
    }

    @Test func tabGoesThroughFocusableViewsInOrderAndWraps() {
        let tree = liveTree(.stack(StackLayout()), [.button("a"), .text(["t"]), .button("b"), .button("c")])
        let order = Focus.order(tree)
        let frames = Layout.frames(tree, in: Size(width: 20, height: 10))
        #expect(order == [1, 3, 4])
        #expect(Focus.moved(.next, from: 4, order: order, frames: frames) == 1)
        #expect(Focus.moved(.previous, from: 1, order: order, frames: frames) == 4)
        #expect(Focus.moved(.next, from: nil, order: order, frames: frames) == 1)
    }

    @Test func arrowsGoToTheNearestViewThatWay() {
        // [ a ] [ b ]
        // [ c ] [ d ]
        var tree = LiveTree()
        let root = tree.add(.init(kind: .stack(StackLayout())), under: nil)
        for pair in [["a", "b"], ["c", "d"]] {
            let row = tree.add(.init(kind: .stack(StackLayout(direction: .horizontal, spacing: 1))), under: root)
            for t in pair { tree.add(.init(kind: .button(t), focusable: true), under: row) }
        }
        let order = Focus.order(tree), frames = Layout.frames(tree, in: Size(width: 20, height: 4))
        let (a, b, c, d) = (order[0], order[1], order[2], order[3])
        #expect(Focus.moved(.toward(.right), from: a, order: order, frames: frames) == b)
        #expect(Focus.moved(.toward(.down), from: b, order: order, frames: frames) == d)
        #expect(Focus.moved(.toward(.left), from: d, order: order, frames: frames) == c)
        #expect(Focus.moved(.toward(.up), from: c, order: order, frames: frames) == a)
        #expect(Focus.moved(.toward(.up), from: a, order: order, frames: frames) == a, "nothing above the first: it stays")
    }

    @Test func theFocusFollowsItsComponentAcrossRebuilds() {
        var scene = Scene()
        scene.resize(to: Size(width: 20, height: 2))
        let first = liveTree(.stack(StackLayout()), [.button("a"), .button("b"), .button("c")])
        let names = ["root", "a", "b", "c"]
        scene.replace(with: first) { names[$0] }
        scene.move(.next, key: { names[$0] })
        #expect(scene.focused == 2)
        // "a" left: "b" is now the first button, and keeps the focus.
        let second = liveTree(.stack(StackLayout()), [.button("b"), .button("c")])
        scene.replace(with: second) { ["root", "b", "c"][$0] }
        #expect(scene.focused == 1)
        // The third of three rows in a two-row area: scrolled into view.
        scene.replace(with: first) { names[$0] }
        scene.move(.toward(.down), key: { names[$0] })
        #expect(scene.focused == 3)
        #expect(scene.top == 1)
    }

    @Test func aPageScrolledTakesTheFocusAlongWhenItLeavesIt() {
        var scene = Scene()
        scene.resize(to: Size(width: 20, height: 3))
        let names = ["root"] + (1...9).map { "b\($0)" }
        scene.replace(with: liveTree(.stack(StackLayout()), (1...9).map { .button("b\($0)") })) { names[$0] }
        #expect(scene.focused == 1)
        scene.scroll(pages: 1, key: { names[$0] })
        #expect(scene.top == 2)
        #expect(scene.focused == 3, "the first button wholly on the new page")
        scene.scroll(pages: -1, key: { names[$0] })
        #expect(scene.top == 0 && scene.focused == 3, "a focus still in the area stays")
    }

    /// A build keeps the user's scroll (the outsider's apps attack, 14: a chat log growing on a
    /// timer scrolled back to the focused button at every message, undoing Page Down); a page
    /// with no focusable view leaves nothing focused, and Tab focuses (and reveals) again.
    @Test func aBuildKeepsTheScrollAndOnlyAFocusChangeRevealsIt() {
        var scene = Scene()
        scene.resize(to: Size(width: 20, height: 3))
        func log(_ n: Int) -> (LiveTree, (Int) -> String) {
            let names = ["root", "say hi"] + (1...n).map { "m\($0)" }
            return (liveTree(.stack(StackLayout()), [.button("say hi")] + (1...n).map { .text(["m\($0)"]) }), { names[$0] })
        }
        let (first, names) = log(9)
        scene.replace(with: first, key: names)
        #expect(scene.focused == 1 && scene.top == 0)
        scene.scroll(pages: 1, key: names)
        #expect(scene.top == 2 && scene.focused == nil && scene.scrolledAway, "no focusable view on the page: none focused")
        let (grown, grownNames) = log(10)
        scene.replace(with: grown, key: grownNames)
        #expect(scene.top == 2 && scene.focused == nil, "a new message keeps the page")
        scene.scroll(pages: 1, key: grownNames)
        #expect(scene.top == 4)
        scene.move(.next, key: grownNames)
        #expect(scene.focused == 1 && scene.top == 0, "Tab focuses the button and scrolls it into view")
        // A focused view that stays where it was keeps a scroll the user made around it.
        let (third, thirdNames) = log(11)
        scene.replace(with: third, key: thirdNames)
        #expect(scene.top == 0 && scene.focused == 1)
    }

    /// A focus already in view scrolls nothing across, whatever area the tree was first laid
    /// out in (terminal attack, break 01: the first build, before the area had a size, scrolled
    /// to the button, and the scroll stayed: every row's start was hidden).
    @Test func aFocusInViewScrollsNothingAcross() {
        var scene = Scene()
        var tree = LiveTree()
        let root = tree.add(.init(kind: .stack(StackLayout())), under: nil)
        tree.add(.init(kind: .text([String(repeating: "x", count: 83)])), under: root)
        let row = tree.add(.init(kind: .stack(StackLayout(direction: .horizontal, spacing: 1))), under: root)
        tree.add(.init(kind: .text(["label"])), under: row)
        var go = LiveTree.Node(kind: .button("Go"))
        go.focusable = true
        tree.add(go, under: row)
        scene.replace(with: tree) { ["root", "wide", "row", "label", "go"][$0] }
        scene.resize(to: Size(width: 66, height: 5))
        #expect(scene.left == 0, "the button (columns 6 to 11) is in view from the start")
        scene.resize(to: Size(width: 8, height: 5))
        #expect(scene.left == 4, "a narrow area scrolls to the button (columns 6 to 11)")
        scene.resize(to: Size(width: 66, height: 5))
        #expect(scene.left == 0, "and back once it fits")
    }

    /// A button right of a row too wide for the area is scrolled into view across, as it is down
    /// (the outsider's React attack, 05: it was focused and tapped but never drawn).
    @Test func theFocusIsScrolledIntoViewAcrossToo() {
        var scene = Scene()
        let area = Size(width: 12, height: 2)
        scene.resize(to: area)
        let tree = liveTree(.stack(StackLayout(direction: .horizontal, spacing: 1)), [.text(["long long long"]), .button("Delete")])
        scene.replace(with: tree) { ["root", "label", "delete"][$0] }
        #expect(scene.focused == 2)
        #expect(scene.left == 13, "the button (columns 15 to 24) ends at the area's right edge")
        let canvas = TextCanvas(area)
        Painter(tree: scene.tree, frames: scene.frames, region: Rect(x: 0, y: 0, width: 12, height: 2), top: scene.top,
                left: scene.left, focused: scene.focused).paint(on: canvas)
        #expect(canvas.lines == ["g [▸Delete◂]", ""], "the label's cells left of the area are cut, the focus is drawn")
        #expect(scene.focusable(atRow: 0, column: 5) == 2, "a click hits what is drawn there")
    }
}
