import ArgumentParser

/// Options every command that runs Lua accepts.
struct RuntimeOptions: ParsableArguments {
    @Flag(help: "No os.execute, io.popen, package.loadlib, C modules or file writes.")
    var sandbox = false

    @Option(help: ArgumentHelp("Stop a chunk that runs longer than this with [timeout].", valueName: "seconds"))
    var timeout: Double?

    @Option(name: .customLong("memory-limit"),
            help: ArgumentHelp("Stop a script that allocates more than this many megabytes (a whole number) with [memoryLimit].", valueName: "MB"))
    var memoryLimit: Int?

    func validate() throws {
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout takes a number of seconds greater than 0 (got \(timeout))") }
        if let memoryLimit, memoryLimit <= 0 { throw ValidationError("--memory-limit takes a whole number of megabytes, 1 or more (got \(memoryLimit))") }
    }
}
