import ArgumentParser

/// `ckrun`: a Lua 5.4 interpreter whose `ck` module runs component trees.
public struct CkrunCommand: ParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "ckrun",
        abstract: "Run ComponentKit-style component trees written in Lua.",
        discussion: """
        ckrun FILE [ARGS...] runs an app or a plain Lua script; ckrun -e CODE runs a chunk; \
        ckrun - reads a script from standard input. Exit status: 0 success, 1 a script error \
        or failing tests, 64 a usage error.
        """,
        version: "ckrun \(version) (Lua 5.4)",
        subcommands: [RunCommand.self, ReplCommand.self, TestCommand.self, TreeCommand.self, BenchCommand.self,
                      CatalogueCommand.self],
        defaultSubcommand: RunCommand.self
    )

    public init() {}
}
