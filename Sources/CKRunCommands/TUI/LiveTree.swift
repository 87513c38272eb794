import CKCore

/// What the live view draws: one node per mounted view and per stack, in tree order (a parent
/// before its children). Flat, so that measuring, placing and freeing it never recurse, however
/// deep the app's tree is. Plain data: the layout and the painter are tested without a terminal.
struct LiveTree: Equatable {
    enum Kind: Equatable {
        /// A `ck.Stack`: no view of its own; places its children.
        case stack(StackLayout)
        /// A view that shows text (its lines).
        case text([String])
        /// A focusable view that shows a title.
        case button(String)
        /// Any other view: a frame titled with its class, its plain attributes inside, then its
        /// children.
        case box(title: String, lines: [String])
        /// A text field (`TextFields`): its text around the cursor, its placeholder.
        case field(Field)
    }

    struct Field: Equatable {
        var before: String
        var after = ""
        var placeholder: String
        /// Its build gave it a `text` attribute: it shows that text after each turn (React's
        /// controlled input); with none it keeps what was typed.
        var controlled = false
    }

    struct Node: Equatable {
        var kind: Kind
        var children: [Int] = []
        /// Takes focus, and a tap when focused (Enter, Space, a click).
        var focusable = false
        /// Which component it stands for, for whoever made the tree (an index into its list).
        var tag = -1
    }

    private(set) var nodes: [Node] = []

    init() {}

    var isEmpty: Bool { nodes.isEmpty }
    /// No node is a view: stacks alone (they have none of their own) draw nothing.
    var showsNoView: Bool {
        !nodes.contains { if case .stack = $0.kind { false } else { true } }
    }
    var count: Int { nodes.count }
    subscript(_ i: Int) -> Node { nodes[i] }

    /// What a node shows, changed after the tree was made (a text field's typed text).
    mutating func setKind(_ kind: Kind, of node: Int) { nodes[node].kind = kind }

    /// Adds a node under `parent` (nil: the root); returns its index. A parent is added before
    /// its children, so indices are in tree order.
    @discardableResult
    mutating func add(_ node: Node, under parent: Int?) -> Int {
        nodes.append(node)
        if let parent { nodes[parent].children.append(nodes.count - 1) }
        return nodes.count - 1
    }
}
