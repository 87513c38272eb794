import CKLua

/// The Lua the command line runs itself, kept in `.lua` files beside the Swift that runs them
/// and embedded at build time (`Package.swift` lists them; `scripts/check-layout` compiles each).
/// Handed to Lua as the bytes they are (`LuaSource`).
enum EmbeddedLua {
    static var repl: LuaSource { LuaSource(bytes: PackageResources.repl_lua) }
    static var bench: LuaSource { LuaSource(bytes: PackageResources.bench_lua) }
    static var benchKeyed: LuaSource { LuaSource(bytes: PackageResources.keyed_lua) }
    static var benchRoact: LuaSource { LuaSource(bytes: PackageResources.roact_lua) }
    /// The test runner's preludes, in the order each test file's fresh state runs them.
    static var specPreludes: [(name: String, source: LuaSource)] {
        [("luassert", LuaSource(bytes: PackageResources.luassert_lua)), ("output", LuaSource(bytes: PackageResources.output_lua)), ("format", LuaSource(bytes: PackageResources.format_lua)),
         ("run", LuaSource(bytes: PackageResources.run_lua)), ("events", LuaSource(bytes: PackageResources.events_lua)),
         ("order", LuaSource(bytes: PackageResources.order_lua)), ("language", LuaSource(bytes: PackageResources.language_lua)),
         ("file", LuaSource(bytes: PackageResources.file_lua)), ("coverage", LuaSource(bytes: PackageResources.coverage_lua)),
         ("loads", LuaSource(bytes: PackageResources.loads_lua)),
         ("assert", LuaSource(bytes: PackageResources.assert_lua))]
    }

    /// Reads busted's `.busted` configuration file.
    static var bustedConfig: LuaSource { LuaSource(bytes: PackageResources.config_lua) }
}
