import CKCore
import CKLua

/// Script values to and from the engine's values. Swift → Lua follows the Swift value (its
/// nesting is the program's own); Lua → Swift walks tables with an explicit stack (rule 15:
/// nothing recurses over script-sized structures), each table read once, a cycle refused.
struct Marshal {
    unowned(unsafe) let engine: Engine

    var tools: ToolCalls { engine.tools }

    func lua(_ value: ScriptValue) throws(LuaError) -> Value {
        switch value {
        case .nil: return .nil
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(Int64(i))
        case .double(let d): return .number(d)
        case .string(let s): return .string(s)
        case .array(let items):
            var values: [Value] = []
            for item in items { values.append(try lua(item)) }
            return try tools.list(values)
        case .dictionary(let fields):
            var pairs: [(String, Value)] = []
            for key in fields.keys.sorted() { pairs.append((key, try lua(fields[key]!))) }
            return tools.table(pairs)
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

    /// A Lua value as a script value; tables depth first, post-order, each read once.
    func swift(_ root: Value) throws(LuaError) -> ScriptValue {
        guard case .table(let rootRef) = root else { return scalar(root) }
        var done: [UInt: ScriptValue] = [:]
        var open: Set<UInt> = []
        var stack: [(ref: ScriptRef, entries: [(key: Value, value: Value)]?)] = [(rootRef, nil)]
        while let (ref, entries) = stack.last {
            if let entries {
                done[ref.identity] = try table(entries, done)
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
        return done[rootRef.identity] ?? .nil
    }

    /// A table from its entries, its tables already converted: a list when `t[1]` is set.
    private func table(_ entries: [(key: Value, value: Value)], _ done: [UInt: ScriptValue]) throws(LuaError) -> ScriptValue {
        func converted(_ v: Value) -> ScriptValue {
            if case .table(let r) = v { return done[r.identity] ?? .nil }
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
