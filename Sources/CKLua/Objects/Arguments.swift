import CKCore
import CLua
import CLuaShims

/// Reads a Swift function's arguments; every check throws a `[badArgument]` naming the
/// function, the argument, the expected and the actual type.
struct Arguments {
    let L: OpaquePointer
    unowned(unsafe) let engine: Engine

    /// Runs `body` with the engine borrowed: each read of the unowned(unsafe) field is a strong
    /// copy (a retain and a release, the release measured on the slow path), so a hot binding
    /// that uses it several times borrows it once.
    @inline(__always)
    func withEngine<T>(_ body: (Engine) throws -> T) rethrows -> T {
        try Unmanaged.passUnretained(engine)._withUnsafeGuaranteedRef(body)
    }
    let function: String

    var count: Int32 { lua_gettop(L) }

    func typeName(_ i: Int32) -> String {
        if let o = engine.objects.object(at: i, L) { return o.typeName }
        return String(cString: lua_typename(L, lua_type(L, i)))
    }

    /// `position`: the argument whose part the value at `i` is (a field of an options table,
    /// read onto the stack's top), when `i` is not the argument itself.
    /// `detail` follows "got table" (why the table is not callable).
    func bad(_ i: Int32, _ name: String, _ expected: @autoclosure () -> String, position: Int32? = nil, detail: String = "") -> RuntimeError {
        if let dead = engine.objects.finalizedHandle(at: i, L) { return Self.finalized(dead, subject(position ?? i, name)) }
        return RuntimeError(.badArgument, "\(subject(position ?? i, name)) must be \(expected()), got \(given(i))\(detail)")
    }

    /// A handle Lua's collector already finalized, which a `__gc` finalizer stored (resurrected):
    /// ckrun let go of its object then (attack atk-mem 04: `must be a component, got userdata`).
    static func finalized(_ what: String, _ subject: String) -> RuntimeError {
        let fields = what.contains("Component") ? " (c.props, c.state, c.path)" : ""
        return RuntimeError(.deadObject, "\(subject): it is \(what) whose handle Lua's collector already finalized, and ckrun let go of the object then: a __gc finalizer kept it after the collection that let it go, or reads it after its handle's own finalizer ran (Lua runs a collection's finalizers newest first: give your table its __gc once it holds the handle, setmetatable({row = r}, mt)). Read what you need from it inside the finalizer\(fields), or keep it in a variable or a table without __gc")
    }

    /// An assignment (`ck.config.maxDepth = -1`): a value is named `function.name`, not as a
    /// call's argument (there is no `argument #3` in the script's line).
    var isAssignment = false

    /// What a message says is wrong: `host:dump: argument #1 (options.depth)`, or for an
    /// assignment `ck.config.maxDepth`.
    func subject(_ i: Int32, _ name: String) -> String {
        isAssignment ? "\(function).\(name)" : "\(function): \(argument(i, name))"
    }


    /// Argument `i` numbered as the function's name is written: a method (`host:tap`) counts
    /// as Lua's errors do for `host:tap(5)`, without `self` (its first argument after `self` is
    /// #1), whether it was called so or as `host.tap(host, 5)`; `self` itself is `self`.
    func argument(_ i: Int32, _ name: String) -> String {
        guard function.contains(":") else { return "argument #\(i) (\(name))" }
        if i > 1 { return "argument #\(i - 1) (\(name))" }
        return name == "self" ? "self" : "self (\(name))"
    }

    /// What argument `i` is, for an error: its type, and a string's or number's value too (a
    /// misspelt option, `"SYNC"`, is told by its value, not by being a string).
    private func given(_ i: Int32) -> String {
        switch lua_type(L, i) {
        case LUA_TSTRING: "string \(engine.lua.quoted(at: i, on: L))"
        case LUA_TNUMBER: "number \(numberText(i))"
        default: typeName(i)
        }
    }

    func isNil(_ i: Int32) -> Bool { lua_type(L, i) <= LUA_TNIL }
    /// nil or false: "none" where a value may be absent (`enabled and ck.action("save")`).
    func isNone(_ i: Int32) -> Bool { lua_type(L, i) <= LUA_TNIL || (lua_type(L, i) == LUA_TBOOLEAN && lua_toboolean(L, i) == 0) }

