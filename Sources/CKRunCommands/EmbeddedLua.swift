/// The Lua the command line runs itself, kept in `.lua` files beside the Swift that runs them
/// and embedded at build time (`Package.swift` lists them; `scripts/check-layout` compiles each).
enum EmbeddedLua {
    static var repl: String { text(PackageResources.repl_lua) }
    static var bench: String { text(PackageResources.bench_lua) }
    /// The test runner's preludes, in the order each test file's fresh state runs them.
    static var specPreludes: [(name: String, source: String)] {
        [("output", text(PackageResources.output_lua)), ("format", text(PackageResources.format_lua)),
         ("spec", text(PackageResources.spec_lua)), ("loads", text(PackageResources.loads_lua)),
         ("assert", text(PackageResources.assert_lua))]
    }

    /// Reads busted's `.busted` configuration file.
    static var bustedConfig: String { text(PackageResources.config_lua) }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
