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
    public let fields: [(name: String, type: TypeSpec)]

    public init(name: String, fields: [(name: String, type: TypeSpec)]) {
        self.name = name
        self.fields = fields.sorted { $0.name < $1.name }
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
}

extension TypeSpec {
    /// The zero value: nil for object types, false, 0, 0.0, and a table of zeros for a struct.
    public func zero(tables: ScriptTables?) -> Value {
        switch self {
        case .bool: return .bool(false)
        case .int: return .int(0)
        case .number: return .number(0)
        case .structure(let s):
            guard let tables else { return .nil }
            return tables.makeTable(s.fields.map { ($0.name, $0.type.zero(tables: tables)) })
        default: return .nil
        }
    }

    /// Checks `value` against this type and converts it (integral floats to int, numbers to float,
    /// structs to a new table of exactly their fields). Returns nil when it does not conform.
    public func conform(_ value: Value, tables: ScriptTables?, className: (RuntimeObject) -> [String]) -> Value? {
        try? check(value, tables: tables, className: className).get()
    }

    /// Why a value does not conform: the field path inside it (`.y`, `.origin.x`; empty for the
    /// value itself) and what was wrong.
    public struct Mismatch: Error {
        public var path: String
        public let problem: String
    }

    /// `conform`, with the reason when it fails (SPEC §6.4: a wrong or undeclared struct field
    /// is named).
    public func check(_ value: Value, tables: ScriptTables?, className: (RuntimeObject) -> [String]) -> Result<Value, Mismatch> {
        if case .structure(let s) = self, case .table(let ref) = value, let tables {
            return checkStruct(s, ref, tables: tables, className: className)
        }
        if let v = conformScalar(value, className: className) { return .success(v) }
        var got = value.typeName
        if case .int = self, case .number(let d) = value { got = "\(d) (a number that is not an integer)" }
        return .failure(Mismatch(path: "", problem: "must be \(self), got \(got)"))
    }

    private func checkStruct(_ s: StructType, _ ref: ScriptRef, tables: ScriptTables,
                             className: (RuntimeObject) -> [String]) -> Result<Value, Mismatch> {
        if let listing = tables as? ScriptTableListing {
            for name in listing.keyNames(ref) where !s.fields.contains(where: { $0.name == name }) {
                let declared = s.fields.map(\.name).joined(separator: ", ")
                return .failure(Mismatch(path: "", problem: "has a field \(name) that \(s.name) does not declare (it declares \(declared))"))
            }
        }
        var out: [(String, Value)] = []
        for f in s.fields {
            let v = tables.field(ref, f.name)
            if v.isNil { out.append((f.name, f.type.zero(tables: tables))); continue }
            switch f.type.check(v, tables: tables, className: className) {
            case .success(let c): out.append((f.name, c))
            case .failure(var m):
                m.path = ".\(f.name)" + m.path
                return .failure(m)
            }
        }
        return .success(tables.makeTable(out))
    }

    private func conformScalar(_ value: Value, className: (RuntimeObject) -> [String]) -> Value? {
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
        case (.structure, .table): return value   // no script tables to look inside
        case (.className(let n), .object(let o)):
            return className(o).contains(n) ? value : nil
        default: return nil
        }
    }
}
