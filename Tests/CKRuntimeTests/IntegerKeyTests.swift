import CKRuntime
import Testing

/// Outside attack (embedding) 08: a Codable `[Int: String]` reached Lua with string keys
/// (`t[7]` nil), and a Lua table with integer keys could not come back as `[Int: T]`.
@Suite("Integer-keyed dictionaries cross as integer keys")
struct IntegerKeyTests {
    struct Model: Codable, Equatable { var names: [Int: String] }
    enum Slot: Int, Codable, CodingKeyRepresentable { case first = 1, second = 2 }

    @Test func anIntKeyedDictionaryReachesLuaWithIntegerKeys() throws {
        let runtime = try Runtime()
        let look = try runtime.load(string: "return function(m) return m.names[7], m.names['7'], math.type(next(m.names)) end")
        #expect(try look.call([try ScriptValue(encoding: Model(names: [7: "seven"]))]) == ["seven", nil, "integer"])
        let slots = try ScriptValue(encoding: [Slot.first: "a", .second: "b"])
        #expect(slots == .integerKeyed([1: "a", 2: "b"]))
        #expect(try ScriptValue(encoding: ["7": "seven"]) == ["7": "seven"])
    }

    @Test func aLuaTableWithIntegerKeysDecodesAsAnIntKeyedDictionary() throws {
        let runtime = try Runtime()
        let sparse = try runtime.load(string: "return {names = {[7] = 'seven', [-1] = 'minus'}}").value()
        #expect(sparse["names"] == .integerKeyed([7: "seven", -1: "minus"]))
        #expect(try sparse.decode(Model.self) == Model(names: [7: "seven", -1: "minus"]))
        let dense = try runtime.load(string: "return {names = {[1] = 'one', [2] = 'two'}}").value()
        #expect(try dense.decode(Model.self) == Model(names: [1: "one", 2: "two"]))
        #expect(throws: ScriptError.self) { try ScriptValue.integerKeyed([7: "seven"]).decode([String: String].self) }
        #expect(throws: ScriptError.self) { try (["a", "b"] as ScriptValue).decode([String: String].self) }
        let holes = try runtime.load(string: "return {1, nil, 3}").value()
        #expect(holes == .integerKeyed([1: 1, 3: 3]))
        let identity = try runtime.load(string: "return function(v) return v end")
        let model = Model(names: [3: "c", 100: "z"])
        #expect(try identity.call([try ScriptValue(encoding: model)])[0].decode(Model.self) == model)
    }
}
