import CKRuntime
import Testing

/// `Codable` values through ScriptValue and through Lua and back (outsider break 4).
@Suite("Codable values round trip through ScriptValue and Lua")
struct CodingTests {
    /// The value after a trip into Lua and back.
    func throughLua<T: Codable>(_ value: T, _ runtime: Runtime) throws -> T {
        let identity = try runtime.load(string: "return function(v) return v end")
        let back = try identity.call([try ScriptValue(encoding: value)])
        return try (back.first ?? .nil).decode(T.self)
    }

    struct Lists: Codable, Equatable {
        var ints: [Int]
        var names: [String]
        var nested: [[Double]]
        var byName: [String: Int]
        var optional: [Int]?
    }

    @Test func emptyArraysComeBackAsArrays() throws {
        let runtime = try Runtime()
        let empty = Lists(ints: [], names: [], nested: [[], [1.5]], byName: [:], optional: [])
        #expect(try throughLua(empty, runtime) == empty)
        #expect(try throughLua([Int](), runtime) == [])
        #expect(try throughLua([String: Int](), runtime) == [:])
        let table = try runtime.load(string: "return {}").value()
        #expect(try table.decode([Int].self) == [])
        #expect(try table.decode(Set<String>.self) == [])
    }

    struct Floats: Codable, Equatable {
        var d: Double
        var f: Float
    }

    @Test func nanAndInfinityRoundTrip() throws {
        let runtime = try Runtime()
        let inf = Floats(d: .infinity, f: -.infinity)
        #expect(try throughLua(inf, runtime) == inf)
        let nan = try throughLua(Floats(d: .nan, f: .nan), runtime)
        #expect(nan.d.isNaN && nan.f.isNaN)
        let isNaN = try runtime.load(string: "return function(m) return m.d ~= m.d, m.f == -math.huge end")
        #expect(try isNaN.call([try ScriptValue(encoding: Floats(d: .nan, f: -.infinity))]) == [true, true])
    }

    struct Integers: Codable, Equatable {
        var i8: Int8 = .min, i16: Int16 = .min, i32: Int32 = .min, i64: Int64 = .min, i: Int = .max
        var u8: UInt8 = .max, u16: UInt16 = .max, u32: UInt32 = .max, u: UInt = 7, u64: UInt64 = UInt64(Int64.max)
    }

    @Test func everyIntegerTypeInRangeIsExact() throws {
        let runtime = try Runtime()
        #expect(try throughLua(Integers(), runtime) == Integers())
        #expect(try ScriptValue(encoding: Integers())["u64"] == .int(Int.max))
    }

    @Test func integersOutsideLuasRangeAreBadArgument() throws {
        for value in [UInt64.max, UInt64(Int64.max) + 1] {
            let error = try #require(throws: ScriptError.self) { try ScriptValue(encoding: value) }
            #expect(error.id == .badArgument)
        }
        let error = try #require(throws: ScriptError.self) { try ScriptValue(encoding: ["n": UInt.max]) }
        #expect(error.id == .badArgument)
        #expect(throws: ScriptError.self) { try ScriptValue(encoding: Int128.max) }
        #expect(try ScriptValue(encoding: Int128(-5)) == -5)
        #expect(try ScriptValue(encoding: UInt128(5)) == 5)
    }

    struct Wide: Codable, Equatable {
        var signed: Int128
        var unsigned: UInt128
        var list: [Int128]
        var missing: UInt128?
        var present: Int128?
    }

