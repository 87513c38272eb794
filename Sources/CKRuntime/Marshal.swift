import CKCore
import CKLua

/// Script values to and from the engine's values. Swift → Lua follows the Swift value (its
/// nesting is the program's own); Lua → Swift walks tables with an explicit stack (rule 15:
/// nothing recurses over script-sized structures), each table read once, a cycle refused.
/// Lua → Swift refuses tables nested deeper than ``ScriptValue/maximumDepth``: Swift releases
/// (and compares, hashes, decodes) a `ScriptValue` recursively, so a script's 100,000-deep
/// table overflowed the stack when the value it became was released (attack break 08).
struct Marshal {
    unowned(unsafe) let engine: Engine

    var tools: ToolCalls { engine.tools }

    /// A list or dictionary being made: its items (a dictionary's in key order) and those made.
    private struct Frame {
        let items: [ScriptValue]
        let keys: [String]?
        var integerKeys: [Int]? = nil
        var made: [Value] = []
    }

    /// A script value as a Lua value, tables made after their contents, with an explicit stack
    /// (a Swift value nested 100,000 deep is as welcome as a flat one: it is the program's own,
    /// and nothing here recurses over it; only its way back is bounded).
    func lua(_ root: ScriptValue) throws(LuaError) -> Value {
        if !Self.isTable(root) { return try leaf(root) }
        var frames: [Frame] = []
        var next = root
        while true {
            var made: Value
            while true {
                guard let frame = Self.frame(next) else { made = try leaf(next); break }
                frames.append(frame)
                next = frame.items[0]
            }
            while var top = frames.popLast() {
                top.made.append(made)
                if top.made.count < top.items.count {
                    next = top.items[top.made.count]
                    frames.append(top)
                    break
                }
                made = try table(top)
            }
            if frames.isEmpty { return made }
        }
    }

    /// Whether `value` becomes a table (each argument of a send asks: most are leaves).
    private static func isTable(_ value: ScriptValue) -> Bool {
        switch value {
        case .array, .dictionary, .integerKeyed: true
        default: false
        }
    }

    /// The frame of a non-empty list or dictionary; nil for anything else.
    private static func frame(_ value: ScriptValue) -> Frame? {
        switch value {
        case .array(let items) where !items.isEmpty: return Frame(items: items, keys: nil)
        case .dictionary(let fields) where !fields.isEmpty:
            let keys = fields.keys.sorted()
            return Frame(items: keys.map { fields[$0]! }, keys: keys)
        case .integerKeyed(let entries) where !entries.isEmpty:
            let keys = entries.keys.sorted()
            return Frame(items: keys.map { entries[$0]! }, keys: nil, integerKeys: keys)
        default: return nil
        }
    }

    private func table(_ frame: Frame) throws(LuaError) -> Value {
        if let integerKeys = frame.integerKeys { return tools.table(integerKeyed: Array(zip(integerKeys, frame.made))) }
        guard let keys = frame.keys else {
            // A nil item leaves a hole: `n` keeps the length, as `table.pack` does.
            return try tools.list(frame.made, counted: frame.items.contains(.nil))
        }
        return tools.table(Array(zip(keys, frame.made)))
    }

    private func leaf(_ value: ScriptValue) throws(LuaError) -> Value {
        switch value {
        case .nil: return .nil
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(Int64(i))
        case .double(let d): return .number(d)
        case .string(let s): return .string(s)
        case .array: return try tools.list([])
        case .dictionary, .integerKeyed: return tools.table([])
        case .object(let name):
            throw LuaError(message: Catalogue.badArgument.message("a ScriptValue.object (\(name)) cannot go into Lua: it only reports a Lua value Swift cannot hold"))
        }
    }

    /// `prefix`, then `values` as Lua values, in one array made once.
    func lua(_ values: [ScriptValue], after prefix: [Value] = []) throws(LuaError) -> [Value] {
        var out: [Value] = []
        out.reserveCapacity(prefix.count + values.count)
        out.append(contentsOf: prefix)
        for v in values { out.append(try lua(v)) }
        return out
    }

    /// `values` as script values; `names` names each in a message (`argument #1`), or
    /// `result #1` when it is nil.
    func swift(_ values: [Value], names: ((Int) -> String)? = nil, context: String? = nil) throws(LuaError) -> [ScriptValue] {
        var out: [ScriptValue] = []
        out.reserveCapacity(values.count)
        for (i, v) in values.enumerated() { out.append(try swift(v, named: names?(i) ?? "result #\(i + 1)", context: context)) }
        return out
    }