    func string(_ i: Int32, _ name: String) throws -> String {
        guard lua_type(L, i) == LUA_TSTRING else { throw bad(i, name, "a string") }
        guard let s = engine.lua.name(at: i, on: L) else { throw notAName(i, name) }
        return s
    }

    /// Strings `ck` takes (names, selectors, queries) are UTF-8 without NUL bytes.
    func notAName(_ i: Int32, _ name: String) -> RuntimeError {
        RuntimeError(.badArgument, "\(subject(i, name)) must be UTF-8 text without NUL bytes, got \(engine.lua.quoted(at: i, on: L))")
    }

    /// A key of a definition table (a method or field name): a string key must be a name.
    func key(at i: Int32, in what: String) throws -> String? {
        guard lua_type(L, i) == LUA_TSTRING else { return nil }
        guard let key = engine.lua.name(at: i, on: L) else {
            throw RuntimeError(.badArgument, "\(what): key \(engine.lua.quoted(at: i, on: L)) must be UTF-8 text without NUL bytes")
        }
        return key
    }

    func optionalString(_ i: Int32, _ name: String) throws -> String? {
        isNil(i) ? nil : try string(i, name)
    }

    /// A string argument that is data, not a name: every byte kept, carried in a Swift string
    /// (`ByteText`: a byte that is not UTF-8 is one private-use scalar; `Values.pushCarried`
    /// pushes the same bytes back). A text field's text is such.
    func carriedString(_ i: Int32, _ name: String) throws -> String {
        var length = 0
        guard lua_type(L, i) == LUA_TSTRING, let chars = ckmacros_tostring(L, i, &length) else { throw bad(i, name, "a string") }
        return ByteText.text(UnsafeRawBufferPointer(start: chars, count: length))
    }

    /// Whether argument `i` is the string `literal` (its bytes compared in C: no `String` made,
    /// ~300 instructions on the update path for `"sync"`).
    func isString(_ i: Int32, _ literal: StaticString) -> Bool {
        ckmacros_string_equals(L, i, literal.utf8Start, literal.utf8CodeUnitCount) != 0
    }

    func number(_ i: Int32, _ name: String) throws -> Double {
        guard lua_type(L, i) == LUA_TNUMBER else { throw bad(i, name, "a number") }
        return lua_tonumberx(L, i, nil)
    }

    /// A duration: any number but NaN (negative ones count as 0, infinite ones as never).
    func seconds(_ i: Int32, _ name: String) throws -> Double {
        let d = try number(i, name)
        guard !d.isNaN else { throw RuntimeError(.badArgument, "\(subject(i, name)) must be a number of seconds, got nan") }
        return d
    }

    /// A number with an integral value that fits an `Int` (1e300, NaN, inf and 1.5 are refused).
    func integer(_ i: Int32, _ name: String, position: Int32? = nil) throws -> Int {
        guard lua_type(L, i) == LUA_TNUMBER else { throw bad(i, name, "an integer", position: position) }
        if lua_isinteger(L, i) != 0, let n = Int(exactly: lua_tointegerx(L, i, nil)) { return n }
        let d = lua_tonumberx(L, i, nil)
        guard let n = Int(exactly: d) else {
            // An integral float out of range says so (1e300 is an integer's value, too large).
            let got = d.isFinite && d.rounded() == d ? NumberText.notInteger(d) : numberText(i)
            throw RuntimeError(.badArgument, "\(subject(position ?? i, name)) must be an integer, got \(got)")
        }
        return n
    }

    /// A number as a message shows it: Lua's text, NaN as `nan` (`LuaState.shown`).
    private func numberText(_ i: Int32) -> String { engine.lua.shown(at: i, on: L) }

    /// `options.name` of the table at `i` (raw), an integer of at least 1, or nil when absent.
    func positiveField(_ i: Int32, _ name: String, of options: String) throws -> Int? {
        LuaStack(L).field(name, of: i)
        defer { LuaStack(L).pop(1) }
        if isNil(-1) { return nil }
        let n = try integer(-1, "\(options).\(name)", position: i)
        guard n >= 1 else { throw RuntimeError(.badArgument, "\(function): \(options).\(name) must be at least 1, got \(n)") }
        return n
    }

    /// A table argument; a read-only props or state view stands for its table (put in its place).
    func table(_ i: Int32, _ name: String) throws {
        guard isTable(i) else { throw bad(i, name, "a table") }
    }

