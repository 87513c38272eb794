/// Encodes `Encodable` values straight into ``ScriptValue``s (ScriptValueCoding.swift). Each
/// value being made is a `Node`, filled by whichever container its `encode(to:)` asks for.
final class ScriptValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let node: Node

    init(node: Node, codingPath: [any CodingKey]) {
        self.node = node
        self.codingPath = codingPath
    }

    static func encode(_ value: some Encodable) throws -> ScriptValue {
        let node = Node()
        try node.encode(value, codingPath: [])
        return node.value
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeDictionary()
        return KeyedEncodingContainer(Keyed(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return Unkeyed(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }

    /// A value being encoded: a scalar, or the array or dictionary its containers fill.
    final class Node {
        var scalar: ScriptValue = .nil
        var items: [Node]?
        var fields: [String: Node]?
        /// Whether the dictionary being made is an `[Int: T]` (or a dictionary whose
        /// `CodingKeyRepresentable` keys are integers): its keys go into Lua as integers.
        var integerKeys = false

        func becomeArray() { if items == nil { items = []; fields = nil } }
        func becomeDictionary() { if fields == nil { fields = [:]; items = nil } }

        var value: ScriptValue {
            if let items { return .array(items.map(\.value)) }
            if let fields {
                if integerKeys, !fields.isEmpty {
                    var entries: [Int: ScriptValue] = [:]
                    for (key, node) in fields {
                        guard let i = Int(key) else { return .dictionary(fields.mapValues(\.value)) }
                        entries[i] = node.value
                    }
                    return .integerKeyed(entries)
                }
                return .dictionary(fields.mapValues(\.value))
            }
            return scalar
        }

        /// `value` into this node: a scalar at once, anything else through its `encode(to:)`.
        func encode<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
            if let s = try ScriptValueEncoder.scalar(value, codingPath) { scalar = s; items = nil; fields = nil; return }
            integerKeys = (T.self as? any IntegerKeyedDictionary.Type)?.hasIntegerKeys ?? false
            try value.encode(to: ScriptValueEncoder(node: self, codingPath: codingPath))
        }
    }

    /// A value that is a script value by itself (numbers, strings, booleans, a ScriptValue),
    /// nil for one made of containers. Integers outside Lua's range are `[badArgument]`.
    static func scalar<T: Encodable>(_ value: T, _ path: [any CodingKey]) throws -> ScriptValue? {
        switch value {
        case let v as ScriptValue: return v
        case let v as Bool: return .bool(v)
        case let v as String: return .string(v)
        case let v as Double: return .double(v)
        case let v as Float: return .double(Double(v))
        case let v as Int: return .int(v)
        case let v as Int8: return .int(Int(v))
        case let v as Int16: return .int(Int(v))
        case let v as Int32: return .int(Int(v))
        case let v as Int64: return .int(Int(v))
        case let v as UInt8: return .int(Int(v))
        case let v as UInt16: return .int(Int(v))
        case let v as UInt32: return .int(Int(v))
        case let v as UInt: return try integer(v, path)
        case let v as UInt64: return try integer(v, path)
        default: break
        }
        if #available(macOS 15.0, iOS 18.0, *) {
            if let v = value as? Int128 { return try integer(v, path) }
            if let v = value as? UInt128 { return try integer(v, path) }
        }
        return nil
    }

    /// A key that reads as an integer (`"7"` is 7) but is not one: such a dictionary keeps string keys.
    static func isIntegerKey(_ key: any CodingKey) -> Bool {
        guard let i = key.intValue else { return false }
        return key.stringValue == "\(i)"
    }

    private static func integer(_ v: some BinaryInteger, _ path: [any CodingKey]) throws -> ScriptValue {
        guard let i = Int64(exactly: v) else {
            throw ScriptError(.badArgument, "\(codingPathText(path)) is \(v) (\(type(of: v))), past a Lua integer's range (\(Int64.min)...\(Int64.max)); encode it as a String, or as a Double if rounding is fine")
        }
        return .int(Int(i))
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        private func child(_ key: any CodingKey) -> Node {
            if node.integerKeys, !ScriptValueEncoder.isIntegerKey(key) { node.integerKeys = false }
            let child = Node()
            node.fields?[key.stringValue] = child
            return child
        }

        mutating func encodeNil(forKey key: Key) throws { _ = child(key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try child(key).encode(value, codingPath: codingPath + [key])
        }
        // The 128-bit integers have requirements of their own whose defaults throw Swift's
        // EncodingError (attack break 02): each container routes them to the generic path.
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        mutating func encode(_ value: Int128, forKey key: Key) throws { try child(key).encode(value, codingPath: codingPath + [key]) }
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        mutating func encode(_ value: UInt128, forKey key: Key) throws { try child(key).encode(value, codingPath: codingPath + [key]) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                          forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let c = child(key)
            c.becomeDictionary()
            return KeyedEncodingContainer(Keyed<NestedKey>(node: c, codingPath: codingPath + [key]))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let c = child(key)
            c.becomeArray()
            return Unkeyed(node: c, codingPath: codingPath + [key])
        }
        mutating func superEncoder() -> any Encoder { ScriptValueEncoder(node: child(SuperKey()), codingPath: codingPath + [SuperKey()]) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { ScriptValueEncoder(node: child(key), codingPath: codingPath + [key]) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int { node.items?.count ?? 0 }

        private func next() -> (Node, [any CodingKey]) {
            let path = codingPath + [IndexKey(count)]
            let child = Node()
            node.items?.append(child)
            return (child, path)
        }

        mutating func encodeNil() throws { _ = next() }
        mutating func encode<T: Encodable>(_ value: T) throws {
            let (child, path) = next()
            try child.encode(value, codingPath: path)
        }
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        mutating func encode(_ value: Int128) throws {
            let (child, path) = next()
            try child.encode(value, codingPath: path)
        }
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        mutating func encode(_ value: UInt128) throws {
            let (child, path) = next()
            try child.encode(value, codingPath: path)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let (child, path) = next()
            child.becomeDictionary()
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child, codingPath: path))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let (child, path) = next()
            child.becomeArray()
            return Unkeyed(node: child, codingPath: path)
        }
        mutating func superEncoder() -> any Encoder {
            let (child, path) = next()
            return ScriptValueEncoder(node: child, codingPath: path)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.scalar = .nil; node.items = nil; node.fields = nil }
        mutating func encode<T: Encodable>(_ value: T) throws { try node.encode(value, codingPath: codingPath) }
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        mutating func encode(_ value: Int128) throws { try node.encode(value, codingPath: codingPath) }
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        mutating func encode(_ value: UInt128) throws { try node.encode(value, codingPath: codingPath) }
    }
}

/// A `Dictionary` says whether its keys are integers: `[Int: T]`, or keys that are
/// `CodingKeyRepresentable` (not `String`, whose keys merely may read as numbers) and code as
/// integers. Such a dictionary becomes a Lua table with integer keys.
protocol IntegerKeyedDictionary {
    static var hasIntegerKeys: Bool { get }
}

extension Dictionary: IntegerKeyedDictionary {
    static var hasIntegerKeys: Bool {
        Key.self == Int.self || (Key.self != String.self && Key.self is any CodingKeyRepresentable.Type)
    }
}
