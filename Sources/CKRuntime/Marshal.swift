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
        var made: [Value] = []
    }

    /// A script value as a Lua value, tables made after their contents, with an explicit stack
    /// (a Swift value nested 100,000 deep is as welcome as a flat one: it is the program's own,
    /// and nothing here recurses over it; only its way back is bounded).
    func lua(_ root: ScriptValue) throws(LuaError) -> Value {
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

    /// The frame of a non-empty list or dictionary; nil for anything else.
    private static func frame(_ value: ScriptValue) -> Frame? {
        switch value {
        case .array(let items) where !items.isEmpty: return Frame(items: items, keys: nil)
        case .dictionary(let fields) where !fields.isEmpty:
            let keys = fields.keys.sorted()
            return Frame(items: keys.map { fields[$0]! }, keys: keys)
        default: return nil
        }
    }

    private func table(_ frame: Frame) throws(LuaError) -> Value {
        guard let keys = frame.keys else { return try tools.list(frame.made) }
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
        case .dictionary: return tools.table([])
        case .object(let name):
            throw LuaError(message: Catalogue.badArgument.message("a ScriptValue.object (\(name)) cannot go into Lua: it only reports a Lua value Swift cannot hold"))
        }
    }

    func lua(_ values: [ScriptValue]) throws(LuaError) -> [Value] {
        var out: [Value] = []
        for v in values { out.append(try lua(v)) }
        return out
    }

    func swift(_ values: [Value]) throws(LuaError) -> [ScriptValue] {
        var out: [ScriptValue] = []
        for v in values { out.append(try swift(v)) }
        return out
    }

    /// A Lua value as a script value; tables depth first, post-order, each read once. A table
    /// whose value would nest deeper than ``ScriptValue/maximumDepth`` is `[badArgument]`,
    /// found before any value that deep is made (a table's height is one more than its
    /// tallest table's; a shared table is copied, so heights, not paths, measure the result).
    func swift(_ root: Value) throws(LuaError) -> ScriptValue {
        guard case .table(let rootRef) = root else { return scalar(root) }
        var done: [UInt: (value: ScriptValue, height: Int)] = [:]
        var open: Set<UInt> = []
        var stack: [(ref: ScriptRef, entries: [(key: Value, value: Value)]?)] = [(rootRef, nil)]
        while let (ref, entries) = stack.last {
            if let entries {
                let height = 1 + entries.reduce(0) { tallest, e in
                    if case .table(let child) = e.value { max(tallest, done[child.identity]?.height ?? 0) } else { tallest }
                }
                guard height <= ScriptValue.maximumDepth else { throw Self.tooDeep("a Lua table becoming a ScriptValue") }
                done[ref.identity] = (try table(entries, done), height)
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

    /// A table from its entries, its tables already converted: a list when `t[1]` is set.
    private func table(_ entries: [(key: Value, value: Value)], _ done: [UInt: (value: ScriptValue, height: Int)]) throws(LuaError) -> ScriptValue {
        func converted(_ v: Value) -> ScriptValue {
            if case .table(let r) = v { return done[r.identity]?.value ?? .nil }
            return scalar(v)
        }
        var byIndex: [Int64: Value] = [:]
        var fields: [String: ScriptValue] = [:]
        for e in entries {
            switch e.key {
            case .int(let i): byIndex[i] = e.value
            case .string(let s): fields[s] = converted(e.value)
            default: continue
            }
        }
        guard byIndex[1] != nil else { return .dictionary(fields) }
        var items: [ScriptValue] = []
        var i: Int64 = 1
        while let v = byIndex[i] { items.append(converted(v)); i += 1 }
        return .array(items)
    }

    private func scalar(_ value: Value) -> ScriptValue {
        switch value {
        case .nil: .nil
        case .bool(let b): .bool(b)
        case .int(let i): .int(Int(i))
        case .number(let d): .double(d)
        case .string(let s): .string(s)
        case .opaque(let r): tools.text(value).map(ScriptValue.string) ?? .object(r.typeName)
        case .object(let o): .object(Responder.from(o)?.name ?? o.typeName)
        case .table: .object("table")
        case .function: .object("function")
        }
    }
}
