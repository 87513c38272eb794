import CKCore
import CLua
import CLuaShims

/// How much of a table a dump writes: `whole` for `host:dump()` (snapshots record the state
/// whole), `short` for the REPL's `.tree` and the live view (two tables deep, 20 entries a table).
public struct DumpShape: Sendable, Equatable {
    /// Tables shown nested, the outermost counting 1 (nil: all); deeper ones are `{…}`.
    public var depth: Int?
    /// Entries shown a table (nil: all); the rest are `…`.
    public var width: Int?

    public init(depth: Int? = nil, width: Int? = nil) {
        self.depth = depth
        self.width = width
    }

    public static let whole = DumpShape()
    public static let short = DumpShape(depth: 2, width: 20)
}

/// A table as the dump writes it, `{"a", "b", count = 1, [10] = true}`: the array part in order,
/// then the other keys (numbers, then names). One walker for every text rendering of a value: a
/// read-only props or state view is the table it stands for; a table inside itself is `<cycle>`.
/// No recursion: a table being written is a frame here and a slot on the Lua stack (rule 15).
struct TableText {
    let inspection: Inspection
    let shape: DumpShape
    let L: OpaquePointer
    private var frames: [Frame] = []
    private var writing: Set<UInt> = []   // the frames' tables: a cycle in one lookup
    private var built = 0

    init(_ inspection: Inspection, _ shape: DumpShape, _ L: OpaquePointer) {
        self.inspection = inspection
        self.shape = shape
        self.L = L
    }

    /// A table being written: where it is on the stack, what it has so far, where its text goes.
    private struct Frame {
        let table: Int32
        let identity: UInt
        let slot: Slot?
        var items: [Int64: Piece] = [:]
        var named: [(String, Piece)] = []
        var more = false

        var count: Int { items.count + named.count }
    }

    private enum Slot { case item(Int64), named(String) }

    private typealias Piece = TextPieces.Piece
    /// Finished tables, written out once at the end.
    private var finished = TextPieces()

    /// The text of the table on top of the stack (left there).
    mutating func text() throws -> String {
        open(LuaStack(L).top, slot: nil)
        while true {
            if try step(), let done = try close() { return try written(done) }
        }
    }

    /// The text of the table at `root` in `finished`, within the limit on Swift text.
    private func written(_ root: Int) throws -> String {
        try inspection.reserveSwiftText(built)
        return finished.written(root)
    }

    private mutating func open(_ t: Int32, slot: Slot?) {
        let identity = LuaStack(L).identity(t)
        frames.append(Frame(table: t, identity: identity, slot: slot))
        writing.insert(identity)
        LuaStack(L).pushNil()
    }

    /// Writes the top frame's next entry (or opens a frame for it); true when the frame is done.
    private mutating func step() throws -> Bool {
        let stack = LuaStack(L), top = frames.count - 1
        guard stack.protectedNext(frames[top].table) else { return true }
        if let width = shape.width, frames[top].count >= width {
            stack.pop(2)
            frames[top].more = true
            return true
        }
        try inspection.engine.runtime.limits.tick(holding: built)
        let slot = try slot(at: -2)
        _ = inspection.engine.values.unwrapReadOnlyView(at: -1, L)    // a view is the table it stands for
        if stack.isTable(-1) {
            if let shown = nestedMark(at: -1) { record(shown, slot) } else {
                guard stack.reserve(3) else { throw RuntimeError(.stackLimit, "a value nests more tables than a Lua stack holds; dump it shorter: host:dump{depth = 100}") }
                open(stack.top, slot: slot)
                return false
            }
        } else {
            record(try inspection.entryText(at: -1, L), slot)
        }
        stack.pop(1)
        return false
    }

    /// `{…}` past the shape's depth, `<cycle>` for a table already being written.
    private func nestedMark(at i: Int32) -> String? {
        if let depth = shape.depth, frames.count >= depth { return "{…}" }
        return writing.contains(LuaStack(L).identity(i)) ? "<cycle>" : nil
    }

    private mutating func record(_ text: String, _ slot: Slot) {
        built += text.utf8.count
        record(.text(text), slot)
    }

    private mutating func record(_ piece: Piece, _ slot: Slot) {
        built += 4                  // the punctuation around an entry
        switch slot {
        case .item(let n): frames[frames.count - 1].items[n] = piece
        case .named(let k): frames[frames.count - 1].named.append((k, piece))
        }
    }

    private func slot(at i: Int32) throws -> Slot {
        let stack = LuaStack(L)
        if stack.isInteger(i) { return .item(stack.integer(i)) }
        return .named(try inspection.keyText(at: i, L))
    }

    /// Finishes the top frame; its pieces' index in `finished`, or nil when it went into its
    /// parent's entry.
    private mutating func close() throws -> Int? {
        var f = frames.removeLast()
        writing.remove(f.identity)
        var parts: [(String, Piece)] = []
        var n: Int64 = 1
        while let v = f.items.removeValue(forKey: n) { parts.append(("", v)); n += 1 }
        parts += f.items.sorted { $0.key < $1.key }.map { ("[\($0.key)] = ", $0.value) }
        parts += f.named.sorted { $0.0 < $1.0 }.map { ($0.0 + " = ", $0.1) }
        var pieces: [Piece] = [.text("{")]
        for (i, (label, piece)) in parts.enumerated() {
            pieces.append(.text((i > 0 ? ", " : "") + label))
            pieces.append(piece)
        }
        pieces.append(.text(f.more ? (parts.isEmpty ? "…}" : ", …}") : "}"))
        let index = finished.finish(pieces)
        guard let slot = f.slot else { return index }
        LuaStack(L).pop(1)          // the nested table: its parent's key is on top again
        record(.table(index), slot)
        return nil
    }
}
