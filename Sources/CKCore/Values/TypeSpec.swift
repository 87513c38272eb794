/// An action argument's declared type (SPEC §6.4).
public indirect enum TypeSpec: Equatable, CustomStringConvertible {
    case any, bool, int, number, string, table, function
    case structure(StructType)
    case className(String)          // a component or controller class, "Event" or "View"

    public static func == (a: TypeSpec, b: TypeSpec) -> Bool {
        switch (a, b) {
        case (.any, .any), (.bool, .bool), (.int, .int), (.number, .number), (.string, .string),
             (.table, .table), (.function, .function): true
        case let (.structure(x), .structure(y)): x === y
        case let (.className(x), .className(y)): x == y
        default: false
        }
    }

    public var description: String {
        switch self {
        case .any: "any"
        case .bool: "bool"
        case .int: "int"
        case .number: "number"
        case .string: "string"
        case .table: "table"
        case .function: "function"
        case .structure(let s): s.name
        case .className(let n): n
        }
    }

    var structType: StructType? { if case .structure(let s) = self { s } else { nil } }

    /// Object types accept nil; value types do not.
    public var acceptsNil: Bool {
        switch self {
        case .bool, .int, .number, .structure: false
        default: true
        }
    }

    /// `"any"` matches anything; otherwise the names must agree.
    public func isCompatible(with other: TypeSpec) -> Bool {
        if case .any = self { return true }
        if case .any = other { return true }
        return self == other
    }

}

/// A struct declared with `ck.struct(name, fields)`.
public final class StructType {
    public let name: String
    /// A variable only so that `release` can empty it as the type goes.
    public private(set) var fields: [(name: String, type: TypeSpec)]
    /// Where `ck.struct` defined it (`a.lua:3`), for a message about a redefined struct.
    public let definedAt: String?

    public init(name: String, fields: [(name: String, type: TypeSpec)], definedAt: String? = nil) {
        self.name = name
        self.definedAt = definedAt
        self.fields = fields.sorted { $0.name < $1.name }
    }

    deinit { StructType.release(self) }

    func moveNested(into stack: inout [StructType]) {
        for f in fields { if let s = f.type.structType { stack.append(s) } }
        fields = []
    }
}

/// Resolves type names, checks and converts argument values, and makes zero values.
/// Tables are the script's business, so struct handling goes through `ScriptTables`.
public struct TypeSystem {
    public var structs: [String: StructType] = [:]

    public init() {}

    nonisolated(unsafe) public static let builtinNames: [String: TypeSpec] = [
        "any": .any, "id": .any, "bool": .bool, "boolean": .bool, "int": .int, "integer": .int,
        "number": .number, "float": .number, "string": .string, "table": .table, "function": .function,
        "Event": .className("Event"), "View": .className("View"),
    ]

    /// nil when the name is unknown (`[unknownType]`); `isClass` says whether a class has that name.
    public func resolve(_ name: String, isClass: (String) -> Bool) -> TypeSpec? {
        if let t = Self.builtinNames[name] { return t }
        if let s = structs[name] { return .structure(s) }
        if isClass(name) { return .className(name) }
        return nil
    }
}

/// What the core needs from the script side to build and read struct tables.
public protocol ScriptTables: AnyObject {
    func field(_ table: ScriptRef, _ name: String) -> Value
    func makeTable(_ fields: [(String, Value)]) -> Value
    /// Whether `pcall` calls the table or userdata `value` (its metatable's `__call`, read raw):
    /// a `function` argument takes it, as every argument that takes a function does.
    func isCallable(_ value: ScriptRef) -> Bool
}

extension TypeSpec {
    /// The zero value: nil for object types, false, 0, 0.0, and a table of zeros for a struct.
    /// Nested structs are built with an explicit stack (100,000 nested types is a chain), and
    /// `limits` is ticked per table: a struct whose fields repeat a struct type doubles per level.
    public func zero(tables: ScriptTables?, limits: WorkLimits? = nil) throws -> Value {
        switch self {
        case .bool: return .bool(false)
        case .int: return .int(0)
        case .number: return .number(0)
        case .structure(let s):
            guard let tables else { return .nil }
            return try StructType.build(s, from: nil, tables: tables, limits: limits, className: { _ in [] }).get()
        default: return .nil
        }
    }

    /// Checks `value` against this type and converts it (integral floats to int, numbers to float,
    /// structs to a new table of exactly their fields). Returns nil when it does not conform.
    public func conform(_ value: Value, tables: ScriptTables?, limits: WorkLimits? = nil,
                        className: (RuntimeObject) -> [String]) throws -> Value? {
        try? check(value, tables: tables, limits: limits, className: className).get()
    }

    /// Why a value does not conform: the field path inside it (`.y`, `.origin.x`; empty for the
    /// value itself) and what was wrong.
    public struct Mismatch: Error {
        public var path: String
        public let problem: String
    }

