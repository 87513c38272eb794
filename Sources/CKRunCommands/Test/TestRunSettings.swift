import CKLua

/// What every test file's run needs to know, in the parent and in `--jobs` workers alike.
struct TestRunSettings: Sendable {
    var filters: [String] = []
    var excludes: [String] = []
    var tags: [String] = []
    var excludeTags: [String] = []
    var timeout: Double = 10
    var shard: Shard?
    /// Set when tests run shuffled.
    var seed: UInt64?
    var failFast = false
    var sandbox = false
    var memoryLimitMB: Int?
    var sort = false
    var updateSnapshots = false
    var coverage = false
    /// busted's --lpath, --cpath and --helper.
    var lpath: String?
    var cpath: String?
    var helper: String?
    /// busted's -Xhelper options: the helper's `arg`.
    var helperArguments: [String] = []
    /// busted's -e statements, run in each file's state first.
    var statements: [String] = []
    /// busted's --lang: luassert's messages in this language.
    var lang: String?
    /// busted's --lazy: setup and teardown are lazy_setup and lazy_teardown.
    var lazy = false
    /// Shuffled with `seed`: the order of the files, the tests within each block.
    var shuffleFiles = false
    var shuffleTests = false
    /// --watch: each file's result carries the files its run loaded (FileResult.loadedFiles).
    var recordLoads = false

    var memoryLimitBytes: Int { Engine.Configuration.bytes(megabytes: memoryLimitMB) }

    /// The command line that starts a `--jobs` worker with these settings (WorkerProtocol).
    func workerArguments() -> [String] {
        var arguments = ["test", "--worker", "--timeout", String(timeout)]
        for f in filters { arguments += ["--filter", f] }
        for e in excludes { arguments += ["--exclude", e] }
        if !tags.isEmpty { arguments += ["--tags", tags.joined(separator: ",")] }
        if !excludeTags.isEmpty { arguments += ["--exclude-tags", excludeTags.joined(separator: ",")] }
        if let shard { arguments += ["--shard", shard.description] }
        if let seed { arguments += ["--seed", String(seed)] }
        arguments.append(shuffleFiles ? "--shuffle-files" : "--no-shuffle-files")
        arguments.append(shuffleTests ? "--shuffle-tests" : "--no-shuffle-tests")
        if lazy { arguments.append("--lazy") }
        if let lang { arguments += ["--lang", lang] }
        for statement in statements { arguments += ["-e", statement] }
        for option in helperArguments { arguments += ["-Xhelper", option] }
        if failFast { arguments.append("--fail-fast") }
        if sandbox { arguments.append("--sandbox") }
        if let memoryLimitMB { arguments += ["--memory-limit", String(memoryLimitMB)] }
        if sort { arguments.append("--sort-tests") }
        if updateSnapshots { arguments.append("--update-snapshots") }
        if coverage { arguments.append("--coverage") }
        if let lpath { arguments += ["--lpath", lpath] }
        if let cpath { arguments += ["--cpath", cpath] }
        if let helper { arguments += ["--helper", helper] }
        if recordLoads { arguments.append("--watch") }
        return arguments
    }
}
