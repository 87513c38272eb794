/// A value passed between Swift and Lua: a model, an action's argument, a component's state.
///
/// Swift values come in as Lua values: `Int` as an integer, `Double` as a float, `String`,
/// `Bool`, `nil`, arrays as lists (`t[1]`, `t[2]`, …; one holding a nil also gets `n`, its
/// length, as `table.pack` makes it) and dictionaries as tables with string keys. Lua values
/// come back whole or not at all: a table whose keys are 1…k is an array, one whose integer
/// keys lie in 1…`n` beside an integer `n` an array of `n` (nil in the holes), one with string
/// keys a dictionary, one with other integer keys alone (`{[7] = "seven"}`, a list with holes
/// and no `n`) an ``integerKeyed(_:)`` table; anything a `ScriptValue` cannot hold whole
/// (list items beside string keys, a key that is neither an integer nor a string, a string or
/// key that is not UTF-8, two keys Swift counts as one string) is ``ErrorID/badArgument``. A list of nils alone
/// (`{n = 2}`) comes back as `["n": 2]`, which ``decode(_:)`` reads as an array of nils.
/// What has no Swift counterpart (a function, a component, an `Event`) arrives as
/// ``object(_:)`` holding its Lua type name. Literals work: `["x": 1, "tags": ["a"]]`.
/// Use ``init(encoding:)`` and ``decode(_:)`` for `Codable` types. A Lua table nested deeper
/// than ``maximumDepth`` does not come back (``ErrorID/badArgument``).
public enum ScriptValue: Sendable, Hashable {
    /// Lua's `nil` (and a missing argument).
    case `nil`
    /// A boolean.
    case bool(Bool)
    /// A Lua integer (`int` arguments arrive as this).
    case int(Int)
    /// A Lua float (`number` arguments arrive as this, promoted from integers).
    case double(Double)
    /// A string (a Lua string that is not UTF-8 does not come back: ``ErrorID/badArgument``).
    case string(String)
    /// A Lua list (a ``nil`` item is a hole; the list then carries `n`).
    case array([ScriptValue])
    /// A Lua table with string keys (a struct argument arrives as this).
    case dictionary([String: ScriptValue])
    /// A Lua table with integer keys that is not a list (`{[7] = "seven"}`): what a `Codable`
    /// `[Int: T]` becomes, so a script indexes it by number (`t[7]`); it decodes as `[Int: T]`
    /// (a list `{[1] = …, [2] = …}` does too).
    case integerKeyed([Int: ScriptValue])
    /// A value Swift cannot hold (a function, a runtime object): its Lua type name.
    case object(String)
}

extension ScriptValue {
    /// How deep a Lua table may nest to come back as a script value (a flat list is 1 deep): a
    /// deeper one is ``ErrorID/badArgument``, wherever it comes back (``ScriptObject/value()``,
    /// a call's results, a Swift handler's arguments, ``ComponentHost/find(_:)``). Swift releases,
    /// compares and decodes a `ScriptValue` by recursion, so a value a script nested 100,000
    /// deep overflowed the stack. Values going into Lua may nest as deep as the program likes.
    public static let maximumDepth = 1_000

    /// How many nils a Lua list with holes may carry past its items (its `n` minus the items it
    /// holds) to come back as an ``array(_:)``: the nils are Swift memory, outside the Lua
    /// state's limit, so a script's `{n = 1e12}` is ``ErrorID/badArgument``, not an exhausted process.
    public static let maximumHoles = 1_000_000

    /// The integer, or an integral float as an integer; nil otherwise.
    public var intValue: Int? {
        switch self {
        case .int(let i): i
        case .double(let d): Int(exactly: d)
        default: nil
        }
    }

    /// The number as a `Double` (integers converted); nil otherwise.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    /// The string; nil otherwise.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The boolean; nil otherwise.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The array's items; nil otherwise.
    public var arrayValue: [ScriptValue]? { if case .array(let a) = self { a } else { nil } }
    /// The dictionary's fields; nil otherwise.
    public var dictionaryValue: [String: ScriptValue]? { if case .dictionary(let d) = self { d } else { nil } }
    /// The integer-keyed table's entries; nil otherwise.
    public var integerKeyedValue: [Int: ScriptValue]? { if case .integerKeyed(let d) = self { d } else { nil } }
    /// Whether this is ``nil``.
    public var isNil: Bool { self == .nil }

    /// The field `key` of a dictionary (``nil`` for other values or a missing key).
    public subscript(key: String) -> ScriptValue { dictionaryValue?[key] ?? .nil }
}

extension ScriptValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// `nil` as a script value.
    public init(nilLiteral: ()) { self = .nil }
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A float literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal.
    public init(arrayLiteral elements: ScriptValue...) { self = .array(elements) }
    /// A dictionary literal (a later duplicate key wins).
    public init(dictionaryLiteral elements: (String, ScriptValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
}
