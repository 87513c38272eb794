import ArgumentParser

/// busted 2.1.1's options that `ckrun test` takes besides its own (busted/modules/cli.lua), so a
/// project's `busted …` command line and CI scripts run unchanged. Those that mean nothing here
/// (another interpreter, sound, LuaJIT loaders) are accepted and do nothing; docs/testing.md lists them.
struct BustedOptions: ParsableArguments {
    @Option(name: .customShort("e"), help: ArgumentHelp("Run this Lua statement in each test file's state before the file (repeatable).", valueName: "statement"))
    var shortStatements: [String] = []

    // How a spawned worker is given the statements: attached (`--statement=-- a comment`), which
    // `-e` cannot take.
    @Option(name: .customLong("statement"), help: .hidden) var longStatements: [String] = []

    var statements: [String] {
        get { shortStatements + longStatements }
        set { shortStatements = newValue; longStatements = [] }
    }

    @Option(name: [.customShort("C"), .customLong("directory")], help: ArgumentHelp(
        "Change to this directory first (repeatable: each is relative to the one before).", valueName: "dir"))
    var directories: [String] = []

    @Option(name: [.customShort("f"), .customLong("config-file")], help: ArgumentHelp("Read options from this file instead of .busted.", valueName: "file"))
    var configFile: String?

    @Option(help: ArgumentHelp("busted's language of its own report labels: accepted; luassert's messages stay English, as in busted 2.1.1.", valueName: "lang"))
    var lang: String?

    @Option(name: .customLong("Xhelper", withSingleDash: true), help: ArgumentHelp(
        "Pass this option to the --helper script in `arg` (commas split it; repeatable).", valueName: "option"))
    var helperOptions: [String] = []

    @Flag(name: [.customShort("v"), .long], inversion: .prefixedNo, help: "Also print what passing tests printed.")
    var verbose: Bool?

    @Flag(inversion: .prefixedNo, help: "setup and teardown mean lazy_setup and lazy_teardown.")
    var lazy: Bool?

    @Flag(name: [.customShort("k"), .customLong("keep-going")], inversion: .prefixedNo, help: "Go on after a failure (the default; --no-keep-going is --fail-fast).")
    var keepGoing: Bool?

    @Flag(name: [.customShort("R"), .long], inversion: .prefixedNo, help: "Search directories recursively (the default).")
    var recursive: Bool?

    @Flag(name: .customLong("shuffle-files"), inversion: .prefixedNo, help: "Run files in random order.")
    var shuffleFiles: Bool?

    @Flag(name: .customLong("shuffle-tests"), inversion: .prefixedNo, help: "Run tests within each block in random order.")
    var shuffleTests: Bool?

    @Flag(name: .customLong("sort-files"), inversion: .prefixedNo, help: "Run files sorted by name (the default).")
    var sortFiles: Bool?

    @Flag(name: .customLong("sort-tests"), inversion: .prefixedNo, help: "Run tests within each block sorted by name.")
    var sortTests: Bool?

    @Flag(name: .customLong("suppress-pending"), inversion: .prefixedNo, help: "Leave pending tests out of the report and its counts, as busted does.")
    var suppressPending: Bool?

    @Flag(name: .customLong("auto-insulate"), inversion: .prefixedNo, help: ArgumentHelp(
        "Run each test file in a fresh Lua state (the default); --no-auto-insulate: the files a process runs share one, as busted's do."))
    var autoInsulate: Bool?

    // Accepted for busted's command lines; nothing to do here.
    @Option(name: .customLong("coverage-config-file"), help: .hidden) var coverageConfigFile: String?
    @Option(help: .hidden) var loaders: [String] = []
    @Option(help: .hidden) var lua: String?
    @Option(name: .customLong("Xoutput", withSingleDash: true), help: .hidden) var outputOptions: [String] = []
    @Flag(name: .customLong("ignore-lua"), help: .hidden) var ignoreLua = false
    @Flag(name: [.customShort("s"), .customLong("enable-sound")], inversion: .prefixedNo, help: .hidden) var sound: Bool?
    @Flag(name: .customLong("defer-print"), inversion: .prefixedNo, help: .hidden) var deferPrint: Bool?

    /// `-Xhelper a,b -Xhelper c` → ["a", "b", "c"], as busted splits them.
    var helperArguments: [String] { helperOptions.flatMap { $0.split(separator: ",").map(String.init) } }
}