    /// Outsider attack on the library, break 02: a 128-bit field (not a top-level value) went
    /// through the containers' own Int128 requirements, whose defaults throw Swift's
    /// EncodingError / DecodingError: no id, even for 5.
    @Test func wideIntegerFieldsRoundTripAndPastLuasRangeAreBadArgumentNamingTheField() throws {
        let runtime = try Runtime()
        let wide = Wide(signed: -5, unsigned: 7, list: [1, Int128(Int64.min)], missing: nil, present: 9)
        #expect(try ScriptValue(encoding: wide)["signed"] == -5)
        #expect(try throughLua(wide, runtime) == wide)
        var tooWide = wide
        tooWide.list[1] = Int128(Int64.max) * 4
        let encoding = try #require(throws: ScriptError.self) { try ScriptValue(encoding: tooWide) }
        #expect(encoding.id == .badArgument)
        #expect(encoding.message.contains("list[1]"))
        let decoding = try #require(throws: ScriptError.self) {
            try ScriptValue.dictionary(["signed": 1, "unsigned": -1, "list": []]).decode(Wide.self)
        }
        #expect(decoding.id == .badArgument)
        #expect(decoding.message.contains("unsigned"))
    }

    @Test func decodingANumberIntoATypeThatCannotHoldItIsBadArgument() throws {
        let cases: [(ScriptValue, (ScriptValue) throws -> Any)] = [
            (300, { try $0.decode(Int8.self) }),
            (-1, { try $0.decode(UInt.self) }),
            (-1, { try $0.decode(UInt64.self) }),
            (1.5, { try $0.decode(Int.self) }),
            (.double(1e19), { try $0.decode(Int64.self) }),
            (.double(.nan), { try $0.decode(Int.self) }),
            (.double(1e300), { try $0.decode(Float.self) }),
            (.int(Int.max), { try $0.decode(Double.self) }),
            ("7", { try $0.decode(Int.self) }),
        ]
        for (value, decode) in cases {
            let error = try #require(throws: ScriptError.self) { _ = try decode(value) }
            #expect(error.id == .badArgument, "\(value): \(error.message)")
        }
        #expect(try ScriptValue.double(3.0).decode(Int.self) == 3)
        #expect(try ScriptValue.int(3).decode(Double.self) == 3.0)
        #expect(try ScriptValue.int(-128).decode(Int8.self) == -128)
        #expect(try ScriptValue.int(Int.max).decode(UInt64.self) == UInt64(Int.max))
        #expect(try ScriptValue.double(0.1).decode(Float.self) == Float(0.1))
    }

    enum Kind: String, Codable { case a, b }
    struct Mixed: Codable, Equatable {
        var kind: Kind
        var flag: Bool
        var text: String?
        var missing: Int?
        var point: [String: Double]
        var matrix: [[Int]]
    }

    @Test func keyedUnkeyedAndSingleValueContainersRoundTrip() throws {
        let runtime = try Runtime()
        let value = Mixed(kind: .b, flag: false, text: "hé", missing: nil, point: ["x": 1.5], matrix: [[1, 2], [], [3]])
        #expect(try throughLua(value, runtime) == value)
        #expect(try throughLua(Kind.a, runtime) == .a)
        #expect(try throughLua([Kind.a, .b], runtime) == [.a, .b])
    }

    @Test func aMismatchedShapeIsBadArgument() throws {
        struct Need: Decodable { var n: Int }
        for value: ScriptValue in [["n": "x"], [:], [1, 2], "text"] {
            let error = try #require(throws: ScriptError.self) { try value.decode(Need.self) }
            #expect(error.id == .badArgument, "\(value): \(error.message)")
        }
    }

    /// ScriptValue itself still codes as JSON-shaped data through other coders.
    @Test func scriptValueEncodesThroughItsOwnCoder() throws {
        let value: ScriptValue = ["a": [1, 2.5, "s", true, nil], "b": [:]]
        #expect(try ScriptValue(encoding: value) == value)
        #expect(try value.decode(ScriptValue.self) == value)
    }

    struct Big: Encodable { var id: String; var counts: [UInt64] }

    /// Through the API that takes models: the error names the field, and nothing was mounted.
    @Test func aModelWithAnIntegerPastLuasRangeIsRefusedNamingTheField() throws {
        let runtime = try Runtime()
        let app = try runtime.load(string: "return ck.component('T', {render = function() return nil end})")
        let error = try #require(throws: ScriptError.self) {
            try runtime.mount(app, model: Big(id: "a", counts: [1, UInt64.max]))
        }
        #expect(error.id == .badArgument)
        #expect(error.message.contains("counts[1] is 18446744073709551615 (UInt64)"))
        let host = try runtime.mount(app, model: Big(id: "a", counts: []))
        #expect(throws: ScriptError.self) { try host.update(model: Big(id: "b", counts: [.max])) }
        try host.update(model: Floats(d: .nan, f: .infinity))
    }

    struct Pick: Decodable { var tags: [String]; var n: Int8 }

    /// A Swift handler's typed argument: an empty list from Lua decodes, a number its type
    /// cannot hold is [badArgument] naming the field.
    @Test func aHandlersTypedArgumentWithAnEmptyListAndAnOutOfRangeNumber() throws {
        let runtime = try Runtime()
        let app = try runtime.load(string: """
            ck.struct("Pick", {tags = "table", n = "int"})
            return ck.component("P", {scope = true,
              go = function(self, sender, n) ck.action("picked", {"Pick"}):send(self, {tags = {}, n = n}) end})
            """)
        nonisolated(unsafe) var received: [Pick] = []
        var responder = HostResponder(name: "VC")
        responder.on("picked", Pick.self) { received.append($0) }
        let host = try runtime.mount(app, responders: [responder])
        try host.send("go", types: ["int"], to: .scope("P"), arguments: [7])
        #expect(received.map(\.tags) == [[]])
        let error = try #require(throws: ScriptError.self) { try host.send("go", types: ["int"], to: .scope("P"), arguments: [300]) }
        #expect(error.id == .badArgument)
        #expect(error.message.contains("n should be an integer that Int8 holds exactly, but it is the integer 300"))
    }
}
