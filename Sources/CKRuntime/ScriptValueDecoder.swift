import CKCore

/// Decodes ``ScriptValue``s straight into `Decodable` types (ScriptValueCoding.swift). A Lua
/// table with no entries comes back as an empty dictionary, so an empty dictionary is an empty
/// array as well, and a list of nils alone (`{n = 2}`) comes back as `["n": 2]`, so that is an
/// array of nils; every mismatch is `[badArgument]` naming the field.
struct ScriptValueDecoder: Decoder {
    let value: ScriptValue
    let codingPath: [any CodingKey]
    /// Set while an `[Int: T]` decodes: its keyed container then reads an integer-keyed table
    /// or a list (a `[String: T]`, whose keys may read as numbers too, does not).
    var decodesIntegerKeys = false
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: ScriptValue, codingPath: [any CodingKey]) {
        self.value = value
        self.codingPath = codingPath
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let s = try scalar(T.self) { return s }
        if (T.self as? any IntegerKeyedDictionary.Type)?.hasIntegerKeys == true {
            var integerKeyed = self
            integerKeyed.decodesIntegerKeys = true
            return try T(from: integerKeyed)
        }
        return try T(from: self)
    }

    func mismatch(_ expected: String) -> ScriptError {
        ScriptError(.badArgument, "\(codingPathText(codingPath)) should be \(expected), but it is \(Self.describe(value))")
    }

    /// Swift's own `DecodingError` (a type's `init(from:)` threw it) as the `[badArgument]`
    /// every other mismatch is, naming the field its context names.
    static func scriptError(_ error: DecodingError) -> ScriptError {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): context = c
        @unknown default: return ScriptError(.badArgument, "the value does not decode: \(Excerpt.text("\(error)"))")
        }
        return ScriptError(.badArgument, "\(codingPathText(context.codingPath)) does not decode: \(Excerpt.text(context.debugDescription))")
    }

    static func describe(_ value: ScriptValue) -> String {
        switch value {
        case .nil: "nil"
        case .bool(let b): "the boolean \(b)"
        case .int(let i): "the integer \(i)"
        case .double(let d): "the float \(d)"
        case .string(let s): "a string (\(s.count) characters)"
        case .array(let a): "an array of \(a.count)"
        case .dictionary(let d): "a dictionary of \(d.count) keys"
        case .integerKeyed(let d): "a table of \(d.count) integer keys"
        case .object(let name): "a Lua \(name)"
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch value {
        case .dictionary(let fields): return KeyedDecodingContainer(Keyed<Key>(fields: fields, codingPath: codingPath))
        case .array(let items) where items.isEmpty: return KeyedDecodingContainer(Keyed<Key>(fields: [:], codingPath: codingPath))
        case .integerKeyed(let entries) where decodesIntegerKeys:
            return KeyedDecodingContainer(Keyed<Key>(fields: Dictionary(uniqueKeysWithValues: entries.map { ("\($0.key)", $0.value) }), codingPath: codingPath))
        case .array(let items) where decodesIntegerKeys:
            // A Lua table with keys 1…k is a list, whatever the Swift type: as `[Int: T]`, its items by index.
            var fields: [String: ScriptValue] = [:]
            for (i, item) in items.enumerated() where item != .nil { fields["\(i + 1)"] = item }
            return KeyedDecodingContainer(Keyed<Key>(fields: fields, codingPath: codingPath))
        default: throw mismatch("a dictionary")
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let items): return Unkeyed(items: items, codingPath: codingPath)
        case .dictionary(let fields) where fields.isEmpty: return Unkeyed(items: [], codingPath: codingPath)
        case .dictionary(let fields) where fields.count == 1:
            // A list of nils alone is a table with nothing but `n` (`{n = 2}` for `[nil, nil]`).
            guard case .int(let n)? = fields["n"], (0...ScriptValue.maximumHoles).contains(n) else { throw mismatch("an array") }
            return Unkeyed(items: Array(repeating: .nil, count: n), codingPath: codingPath)
        default: throw mismatch("an array")
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

    /// The value as a scalar type (numbers exactly, a string, a boolean, a ScriptValue), or
    /// nil when `T` is no scalar type.
    func scalar<T>(_ type: T.Type) throws -> T? {
        switch type {
        case is ScriptValue.Type: return value as? T
        case is Bool.Type:
            guard case .bool(let b) = value else { throw mismatch("a boolean") }
            return b as? T
        case is String.Type:
            guard case .string(let s) = value else { throw mismatch("a string") }
            return s as? T
        default: break
        }
        // Every numeric type, Float16, Int128 and a program's own included, through one
        // conversion each kind: a type's own `init(from:)` (Float16's reads a Float, then
        // throws Swift's DecodingError "Parsed JSON number") is never asked.
        if let integerType = type as? any BinaryInteger.Type { return try integer(integerType) as? T }
        if let floatType = type as? any BinaryFloatingPoint.Type { return try floatingPoint(floatType) as? T }
        return nil
    }

    /// An integer, or an integral float, that `I` holds exactly.
    private func integer<I: BinaryInteger>(_ type: I.Type) throws -> I {
        let exact: I?
        switch value {
        case .int(let i): exact = I(exactly: i)
        case .double(let d): exact = d.isFinite ? I(exactly: d) : nil
        default: throw mismatch("an integer (\(I.self))")
        }
        guard let exact else { throw mismatch("an integer that \(I.self) holds exactly") }
        return exact
    }

    /// A float rounded to the nearest `F` (as it is for a Double; NaN and the infinities as
    /// they are), or an integer `F` holds exactly. A finite float past `F`'s range is refused,
    /// not made infinity.
    private func floatingPoint<F: BinaryFloatingPoint>(_ type: F.Type) throws -> F {
        switch value {
        case .double(let d):
            let f = F(d)
            guard f.isFinite || !d.isFinite else { throw mismatch("a number within \(F.self)'s range") }
            return f
        case .int(let i):
            guard let f = F(exactly: i) else { throw mismatch("a number that \(F.self) holds exactly") }
            return f
        default: throw mismatch("a number")
        }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let fields: [String: ScriptValue]
        let codingPath: [any CodingKey]
        var allKeys: [Key] { fields.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { fields[key.stringValue] != nil }

        private func decoder(_ key: any CodingKey) throws -> ScriptValueDecoder {
            guard let value = fields[key.stringValue] else {
                throw ScriptError(.badArgument, "\(codingPathText(codingPath + [key])) is missing; give the field a value (or make it optional)")
            }
            return ScriptValueDecoder(value: value, codingPath: codingPath + [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool { (fields[key.stringValue] ?? .nil) == .nil }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(key).decodeValue(T.self) }
        // The 128-bit integers have requirements of their own whose defaults throw Swift's
        // DecodingError (attack break 02): each container routes them to the generic path.
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try decoder(key).decodeValue(type) }
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try decoder(key).decodeValue(type) }
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try present(key) ? decode(type, forKey: key) : nil }
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try present(key) ? decode(type, forKey: key) : nil }
        private func present(_ key: Key) throws -> Bool { try contains(key) && !decodeNil(forKey: key) }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try decoder(key).container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try decoder(key).unkeyedContainer() }
        func superDecoder() throws -> any Decoder {
            ScriptValueDecoder(value: fields["super"] ?? .nil, codingPath: codingPath + [SuperKey()])
        }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            ScriptValueDecoder(value: fields[key.stringValue] ?? .nil, codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [ScriptValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        init(items: [ScriptValue], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        private mutating func next() throws -> ScriptValueDecoder {
            let path = codingPath + [IndexKey(currentIndex)]
            guard !isAtEnd else {
                throw ScriptError(.badArgument, "\(codingPathText(path)) is past the end of an array of \(items.count); give the array more items")
            }
            defer { currentIndex += 1 }
            return ScriptValueDecoder(value: items[currentIndex], codingPath: path)
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, items[currentIndex] == .nil else { return false }
            currentIndex += 1
            return true
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(T.self) }
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        mutating func decode(_ type: Int128.Type) throws -> Int128 { try next().decodeValue(type) }
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try next().decodeValue(type) }
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        mutating func decodeIfPresent(_ type: Int128.Type) throws -> Int128? { try isAtEnd || decodeNil() ? nil : decode(type) }
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        mutating func decodeIfPresent(_ type: UInt128.Type) throws -> UInt128? { try isAtEnd || decodeNil() ? nil : decode(type) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try next().container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
        mutating func superDecoder() throws -> any Decoder { try next() }
    }

    struct Single: SingleValueDecodingContainer {
        let decoder: ScriptValueDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool { decoder.value == .nil }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(T.self) }
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        func decode(_ type: Int128.Type) throws -> Int128 { try decoder.decodeValue(type) }
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        func decode(_ type: UInt128.Type) throws -> UInt128 { try decoder.decodeValue(type) }
    }
}
