import CKCore
import CLua
import CLuaShims

/// A value as JSON for `ckrun tree --format json`, whole at any depth: tables whose keys are
/// 1…n are arrays, other tables objects whose names are `JSONText.name` (one entry per key:
/// `[1]` and `"1"`, `[true]` and `"true"` stay two); a table inside itself is `{"$cycle": true}`,
/// which no table's entry can be (a string key starting with `$` is bracketed). No recursion:
/// a table being written is a frame here and a slot on the Lua stack (rule 15), as in
/// `TableText`; the text is written out once at the end.
struct JSONText {
    let inspection: Inspection
    let L: OpaquePointer
    private var built: Int
    private var frames: [Frame] = []
    private var writing: Set<UInt> = []
    /// Finished tables, written out once at the end.
    private var finished = TextPieces()

    /// The mark of a table met again inside itself.
    static let cycle = "{\"$cycle\": true}"

    init(_ inspection: Inspection, holding: Int, _ L: OpaquePointer) {
        self.inspection = inspection
        self.built = holding
        self.L = L
    }

    private struct Frame {
        let table: Int32
        let identity: UInt
        /// The border: keys 1…length may make the table an array.
        let length: Int
        let slot: Slot?
        var items: [(Int, Piece)] = []
        var named: [(String, Piece)] = []
    }

    private enum Slot { case item(Int), named(String) }
    private typealias Piece = TextPieces.Piece

    /// The JSON of the value on top of the stack (left there).
    mutating func text() throws -> String {
        let stack = LuaStack(L)
        _ = inspection.engine.values.unwrapReadOnlyView(at: -1, L)    // a view is the table it stands for
        guard stack.isTable(-1) else { return try scalar(at: -1) }
        open(stack.top, slot: nil)
        while true {
            if try step(), let done = close() { return try written(done) }
        }
    }

    /// An object's name for a key: a string as it is, unless it starts with `[` or `$`; any other
    /// key, and such a string, as a Lua table constructor writes the key (`[1]`, `[true]`,
    /// `[1.5]`, `["[x"]`, `["$cycle"]`). Two keys of one table never share a name.
    static func name(at i: Int32, _ inspection: Inspection, _ L: OpaquePointer) throws -> String {
        let stack = LuaStack(L)
        if stack.isString(i) {
            try inspection.reserveSwiftText(Inspection.quotingBytes * stack.stringLength(i))
            var length = 0
            let chars = ckmacros_tostring(L, i, &length), bytes = UnsafeRawBufferPointer(start: chars, count: length)
            if let s = LuaText.string(chars, count: length), let first = s.utf8.first,
               first != UInt8(ascii: "["), first != UInt8(ascii: "$") {
                return s
            }
            return "[" + DumpText.quoted(bytes) + "]"
        }
        if stack.isInteger(i) { return "[\(stack.integer(i))]" }
        if lua_type(L, i) == LUA_TNUMBER { return "[\(lua_tonumberx(L, i, nil))]" }
        lua_pushvalue(L, i)
        defer { ckmacros_pop(L, 1) }
        return "[" + inspection.engine.lua.describe(at: -1, on: L) + "]"
    }

    private mutating func open(_ t: Int32, slot: Slot?) {
        let identity = LuaStack(L).identity(t)
        frames.append(Frame(table: t, identity: identity, length: LuaStack(L).listLength(t), slot: slot))
        writing.insert(identity)
        LuaStack(L).pushNil()
    }

    /// Writes the top frame's next entry (or opens a frame for it); true when the frame is done.
    private mutating func step() throws -> Bool {
        let stack = LuaStack(L), top = frames.count - 1
        guard stack.next(frames[top].table) else { return true }
        try inspection.engine.runtime.limits.tick(holding: built)
        let slot: Slot
        if stack.isInteger(-2), case let k = Int(stack.integer(-2)), k >= 1, k <= frames[top].length {
            slot = .item(k)
        } else {
            let name = try Self.name(at: -2, inspection, L)
            built += name.utf8.count
            slot = .named(name)
        }
        _ = inspection.engine.values.unwrapReadOnlyView(at: -1, L)    // a view is the table it stands for
        if stack.isTable(-1) {
            if writing.contains(stack.identity(-1)) {
                record(.text(Self.cycle), slot)
            } else {
                guard stack.reserve(3) else {
                    throw RuntimeError(.stackLimit, "a value nests more tables than a Lua stack holds; the JSON cannot show it")
                }
                open(stack.top, slot: slot)
                return false
            }
        } else {
            let text = try scalar(at: -1)
            built += text.utf8.count
            record(.text(text), slot)
        }
        stack.pop(1)
        return false
    }

    private mutating func record(_ piece: Piece, _ slot: Slot) {
        built += 4                  // the punctuation around an entry
        switch slot {
        case .item(let k): frames[frames.count - 1].items.append((k, piece))
        case .named(let name): frames[frames.count - 1].named.append((name, piece))
        }
    }

    /// Finishes the top frame; its pieces' index in `finished`, or nil when it went into its
    /// parent's entry.
    private mutating func close() -> Int? {
        let f = frames.removeLast()
        writing.remove(f.identity)
        var pieces: [Piece] = []
        if f.named.isEmpty, f.length > 0, f.items.count == f.length {
            pieces.append(.text("["))
            for (i, item) in f.items.sorted(by: { $0.0 < $1.0 }).enumerated() {
                if i > 0 { pieces.append(.text(", ")) }
                pieces.append(item.1)
            }
            pieces.append(.text("]"))
        } else {
            let entries = f.items.map { ("[\($0.0)]", $0.1) } + f.named
            pieces.append(.text("{"))
            for (i, entry) in entries.sorted(by: { $0.0 < $1.0 }).enumerated() {
                pieces.append(.text((i > 0 ? ", " : "") + JSON.quote(entry.0) + ": "))
                pieces.append(entry.1)
            }
            pieces.append(.text("}"))
        }
        let index = finished.finish(pieces)
        guard let slot = f.slot else { return index }
        LuaStack(L).pop(1)          // the nested table: its parent's key is on top again
        record(.table(index), slot)
        return nil
    }

    /// The text of the table at `root` in `finished`, within the limit on Swift text.
    private func written(_ root: Int) throws -> String {
        try inspection.reserveSwiftText(built)
        return finished.written(root)
    }

    /// A value that is no table: null, a boolean, a number (a NaN or infinity is null), a string;
    /// anything else its `tostring` as a string.
    private func scalar(at i: Int32) throws -> String {
        switch lua_type(L, i) {
        case LUA_TNIL, LUA_TNONE: return "null"
        case LUA_TBOOLEAN: return lua_toboolean(L, i) != 0 ? "true" : "false"
        case LUA_TNUMBER:
            if lua_isinteger(L, i) != 0 { return String(lua_tointegerx(L, i, nil)) }
            let d = lua_tonumberx(L, i, nil)
            return d.isFinite ? String(d) : "null"
        case LUA_TSTRING:
            // Decoded, then quoted: at most 7 bytes a byte (`\u0000` after the decoded copy).
            try inspection.reserveSwiftText(built + 7 * LuaStack(L).stringLength(i))
            return JSON.quote(inspection.engine.lua.string(at: i, on: L) ?? "")
        default: return JSON.quote(inspection.engine.lua.describe(at: i, on: L))
        }
    }
}
