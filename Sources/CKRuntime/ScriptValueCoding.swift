#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `Codable` types as script values, through JSON: a struct is a dictionary of its coded keys.
extension ScriptValue: Codable {
    /// Reads JSON-shaped data: a boolean, an integer (when the number is one), a float, a
    /// string, an array, a dictionary or null.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .nil }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int.self) { self = .int(i) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([ScriptValue].self) { self = .array(a) }
        else { self = .dictionary(try c.decode([String: ScriptValue].self)) }
    }

    /// Writes the value as JSON-shaped data (``object(_:)`` as its type name, a string).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .nil: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .dictionary(let d): try c.encode(d)
        case .object(let name): try c.encode(name)
        }
    }

    /// An `Encodable` value as a script value (a struct becomes a dictionary of its fields).
    public init(encoding value: some Encodable) throws {
        self = try JSONDecoder().decode(ScriptValue.self, from: JSONEncoder().encode(value))
    }

    /// This value as a `Decodable` type (a dictionary as a struct of its fields).
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(self))
    }
}