    /// `conform`, with the reason when it fails (SPEC §6.4: a wrong or undeclared struct field
    /// is named). Throws only what `limits` throws.
    public func check(_ value: Value, tables: ScriptTables?, limits: WorkLimits? = nil,
                      className: (RuntimeObject) -> [String]) throws -> Result<Value, Mismatch> {
        if case .structure(let s) = self, case .table(let ref) = value, let tables {
            return try StructType.build(s, from: ref, tables: tables, limits: limits, className: className)
        }
        if let v = conformFlat(value, tables: tables, className: className) { return .success(v) }
        return .failure(mismatch(value))
    }

    func mismatch(_ value: Value, path: String = "") -> Mismatch {
        var got = value.typeName
        if case .int = self, case .number(let d) = value { got = NumberText.notInteger(d) }
        return Mismatch(path: path, problem: "must be \(self), got \(got)")
    }

    /// `conform` for everything but a struct given a table.
    func conformFlat(_ value: Value, tables: ScriptTables?, className: (RuntimeObject) -> [String]) -> Value? {
        switch (self, value) {
        case (_, .nil): return acceptsNil ? .nil : nil
        case (.any, _): return value
        case (.bool, .bool): return value
        case (.int, .int): return value
        case (.int, .number(let d)):
            guard d.rounded() == d, let i = Int64(exactly: d) else { return nil }
            return .int(i)
        case (.number, .int(let i)): return .number(Double(i))
        case (.number, .number): return value
        case (.string, .string): return value
        case (.string, .opaque(let r)) where r.typeName == "string": return value   // not UTF-8
        case (.table, .table): return value
        case (.function, .function): return value
        case (.function, .table(let r)), (.function, .opaque(let r)):   // a spy, a callable userdata
            return tables?.isCallable(r) == true ? value : nil
        case (.structure, .table): return value   // no script tables to look inside
        case (.className(let n), .object(let o)):
            return className(o).contains(n) ? value : nil
        default: return nil
        }
    }
}

extension StructType {
    /// A new table of exactly `root`'s fields: converted from `source`'s, or zeros where `source`
    /// (or the field) is nil. Depth-first with an explicit stack of half-built tables; a wrong
    /// or undeclared field is a mismatch naming its path.
    static func build(_ root: StructType, from source: ScriptRef?, tables: ScriptTables, limits: WorkLimits?,
                      className: (RuntimeObject) -> [String]) throws -> Result<Value, TypeSpec.Mismatch> {
        var build = StructBuild(tables: tables)
        if let m = build.enter(root, source) { return .failure(m) }
        while let top = build.frames.indices.last {
            let frame = build.frames[top]
            guard frame.out.count < frame.type.fields.count else {
                try limits?.tick()
                let table = tables.makeTable(build.frames.removeLast().out)
                guard let parent = build.frames.indices.last else { return .success(table) }
                build.frames[parent].out.append((build.frames[parent].nextField.name, table))
                continue
            }
            if let m = try build.fillNextField(className: className) { return .failure(m) }
        }
        return .success(.nil)
    }
}

/// `StructType.build`'s half-built tables, innermost last.
private struct StructBuild {
    struct Frame {
        let type: StructType
        let source: ScriptRef?
        var out: [(String, Value)] = []
        var nextField: (name: String, type: TypeSpec) { type.fields[out.count] }
    }
    let tables: ScriptTables
    var frames: [Frame] = []

    /// Where the field being made is, from the root: `.a.b`.
    var path: String { frames.map { f in f.out.count < f.type.fields.count ? ".\(Excerpt.text(f.nextField.name))" : "" }.joined() }

    /// Starts a table of `s`'s fields; `ref` (the script's table, if any) must declare no other.
    mutating func enter(_ s: StructType, _ ref: ScriptRef?) -> TypeSpec.Mismatch? {
        if let ref, let listing = tables as? ScriptTableListing {
            for name in listing.keyNames(ref) where !s.fields.contains(where: { $0.name == name }) {
                let declared = s.fields.map(\.name).joined(separator: ", ")
                return TypeSpec.Mismatch(path: path, problem: "has a field \(Excerpt.text(name)) that \(Excerpt.text(s.name)) does not declare (it declares \(Excerpt.text(declared)))")
            }
        }
        frames.append(Frame(type: s, source: ref))
        return nil
    }

    /// The innermost table's next field: converted (or its zero) and added, or, if it is a
    /// structure, its table entered.
    mutating func fillNextField(className: (RuntimeObject) -> [String]) throws -> TypeSpec.Mismatch? {
        let top = frames.count - 1
        let f = frames[top].nextField
        let v = frames[top].source.map { tables.field($0, f.name) } ?? .nil
        if let nested = f.type.structType {
            switch v {
            case .nil: return enter(nested, nil)
            case .table(let ref): return enter(nested, ref)
            default: return f.type.mismatch(v, path: path)
            }
        }
        let c = v.isNil ? try f.type.zero(tables: tables) : f.type.conformFlat(v, tables: tables, className: className)
        guard let c else { return f.type.mismatch(v, path: path) }
        frames[top].out.append((f.name, c))
        return nil
    }
}
