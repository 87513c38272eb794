/// A value crossing between the core and a script: the core inspects primitives and
/// runtime objects; everything else is an opaque script reference it only carries.
public enum Value {
    case `nil`
    case bool(Bool)
    case int(Int64)
    case number(Double)
    case string(String)
    case object(RuntimeObject)
    case table(ScriptRef)
    case function(ScriptRef)
    case opaque(ScriptRef)       // userdata, threads, strings that are not UTF-8: carried, never inspected

    public var isNil: Bool { if case .nil = self { true } else { false } }
    /// A float NaN (which no value, itself included, equals raw).
    public var isNaN: Bool { if case .number(let d) = self { d.isNaN } else { false } }

    /// The name a script author would use for this value's type.
    public var typeName: String {
        switch self {
        case .nil: "nil"
        case .bool: "boolean"
        case .int: "integer"
        case .number: "number"
        case .string: "string"
        case .object(let o): o.typeName
        case .table: "table"
        case .function: "function"
        case .opaque(let r): r.typeName
        }
    }

    public var object: RuntimeObject? { if case .object(let o) = self { o } else { nil } }
}

/// A reference the script side keeps alive for as long as the core holds this object.
/// The bridge subclasses it; `deinit` there releases the script's reference.
open class ScriptRef {
    public init() {}
    open var typeName: String { "userdata" }
    /// Identity of the referenced script value (two refs to one table are equal).
    open var identity: UInt { UInt(bitPattern: ObjectIdentifier(self).hashValue) }
    /// For a script string the core carries as it is (not UTF-8, or long): its first `limit`
    /// bytes and its length in bytes; nil for other values (or once the script side is gone).
    open func stringBytes(upTo limit: Int) -> (bytes: [UInt8], count: Int)? { nil }
    /// For a script function: where it was defined (`app.lua:6`), for messages; nil for
    /// anything else (a callable table, a native function).
    open var definition: String? { nil }
}

/// Where a bridge keeps the script values one runtime object owns (a host and its tree): the
/// core only holds it for its owner, so it goes with the owner.
open class ScriptArena {
    public init() {}
}

/// Base of every object the runtime hands to scripts. `bridgeSlot` is the script side's
/// handle to this object, so that one object always maps to one script value.
open class RuntimeObject {
    /// `bridgeSlot` in the low 31 bits, `handleIsKept` in the top one: one word, as every
    /// subclass lays a field of its own in the 4 bytes after it. Read and written through those
    /// two (public only so that a bridge's accesses are a load and a store, not calls).
    public final var bridgeWord: UInt32 = 0
    /// The script side's handle of this object (0: none). Setting it (a new handle) clears
    /// `handleIsKept`.
    public final var bridgeSlot: Int32 {
        @inlinable @inline(__always) get { Int32(bitPattern: bridgeWord & 0x7FFF_FFFF) }
        @inlinable @inline(__always) set { bridgeWord = UInt32(bitPattern: newValue) & 0x7FFF_FFFF }
    }
    /// Whether the bridge keeps the handle at `bridgeSlot` while the object lives (SPEC §1): the
    /// runtime tells it the object ended only then (`Runtime.ended`), so objects no script
    /// asked for cost one bit test as they go.
    public final var handleIsKept: Bool {
        @inlinable @inline(__always) get { bridgeWord & 0x8000_0000 != 0 }
        @inlinable @inline(__always) set { bridgeWord = newValue ? bridgeWord | 0x8000_0000 : bridgeWord & 0x7FFF_FFFF }
    }
    public init() {}
    open var typeName: String { "object" }
    /// Whether the object lives in the runtime (a component in its host's tree, a controller not
    /// invalidated, a host not destroyed…): a bridge keeps the handle a script obtained of it
    /// meanwhile, so that it stays the object's one script value (SPEC §1), and lets go when the
    /// runtime says the object ended (`Runtime.onObjectEnded`).
    open var keepsItsHandle: Bool { false }

    /// Whether a strong tree link of this object would be freed with it (see `Reaper`).
    var holdsUniqueLinks: Bool { false }
    /// Moves this object's strong tree links into `stack` (called only as it goes).
    func moveLinks(into stack: inout [RuntimeObject]) {}
}

extension Value {
    /// Raw equality as Lua's `rawequal` sees it (tables and functions by identity).
    public func rawEquals(_ other: Value) -> Bool {
        switch (self, other) {
        case (.nil, .nil): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.int(a), .number(b)), let (.number(b), .int(a)): Value.integer(a, equals: b)
        case let (.string(a), .string(b)): a == b
        case let (.object(a), .object(b)): a === b
        case let (.table(a), .table(b)), let (.function(a), .function(b)), let (.opaque(a), .opaque(b)):
            a.identity == b.identity
        default: false
        }
    }

    /// Lua's `i == f` for an integer and a float: equal only when the float is exactly that
    /// integer (2^53 + 1 is not 2^53, math.maxinteger is not 2^63), not after rounding `i` to a float.
    static func integer(_ i: Int64, equals d: Double) -> Bool {
        Int64(exactly: d) == i
    }
}