    /// Whether the argument at `i` is a table, after a read-only view there was replaced by its table.
    func isTable(_ i: Int32) -> Bool {
        if lua_type(L, i) == LUA_TUSERDATA { _ = engine.values.unwrapReadOnlyView(at: i, L) }
        return lua_type(L, i) == LUA_TTABLE
    }

    /// A callback: anything `pcall` calls (`LuaStack.isCallable`): a function, or a table or
    /// userdata whose metatable has `__call` (luassert's spies and stubs). No argument takes a
    /// function alone: a callable table stands for one everywhere, as in Lua's own APIs.
    func callable(_ i: Int32, _ name: String) throws -> LuaRef {
        if let why = LuaStack(L).whyNotCallable(i) { throw bad(i, name, "a function (or a table with __call)", detail: why) }
        return engine.values.callableReference(at: i, L)
    }

    func object<T: RuntimeObject>(_ i: Int32, _ name: String, _ expected: @autoclosure () -> String) throws -> T {
        guard let o = engine.objects.object(at: i, L) as? T else { throw bad(i, name, expected()) }
        return o
    }

    func optionalObject<T: RuntimeObject>(_ i: Int32, _ name: String, _ expected: @autoclosure () -> String) throws -> T? {
        isNil(i) ? nil : try object(i, name, expected()) as T
    }

    /// An action, or none: nil or false, as an action prop takes (`ck.onTap(enabled and a)`).
    func optionalAction(_ i: Int32, _ name: String) throws -> Action? {
        isNone(i) ? nil : try object(i, name, "an action, or nil or false for none") as Action
    }

    func value(_ i: Int32) -> Value { engine.values.value(at: i, L) }

    /// A responder argument: a component, controller, view, or a plain (host responder) table.
    func responder(_ i: Int32, _ name: String) throws -> Responder {
        if let o = engine.objects.object(at: i, L), let r = Responder.from(o) { return r }
        if lua_type(L, i) == LUA_TTABLE { return .script(engine.hosts.scriptResponder(at: i, L)) }
        throw bad(i, name, "a component, controller, view or responder table")
    }

    func optionalResponder(_ i: Int32, _ name: String) throws -> Responder? {
        isNil(i) ? nil : try responder(i, name)
    }

    /// `types`: nil, a type name, or an array of type names.
    /// `position`: the argument the list at `i` is a field of (`def.actions.on`, read onto the top).
    func types(_ i: Int32, _ name: String = "types", position: Int32? = nil) throws -> [TypeSpec] {
        if isNil(i) { return [] }
        if lua_type(L, i) == LUA_TSTRING { return [try Self.resolveType(try string(i, name), engine.runtime)] }
        guard isTable(i) else { throw bad(i, name, "an array of type names", position: position) }
        var out: [TypeSpec] = []
        try engine.values.forEachItem(ofList: i, L) { k in
            guard let s = engine.lua.name(at: -1, on: L) else {
                let got = lua_type(L, -1) == LUA_TSTRING ? engine.lua.quoted(at: -1, on: L) + " (not UTF-8 text without NUL bytes)"
                    : String(cString: lua_typename(L, lua_type(L, -1)))
                let item = position.map { subject($0, "\(name)[\(k)]") } ?? "\(function): \(name)[\(k)]"
                throw RuntimeError(.badArgument, "\(item) must be a type name string, got \(got)")
            }
            out.append(try Self.resolveType(s, engine.runtime))
        }
        return out
    }

    /// The type a script names (`"int"`, a `ck.struct` name, a class defined before this point).
    static func resolveType(_ name: String, _ runtime: Runtime) throws -> TypeSpec {
        guard let t = runtime.types.resolve(name, isClass: runtime.isClassName) else {
            let known = Array(TypeSystem.builtinNames.keys) + Array(runtime.types.structs.keys)
                + Array(runtime.componentClasses.keys) + Array(runtime.controllerClasses.keys)
            let near = NearName.nearest(name, in: known).map { "did you mean \"\(Excerpt.text($0))\"? Else " } ?? ""
            throw RuntimeError(.unknownType, "unknown type \"\(Excerpt.text(name))\"; \(near)use any, bool, int, number, string, table, function, a ck.struct name, or a class defined before this point")
        }
        return t
    }
}