    /// A Lua value as a script value; tables depth first, post-order, each read once. A table
    /// whose value would nest deeper than ``ScriptValue/maximumDepth`` is `[badArgument]`,
    /// found before any value that deep is made (a table's height is one more than its
    /// tallest table's; a shared table is copied, so heights, not paths, measure the result).
    /// `name` names the value where a message says what in it could not convert
    /// (`props.text`, `argument #1.name`), and `context`, when given, follows it (`of the
    /// component …`): a Lua table is anonymous, so a path is all that finds the string that is
    /// not UTF-8 in a tree of hundreds of components.
    func swift(_ root: Value, named name: String = "the value", context: String? = nil) throws(LuaError) -> ScriptValue {
        let suffix = context.map { " " + $0 } ?? ""
        guard case .table(let rootRef) = root else { return try scalar(root, at: name + suffix) }
        var done: [UInt: (value: ScriptValue, height: Int)] = [:]
        var open: Set<UInt> = []
        var stack: [(ref: ScriptRef, entries: [(key: Value, value: Value)]?)] = [(rootRef, nil)]
        while let (ref, entries) = stack.last {
            if let entries {
                let height = 1 + entries.reduce(0) { tallest, e in
                    if case .table(let child) = e.value { max(tallest, done[child.identity]?.height ?? 0) } else { tallest }
                }
                guard height <= ScriptValue.maximumDepth else { throw Self.tooDeep("a Lua table becoming a ScriptValue") }
                done[ref.identity] = (try table(entries, done, suffix) { Self.path(name, stack.compactMap { $0.entries == nil ? nil : ($0.ref, $0.entries!) }) }, height)
                open.remove(ref.identity)
                stack.removeLast()
                continue
            }
            if done[ref.identity] != nil { stack.removeLast(); continue }
            guard open.insert(ref.identity).inserted else {
                throw LuaError(message: Catalogue.badArgument.message("a table that contains itself cannot become a ScriptValue"))
            }
            let read = try tools.entries(of: .table(ref))
            stack[stack.count - 1].entries = read
            for e in read { if case .table(let child) = e.value, done[child.identity] == nil { stack.append((child, nil)) } }
        }
        return done[rootRef.identity]?.value ?? .nil
    }

    /// `[badArgument]` for `what`, nested deeper than ``ScriptValue/maximumDepth``.
    private static func tooDeep(_ what: String) -> LuaError {
        LuaError(message: Catalogue.badArgument.message("\(what) has tables nested more than \(ScriptValue.maximumDepth) deep, more than a ScriptValue holds safely; flatten the data (keep deep structures in Lua and pass ids or paths) or send it in parts"))
    }

    /// A table from its entries, its tables already converted, losing nothing (attack lib 12,
    /// 13): a table whose keys are exactly 1…k is a list; one whose integer keys lie in 1…n
    /// beside an integer `n` (as `table.pack` and a Swift array holding nils make) a list of n
    /// items, nil in the holes; a table of string keys a dictionary. Anything else, a key
    /// that is not UTF-8 or two keys Swift counts as one string (`"é"` composed and
    /// decomposed), is `[badArgument]`: a `ScriptValue` could not hold it whole.
    private func table(_ entries: [(key: Value, value: Value)], _ done: [UInt: (value: ScriptValue, height: Int)],
                       _ suffix: String, at path: () -> String) throws(LuaError) -> ScriptValue {
        var key = Value.nil
        func converted(_ v: Value) throws(LuaError) -> ScriptValue {
            if case .table(let r) = v { return done[r.identity]?.value ?? .nil }
            return try scalar(v) { path() + Self.step(key) + suffix }
        }
        var byIndex: [Int64: Value] = [:]
        var fields: [String: ScriptValue] = [:]
        for e in entries {
            key = e.key
            switch e.key {
            case .int(let i): byIndex[i] = e.value
            case .string(let s):
                guard fields.updateValue(try converted(e.value), forKey: s) == nil else {
                    throw Self.lost("two keys that Swift counts as one string (\(Self.shown(s)) written two ways, as composed and decomposed accents are)")
                }
            case .opaque(let r) where r.typeName == "string":
                throw Self.lost("a key that is not UTF-8 text (in \(Excerpt.text(path() + suffix)))")
            default:
                throw Self.lost("a key of type \(e.key.typeName) (a ScriptValue dictionary has string keys)")
            }
        }
        guard !byIndex.isEmpty else { return .dictionary(fields) }
        if fields.isEmpty, !byIndex.keys.allSatisfy({ 1...Int64(byIndex.count) ~= $0 }) {
            // Integer keys alone that are no list (`{[7] = "seven"}`): whole as integer keys.
            var entries: [Int: ScriptValue] = [:]
            for (i, v) in byIndex { entries[Int(i)] = try converted(v) }
            return .integerKeyed(entries)
        }
        return .array(try list(byIndex, length: try length(of: byIndex, beside: fields), converted))
    }

