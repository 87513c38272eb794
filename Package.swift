// swift-tools-version:6.0
import PackageDescription

// The runtime is single-threaded by contract (sends from other threads are refused), so the
// dynamic exclusivity checks on its hot paths buy nothing (measured at ~8% of a send), and
// its reference counts need no atomic instructions (about 50 retains and 60 releases per
// component built; 6% of a build's instructions, more of its cycles). Generic metadata is reached
// through direct accessors, not by mangled name: the runtime's name lookups checked each
// generic requirement by scanning every conformance record of the binary (start-up 5.67M →
// 4.88M instructions; hot paths unchanged). Release builds only.
let fast: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked", "-Xfrontend", "-assume-single-threaded", "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
                                         .when(configuration: .release))]

let package = Package(
    name: "ckrun",
    // Built and tested on Linux; on macOS the library's confinement needs `Synchronization.Atomic`.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ckrun", targets: ["ckrun"]),
        // ckrun's runtime as a Swift library: embed Lua-scripted components in a Swift program.
        .library(name: "CKRuntime", targets: ["CKRuntime"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", .upToNextMinor(from: "1.8.0")),
        // `swift package generate-documentation --target CKRuntime` (scripts/test); a plugin only.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        // Debian's liblua5.4-dev, found through pkg-config. Never vendored.
        .systemLibrary(name: "CLua", pkgConfig: "lua5.4", providers: [.apt(["liblua5.4-dev"])]),
        // Debian's libedit (BSD line editing) for the REPL, loaded with dlopen when the REPL
        // first reads a terminal: linked, it and its three libraries cost every start-up ~445
        // symbol lookups. Its header comes from libedit-dev (scripts/setup).
        // The executable exports the one symbol libedit must find there: its el_line, which keeps
        // libedit's rl_line_buffer on live memory (ckedit.c; a long line corrupted the heap).
        .target(name: "CEditLine", linkerSettings: [.linkedLibrary("dl"),
                                                    .unsafeFlags(["-Xlinker", "--export-dynamic-symbol=el_line"], .when(platforms: [.linux]))]),
        // Debian's ncursesw (the wide-character build) for `--tui`, loaded with dlopen when the
        // live view starts, as libedit is. Its header comes from libncurses-dev (scripts/setup);
        // the defines are `pkg-config --cflags ncursesw`'s, which select the wide functions.
        .target(name: "CCurses",
                cSettings: [.define("_DEFAULT_SOURCE"), .define("_XOPEN_SOURCE", to: "600")],
                linkerSettings: [.linkedLibrary("dl")]),
        // Macro shims, the traceback handler, the host-callback trampoline and pcall-wrapped helpers.
        // Calls into liblua go through the GOT directly rather than a PLT stub: the send path is
        // mostly Lua API calls.
        .target(name: "CLuaShims", dependencies: ["CLua"],
                cSettings: [.unsafeFlags(["-fno-plt"], .when(configuration: .release))]),
        // The pure Swift core: no Lua.
        .target(name: "CKCore", swiftSettings: fast),
        // The `ck` module: a thin Lua face over CKCore.
        .target(name: "CKLua", dependencies: ["CKCore", "CLua", "CLuaShims"],
                resources: [.embedInCode("State/sandbox.lua"), .embedInCode("State/searcher.lua")], swiftSettings: fast),
        // The library product's public API over the engine (docs/embedding.md): one runtime per
        // thread or actor; Swift 6 language mode, strict concurrency.
        .target(name: "CKRuntime", dependencies: ["CKCore", "CKLua"],
                resources: [.embedInCode("Glue.lua")]),
        // The commands behind the executable: run, repl, test, tree.
        .target(
            name: "CKRunCommands",
            dependencies: [
                "CKCore", "CKLua", "CKRuntime", "CEditLine", "CCurses",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // libedit's C globals (rl_completion_entry_function, stdout) are not importable as
            // concurrency-safe in Swift 6 mode; this target runs on the main thread only.
            // The Lua it runs itself, embedded at build time.
            resources: ["Repl/repl.lua", "Bench/bench.lua", "Bench/keyed.lua", "Bench/roact.lua", "Test/Prelude/output.lua", "Test/Prelude/format.lua",
                        "Test/Prelude/run.lua", "Test/Prelude/events.lua", "Test/Prelude/order.lua",
                        "Test/Prelude/language.lua", "Test/Prelude/file.lua", "Test/Prelude/coverage.lua", "Test/Prelude/loads.lua", "Test/Prelude/assert.lua",
                        "Test/Prelude/luassert.lua", "Test/Prelude/config.lua"].map { .embedInCode($0) },
            swiftSettings: [.swiftLanguageMode(.v5),
                            .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release))]
        ),
        // Linked by lld: gold prints glibc's "the use of `mktemp' is dangerous" for the static
        // Foundation of release builds (its temporary-file code, which ckrun never calls).
        // The command line as glibc hands it to initialisers, for the Swift runtime's `CommandLine`
        // (its own initialiser scans /proc/self/maps with sscanf: 0.13M instructions a start).
        .target(name: "CStartup"),
        .executableTarget(name: "ckrun", dependencies: ["CKRunCommands", "CStartup"], exclude: ["StaticLink"],
                          linkerSettings: [.unsafeFlags(["-use-ld=lld"], .when(platforms: [.linux])),
                                           // libstdc++ linked statically (the Swift runtime and the static
                                           // Foundation need it; the driver's `-lstdc++` would find the
                                           // shared one): StaticLink/libstdc++.so is a linker script naming
                                           // libstdc++.a, found first on this path. Start-up 5.20M → 3.35M
                                           // instructions (the loader bound ~1,700 of its symbols).
                                           .unsafeFlags(["-L", Context.packageDirectory + "/Sources/ckrun/StaticLink"],
                                                        .when(platforms: [.linux], configuration: .release)),
                                           // The driver's static-stdlib flags export every symbol of the
                                           // executable's own objects; nothing loads them from it (C modules
                                           // bind to liblua, libedit and ncursesw are opened RTLD_LOCAL), and
                                           // the 3,500 entries slowed the loader's lookups and the Swift
                                           // runtime's start-up `dladdr` (2.56M → 2.47M instructions).
                                           .unsafeFlags(["-Xlinker", "--no-export-dynamic"],
                                                        .when(platforms: [.linux], configuration: .release)),
                                           // libgcc's unwinder linked in too (libstdc++.a needs it): one shared
                                           // library fewer to map, relocate and search (2.085M → 2.059M).
                                           .unsafeFlags(["-Xclang-linker", "-static-libgcc"],
                                                        .when(platforms: [.linux], configuration: .release)),
                                           // 75,000 relative relocations packed (DT_RELR, glibc 2.36):
                                           // start-up 6.01M → 5.67M instructions.
                                           .unsafeFlags(["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                                                        .when(platforms: [.linux], configuration: .release))]),
        .target(name: "CKTestHelpers", dependencies: ["CKCore"], path: "Tests/CKTestHelpers"),
        .testTarget(name: "CKCoreTests", dependencies: ["CKCore", "CKTestHelpers"]),
        .testTarget(name: "CKLuaTests", dependencies: ["CKLua", "CKCore", "CKTestHelpers"]),
        .testTarget(name: "EndToEndTests", dependencies: ["CKTestHelpers"]),
        // The library's public API only: no @testable, no CKLua or CKCore.
        .testTarget(name: "CKRuntimeTests", dependencies: ["CKRuntime"]),
        // The command line's pure parts (the live view's layout, focus, painting), without a terminal.
        .testTarget(name: "CKRunCommandsTests", dependencies: ["CKRunCommands", "CKCore"]),
    ]
)
