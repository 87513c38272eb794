import CKCore
import CLua
import CLuaShims

/// `require` of modules beside the script (SPEC §9): an extra searcher after Lua's own, for
/// `ckrun FILE`, `ckrun repl FILE`, `ckrun tree FILE` (the script's directory) and `ckrun test`
/// (each test file's directory, then the project root). `package.path` is not changed.
extension Engine {
    private static let searcherKey = "ckrun.searcher.loaded"

    /// Appends the searcher for `directories` (empty strings, duplicates and "." — which
    /// package.path's `./?.lua` already covers — are skipped).
    public func installSiblingSearcher(directories: [String]) {
        var dirs: [String] = []
        for d in directories where !d.isEmpty && d != "." && !dirs.contains(d) { dirs.append(d) }
        guard !dirs.isEmpty else { return }
        let L = lua.L
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        do {
            try lua.load(LuaSource(bytes: PackageResources.searcher_lua), name: "=(searcher)")
            pushStrings(dirs, L)
            try lua.call(arguments: 1, results: 1)
            LuaStack(L).setRegistryField(Self.searcherKey)
        } catch {
            FileStream.standardError.write("ckrun: the module searcher failed to install: \(error)\n")
        }
    }

    /// Forgets the modules the searcher loaded (`package.loaded`), so a reload loads them again.
    public func forgetSiblingModules() {
        let L = lua.L
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        // Raw throughout: a script's metatables on _G, package or package.loaded do not run here.
        let stack = LuaStack(L)
        guard stack.registryField(Self.searcherKey) == .table else { return }
        let list = lua_gettop(L)
        lua.pushGlobal("package")
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

    /// The directory part of a script path ("." for a bare file name).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
