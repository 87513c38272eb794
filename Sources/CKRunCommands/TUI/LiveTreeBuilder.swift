#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import CKCore

/// The live view's tree from the mounted tree (`Host.tree()`): a built-in with layout props
/// (`ck.Stack`) places its children; a view is drawn by its view class's declaration
/// (`ViewPresentation`), whoever made it: one naming a text attribute shows it as text, or as a
/// button when it takes focus; any other view is a box with its class and plain attributes. A
/// view takes focus when its class's declaration says so or when a tap would send something
/// (`View.sends(for:)` over `Gesture.hostTap`, what `host:tap` sends). Components without a view (composites) add
/// nothing of their own: their children go where they would.
struct LiveTreeBuilder {
    /// Shows a value as dumps do (may run a `__tostring`: the builder runs in a turn).
    let describe: (Value) -> String
    /// A prop of a component, read raw.
    let prop: (Component, String) -> Value

    /// The tree made from `root`, and the components its nodes' tags index.
    static func make(from root: TreeNode?, describe: (Value) -> String, prop: (Component, String) -> Value)
        -> (tree: LiveTree, components: [Component]) {
        withoutActuallyEscaping(describe) { describe in
            withoutActuallyEscaping(prop) { prop in LiveTreeBuilder(describe: describe, prop: prop).make(from: root) }
        }
    }

    /// The tree, and the components its nodes' tags index.
    func make(from root: TreeNode?) -> (tree: LiveTree, components: [Component]) {
        var tree = LiveTree()
        var components: [Component] = []
        guard let root else { return (tree, components) }
        var pending: [(node: TreeNode, parent: Int?)] = [(root, nil)]
        while let (node, parent) = pending.popLast() {
            var placed = parent
            if let kind = kind(of: node) {
                components.append(node.component)
                let live = LiveTree.Node(kind: kind, focusable: takesFocus(node), tag: components.count - 1)
                placed = tree.add(live, under: parent)
            }
            for child in node.children.reversed() { pending.append((child, placed)) }
        }
        return (tree, components)
    }

    /// What `node` is drawn as; nil for a component with no view that lays nothing out.
    func kind(of node: TreeNode) -> LiveTree.Kind? {
        let builtin = node.component.componentClass.builtin
        if let builtin, !builtin.made.layout.isEmpty {
            return .stack((try? StackLayout(of: builtin.name) { prop(node.component, $0) }) ?? StackLayout())
        }
        guard let viewClass = node.viewClass else { return nil }
        if viewClass == TextFields.viewClass, node.children.isEmpty {
            // The attribute's text, its bytes carried; `TextFields.apply` puts what was typed
            // since in its place, and shows it.
            let text = attribute("text", of: node)
            return .field(LiveTree.Field(before: carried(text), placeholder: oneLine(shown(attribute("placeholder", of: node))),
                                         controlled: !text.isNil))
        }
        if node.children.isEmpty, let textAttribute = ViewPresentation.of(viewClass)?.text {
            let value = node.attributes.first { $0.name == textAttribute }?.value ?? .nil
            return takesFocus(node) ? .button(oneLine(shown(value))) : .text(Self.lines(shown(value)))
        }
        let attributes = node.attributes.map { "\($0.name) = \(Cells.sanitized(describe($0.value)))" }
        let actions = node.actions.map { "on \($0.event): \($0.action.map { Cells.sanitized(describe(.object($0))) } ?? "nothing")" }
        return .box(title: viewClass, lines: attributes + actions)
    }

    /// A text field, and a control with an action for any control event (a switch's
    /// `valueChanged`: Enter sends it, `LiveView.tap`), take the focus too.
    func takesFocus(_ node: TreeNode) -> Bool {
        if node.viewClass == TextFields.viewClass { return true }
        guard let view = node.component.view else { return false }
        if ViewPresentation.of(view.viewClass)?.focusable == true { return true }
        return Gesture.hostTap.contains { !view.sends(for: $0).isEmpty }
            || view.actions.contains { $0.kind == .control && $0.action != nil }
    }

    private func attribute(_ name: String, of node: TreeNode) -> Value {
        node.attributes.first { $0.name == name }?.value ?? .nil
    }

    /// A string as it is (one that is not UTF-8: its bytes, each invalid sequence shown as
    /// U+FFFD, never as a Lua literal); anything else as dumps show it.
    private func shown(_ value: Value) -> String {
        if case .string(let s) = value { return s }
        if case .opaque(let r) = value, let count = r.stringBytes(upTo: 0)?.count, let bytes = r.stringBytes(upTo: count)?.bytes {
            return String(decoding: bytes, as: UTF8.self)
        }
        return value.isNil ? "" : describe(value)
    }

    /// A field's text: a string's bytes carried (`ByteText`: one that is not UTF-8 keeps them,
    /// so editing it sends them back, the bytes not edited unchanged); anything else as shown.
    private func carried(_ value: Value) -> String {
        if case .string(let s) = value { return ByteText.text(s.utf8) }
        if case .opaque(let r) = value, let count = r.stringBytes(upTo: 0)?.count, let bytes = r.stringBytes(upTo: count)?.bytes {
            return ByteText.text(bytes)
        }
        return shown(value)
    }

    /// The lines of `text`, each sanitized. Split at each "\n" character as String does (a
    /// "\r\n" is one character: not split), read byte by byte: every text of the tree, each build.
    static func lines(_ text: String) -> [String] {
        let ends = text.utf8.withContiguousStorageIfAvailable { bytes in
            var ends: [Int] = []
            for i in bytes.indices where bytes[i] == 0x0A && (i == 0 || bytes[i - 1] != 0x0D) { ends.append(i) }
            return ends
        }
        guard let ends else {
            return text.split(separator: "\n", omittingEmptySubsequences: false).map { Cells.sanitized(String($0)) }
        }
        if ends.isEmpty { return [Cells.sanitized(text)] }
        var out: [String] = [], start = 0
        let utf8 = text.utf8
        for end in ends + [utf8.count] {
            let from = utf8.index(utf8.startIndex, offsetBy: start), to = utf8.index(utf8.startIndex, offsetBy: end)
            out.append(Cells.sanitized(String(text[from..<to])))
            start = end + 1
        }
        return out
    }

    private func oneLine(_ text: String) -> String { Cells.sanitized(text.replacingAll("\n", with: " ")) }
}