    /// A list's length: its number of items, or its `n` when that is its only other key.
    private func length(of byIndex: [Int64: Value], beside fields: [String: ScriptValue]) throws(LuaError) -> Int {
        guard !fields.isEmpty else { return byIndex.count }
        guard fields.count == 1, case .int(let n)? = fields["n"] else {
            throw Self.lost("list items beside string keys (\(fields.keys.sorted().prefix(3).map(Self.shown).joined(separator: ", ")))")
        }
        guard n >= byIndex.count, n - byIndex.count <= ScriptValue.maximumHoles else {
            throw Self.lost("a list whose n (\(n)) is below its \(byIndex.count) items or more than \(ScriptValue.maximumHoles) past them")
        }
        return n
    }

    /// Items 1…`length`, nil in the holes; `[badArgument]` if an integer key lies outside.
    private func list(_ byIndex: [Int64: Value], length: Int,
                      _ converted: (Value) throws(LuaError) -> ScriptValue) throws(LuaError) -> [ScriptValue] {
        var items: [ScriptValue] = []
        items.reserveCapacity(length)
        var found = 0
        for i in 0..<Int64(length) {
            guard let v = byIndex[i + 1] else { items.append(.nil); continue }
            items.append(try converted(v))
            found += 1
        }
        guard found == byIndex.count else {
            throw Self.lost("integer keys that are not 1 to \(length) (a list with holes needs n = its length, as table.pack sets)")
        }
        return items
    }

    /// A key as a message quotes it (its first bytes, escaped).
    private static func shown(_ key: String) -> String {
        var key = key
        return key.withUTF8 { Excerpt.quoted(UnsafeRawBufferPointer($0)) }
    }

    /// `[badArgument]`: a Lua value holding `what` cannot become a `ScriptValue` whole.
    private static func lost(_ what: String) -> LuaError {
        LuaError(message: Catalogue.badArgument.message("a Lua table with \(what) cannot become a ScriptValue without losing data; keep such data in Lua, or send it as lists (give a list with holes n = its length) and dictionaries of UTF-8 string keys"))
    }

    /// The path of the innermost open table of `open` (the tables being read, outermost first,
    /// each with its entries): `name`, then each table's key in its parent (`props.items[2]`).
    private static func path(_ name: String, _ open: [(ref: ScriptRef, entries: [(key: Value, value: Value)])]) -> String {
        var text = name
        for (parent, child) in zip(open, open.dropFirst()) {
            guard let entry = parent.entries.first(where: { if case .table(let r) = $0.value { r.identity == child.ref.identity } else { false } }) else { continue }
            text += step(entry.key)
            if text.utf8.count > Excerpt.limit { break }
        }
        return text
    }

    /// One key of a path: `.name`, `[2]`, or `[?]` for a key with no text.
    private static func step(_ key: Value) -> String {
        switch key {
        case .string(let s): "." + Excerpt.text(s)
        case .int(let i): "[\(i)]"
        default: "[?]"
        }
    }

    private func scalar(_ value: Value, at name: String) throws(LuaError) -> ScriptValue {
        try scalar(value) { name }
    }

    /// A string that is not UTF-8 is `[badArgument]` naming where it is (`where`): its bytes
    /// would be replaced.
    private func scalar(_ value: Value, at place: () -> String) throws(LuaError) -> ScriptValue {
        switch value {
        case .nil: .nil
        case .bool(let b): .bool(b)
        case .int(let i): .int(Int(i))
        case .number(let d): .double(d)
        case .string(let s): .string(s)
        case .opaque(let r) where r.typeName == "string":
            throw LuaError(message: Catalogue.badArgument.message("\(Excerpt.text(place())) is a Lua string that is not UTF-8 text, which cannot become a ScriptValue without losing bytes; keep bytes in Lua, or encode them as text first (for example as hex)"))
        case .opaque(let r): .object(r.typeName)
        case .object(let o): .object(Responder.from(o)?.name ?? o.typeName)
        case .table: .object("table")
        case .function: .object("function")
        }
    }
}
