import CLua
import CLuaShims

/// The field names a bound type's `__index` was asked for, each decoded to a `String` once: a
/// field read (`scope.component`, on the update path) otherwise decodes its key every time (~400
/// of its ~1,000 instructions). The names are keys of a Lua table giving their index here (Lua
/// interns short strings: one raw get). At most `limit` names of at most `longest` bytes, so that
/// each is a small `String` (no allocation) and the whole stays a few hundred bytes a type
/// whatever a script reads; any other key is decoded each time, as before.
final class FieldNames {
    private var names: [String] = [""]
    /// Registry key of the table of names (name → index in `names`).
    private let table: Int32
    static let limit = 48
    static let longest = 15

    init(_ L: OpaquePointer, refs: RefStore) {
        lua_createtable(L, 0, 0)
        table = refs.pin(L)
    }

    /// The field name at `index` (absolute), as `LuaState.name(at:on:)` decodes it.
    @inline(__always)
    func name(at index: Int32, _ L: OpaquePointer, decoding lua: LuaState) -> String? {
        let id = ckindex_name_id(L, index, table)
        if id > 0 { return names[Int(id)] }
        return id == 0 ? decodeAndKeep(at: index, L, lua) : nil
    }

    private func decodeAndKeep(at index: Int32, _ L: OpaquePointer, _ lua: LuaState) -> String? {
        guard let name = lua.name(at: index, on: L) else { return nil }
        if names.count <= Self.limit, name.utf8.count <= Self.longest {
            ckindex_add_name(L, index, table, lua_Integer(names.count))
            names.append(name)
        }
        return name
    }
}
