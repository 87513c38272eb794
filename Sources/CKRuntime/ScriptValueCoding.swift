import CKCore

/// `Codable` types as script values, coded directly (no JSON between): a struct is a dictionary
/// of its coded keys, an array an array, a number the number itself. What a Lua value cannot
/// hold exactly is ``ErrorID/badArgument``, never a trap or a rounded number.
extension ScriptValue: Codable {
    /// Reads data of another coder: a boolean, an integer (when the number is one), a float,
    /// a string, an array, a dictionary or null. Through ``decode(_:)`` it is the value itself.
    public init(from decoder: any Decoder) throws {
        if let own = decoder as? ScriptValueDecoder { self = own.value; return }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .nil }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int.self) { self = .int(i) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([ScriptValue].self) { self = .array(a) }
        else { self = .dictionary(try c.decode([String: ScriptValue].self)) }
    }

    /// Writes the value as data of another coder (``object(_:)`` as its type name, a string).
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
        case .integerKeyed(let d): try c.encode(d)
        case .object(let name): try c.encode(name)
        }
    }

    /// An `Encodable` value as a script value (a struct becomes a dictionary of its fields, an
    /// empty array an empty array). Every integer type is exact; an integer past Lua's 64-bit
    /// range (`UInt64.max`, a large `Int128`) and anything else a Lua value cannot hold throws
    /// a ``ScriptError`` ``ErrorID/badArgument`` naming the field. NaN and the infinities are
    /// floats, as Lua has them.
    public init(encoding value: some Encodable) throws {
        self = try ScriptValueEncoder.encode(value)
    }

    /// This value as a `Decodable` type (a dictionary as a struct of its fields; an empty
    /// dictionary, which is what an empty Lua table comes back as, as an empty array too). A
    /// value of another shape, a missing field, or a number the type cannot hold exactly
    /// (`300` as `Int8`, `1.5` as `Int`, `-1` as `UInt`) throws a ``ScriptError``
    /// ``ErrorID/badArgument`` naming the field. So is what a type's own `init(from:)` refuses
    /// (a `String` enum given a name it has no case for): this throws nothing but
    /// ``ScriptError``s of the program's own and ``ScriptError``s the decoding made.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        do {
            return try ScriptValueDecoder(value: self, codingPath: []).decodeValue(T.self)
        } catch let error as DecodingError {
            throw ScriptValueDecoder.scriptError(error)
        }
    }
}

/// `items[2].x`: where in the coded value a problem is, for messages. Keys can be a script's
/// (a dictionary's), so the text is an excerpt (rule 16).
func codingPathText(_ path: [any CodingKey]) -> String {
    guard !path.isEmpty else { return "the value" }
    var text = ""
    for key in path {
        if let i = key.intValue, key.stringValue == "Index \(i)" || key.stringValue == "\(i)" { text += "[\(i)]" }
        else { text += (text.isEmpty ? "" : ".") + Excerpt.text(key.stringValue) }
        if text.utf8.count > Excerpt.limit { break }
    }
    return Excerpt.text(text)
}

/// A position in an unkeyed container (`[2]`).
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// The key `superEncoder()` and `superDecoder()` use.
struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { }
    init?(intValue: Int) { return nil }
}
