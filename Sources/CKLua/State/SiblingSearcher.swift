import CKCore
import CLua
import CLuaShims
#if canImport(Glibc)
import Glibc
#endif

/// `require` of modules beside the script (SPEC §9): an extra searcher after Lua's own, for
/// `ckrun FILE`, `ckrun repl FILE`, `ckrun tree FILE` (the script's directory) and `ckrun test`
/// (each test file's directory, then the project root). `package.path` is not changed. The
/// engine's `searcher`.
public struct SiblingSearcher {
    // Strong: one lives for one call (`engine.searcher`), as `ClassBridge` does.
    let engine: Engine

    private static let searcherKey = "ckrun.searcher.loaded"

    /// Appends the searcher for `directories`, each with why it is searched, as its "no file"
    /// lines say it (`beside the script app.lua`). Empty strings, duplicates and "." — which
    /// package.path's `./?.lua` already covers — are skipped.
    public func install(directories: [(path: String, why: String)]) {
        var dirs: [String] = [], reasons: [String] = []
        for d in directories where !d.path.isEmpty && d.path != "." && !dirs.contains(d.path) {
            dirs.append(d.path)
            reasons.append(d.why)
        }
        guard !dirs.isEmpty else { return }
        let L = engine.lua.L
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        do {
            try engine.lua.load(LuaSource(bytes: PackageResources.searcher_lua), name: "=(searcher)")
            for list in [dirs, reasons] {   // as bytes: a directory named in bytes that are not UTF-8
                LuaStack(L).newTable(array: list.count, fields: 0)
                for (i, s) in list.enumerated() {
                    engine.lua.push(path: s)
                    LuaStack(L).set(i + 1, into: -2)
                }
            }
            LuaStack(L).registryField(PristineLibrary.registryKey)
            try engine.lua.call(arguments: 3, results: 1)
            LuaStack(L).setRegistryField(Self.searcherKey)
        } catch {
            ProcessOutput.err(ProgramName.prefixed("the module searcher failed to install: \(error)") + "\n")
        }
    }

    /// Forgets the modules the searcher loaded (`package.loaded`), so a reload loads them again.
    func forgetSiblingModules() {
        let L = engine.lua.L
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        // Raw throughout: a script's metatables on _G, package or package.loaded do not run here.
        let stack = LuaStack(L)
        guard stack.registryField(Self.searcherKey) == .table else { return }
        let list = lua_gettop(L)
        engine.lua.pushGlobal("package")
        guard stack.field("loaded", of: -1) == .table else { return }
        let loaded = lua_gettop(L)
        for i in stride(from: stack.listLength(list), through: 1, by: -1) {
            lua_rawgeti(L, list, lua_Integer(i))
            lua_pushnil(L)
            stack.set(into: loaded)
            lua_pushnil(L)
            lua_rawseti(L, list, lua_Integer(i))
        }
    }

    /// Forgets (`package.loaded[name] = nil`) every module whose file lies in `directory`'s tree,
    /// found as `require` finds it now: `package.path`'s templates (`./?.lua` included, whatever
    /// the working directory), then this searcher's list; returns the names, sorted. Modules
    /// `package.preload` serves, Lua's libraries and `ck` stay. Raw throughout; a script sizes
    /// the work (its modules times its path's templates), so it ticks the turn's limits.
    public func forgetModules(under directory: String) throws(LuaError) -> [String] {
        guard let root = Self.realPath(directory) else { return [] }
        let inTree = { (file: String) in Self.realPath(file).map { $0.hasPrefix(root == "/" ? "/" : root + "/") } ?? false }
        var names = Set(siblingModules())
        forgetSiblingModules()
        let L = engine.lua.L
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        let stack = LuaStack(L)
        engine.lua.pushGlobal("package")
        guard stack.isTable(-1) else { return names.sorted() }
        let package = lua_gettop(L)
        let templates = stack.field("path", of: package) == .string ? (engine.lua.string(at: -1) ?? "") : ""
        guard stack.field("loaded", of: package) == .table else { return names.sorted() }
        let loaded = lua_gettop(L)
        let preload = stack.field("preload", of: package) == .table ? lua_gettop(L) : 0
        for name in stringKeys(of: loaded) where !Self.builtinModules.contains(name) {
            if preload != 0 {
                let served = stack.field(name, of: preload) != .nil
                stack.pop()
                if served { continue }
            }
            if let file = try searchPath(name, templates), inTree(file) { names.insert(name) }
        }
        for name in names {
            stack.pushNil()
            stack.setField(name, of: loaded)
        }
        return names.sorted()
    }

    /// Those of `names` that `package.loaded` holds now (raw).
    public func loadedModules(among names: [String]) -> [String] {
        let L = engine.lua.L
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        let stack = LuaStack(L)
        engine.lua.pushGlobal("package")
        guard stack.isTable(-1), stack.field("loaded", of: -1) == .table else { return [] }
        let loaded = lua_gettop(L)
        return names.filter { name in
            defer { stack.pop() }
            return stack.field(name, of: loaded) != .nil
        }
    }

    private static let builtinModules: Set<String> = ["_G", "coroutine", "debug", "io", "math", "os", "package",
                                                      "string", "table", "utf8", "ck"]

    /// The string keys of the table at `t` (raw).
    private func stringKeys(of t: Int32) -> [String] {
        let L = engine.lua.L
        var keys: [String] = []
        lua_pushnil(L)
        while LuaStack(L).next(t) {
            ckmacros_pop(L, 1)
            if lua_type(L, -1) == LUA_TSTRING, let k = engine.lua.string(at: -1) { keys.append(k) }
        }
        return keys
    }

    /// The names the searcher beside the script loaded.
    private func siblingModules() -> [String] {
        let L = engine.lua.L
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        guard LuaStack(L).registryField(Self.searcherKey) == .table else { return [] }
        return (0..<LuaStack(L).listLength(-1)).compactMap { i in
            defer { LuaStack(L).pop() }
            return LuaStack(L).get(i + 1, from: base + 1) == .string ? engine.lua.string(at: -1) : nil
        }
    }

    /// `package.searchpath(name, templates)`: the first readable file.
    private func searchPath(_ name: String, _ templates: String) throws(LuaError) -> String? {
        let file = name.split(separator: ".", omittingEmptySubsequences: false).joined(separator: "/")
        for template in templates.split(separator: ";") {
            try engine.protect { try engine.runtime.limits.tick() }
            let path = template.split(separator: "?", omittingEmptySubsequences: false).joined(separator: file)
            if BytePath.access(path, R_OK) { return path }
        }
        return nil
    }

    static func realPath(_ path: String) -> String? { BytePath.realPath(path) }

    /// The directory part of a script path ("." for a bare file name).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
