import CKLua

/// What every test file's run needs to know, in the parent and in `--jobs` workers alike.
struct TestRunSettings: Sendable {
    var filters: [String] = []
    var excludes: [String] = []
    var tags: [String] = []
    var excludeTags: [String] = []
    /// Each piece of a test's code stops after this long (nil: no limit, as in busted).
    var timeout: Double?
    var shard: Shard?
    /// busted's `busted.randomseed`: `--seed` (as an Int64's bits), or drawn when the run shuffles.
    /// It seeds the file shuffle and every block's (`--shuffle-tests`, `randomize()`), as busted's.
    var seed: UInt64?
    var isShuffled: Bool { shuffleFiles || shuffleTests }
    /// The seed a shuffled run prints, to be given back to `--seed`.
    var shuffleSeed: UInt64? { isShuffled ? seed : nil }
    /// The run's base for each file's `math.random` seed when `seed` is not set: drawn once per
    /// run, so files and `--jobs` workers draw different numbers.
    var stateSeed: UInt64 = 0
    /// busted's auto-insulate = false: the files a process runs share one Lua state.
    var sharedState = false
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
    /// The `.busted` file the run read (`path`, absolute): its `source`, run in each file's state
    /// as chunk `name` before the paths, `-e` statements and the helper, as busted ran it before
    /// them in the state its specs share.
    var config: (path: String, source: String, name: String)?
    /// busted's `arg`, which `.busted` and every spec file see: the runner's command line, the
    /// program (`arg[0]`, and `arg[-1]`: ckrun is its own interpreter) then the arguments after
    /// `test`. Never a spec's path: a module's "am I the main script?" check on `arg[0]` must
    /// stay false when a spec requires it.
    var commandLine: [String] = []
    /// busted's -e statements, run in each file's state first.
    var statements: [String] = []
    /// busted's --lang: luassert's messages in this language.
    var lang: String?
    /// busted's --lazy: setup and teardown are lazy_setup and lazy_teardown.
    var lazy = false
    /// Shuffled with `seed`: the order of the files, the tests within each block.
    var shuffleFiles = false
    var shuffleTests = false
    /// busted's --sort-files (and --sort): the whole list sorted by path, before any shuffle.
    var sortFiles = false
    /// --watch: each file's result carries the files its run loaded (FileResult.loadedFiles).
    var recordLoads = false
    /// --output json: each result names its element by its own name and descriptor, as
    /// busted's JSON does (the other reports need only the full name).
    var elementNames = false
    /// ckrun's own specs of the runner (hidden `--runner-internals`): the runner's table as the
    /// global `(ckrun test)`. Never otherwise: no test can reach the runner's bookkeeping.
    var exposeRunner = false

    var memoryLimitBytes: Int { Engine.Configuration.bytes(megabytes: memoryLimitMB) }

    /// The command line that starts a `--jobs` worker with these settings (WorkerProtocol).
    /// Values are attached (`--filter=-x`): a value that starts with `-` would read as an option.
    func workerArguments() -> [String] {
        var arguments = ["test", "--worker", "--state-seed=\(stateSeed)"]
        func add(_ option: String, _ values: [String]) { arguments += values.map { "\(option)=\($0)" } }
        add("--timeout", timeout.map { [String($0)] } ?? [])
        if sharedState { arguments.append("--no-auto-insulate") }
        add("--filter", filters)
        add("--exclude", excludes)
        if !tags.isEmpty { add("--tags", [tags.joined(separator: ",")]) }
        if !excludeTags.isEmpty { add("--exclude-tags", [excludeTags.joined(separator: ",")]) }
        add("--shard", shard.map { [$0.description] } ?? [])
        add("--seed", seed.map { [String(Int64(bitPattern: $0))] } ?? [])
        arguments.append(shuffleFiles ? "--shuffle-files" : "--no-shuffle-files")
        arguments.append(shuffleTests ? "--shuffle-tests" : "--no-shuffle-tests")
        if lazy { arguments.append("--lazy") }
        add("--lang", lang.map { [$0] } ?? [])
        add("--statement", statements)
        add("-Xhelper", helperArguments)
        if failFast { arguments.append("--fail-fast") }
        if sandbox { arguments.append("--sandbox") }
        add("--memory-limit", memoryLimitMB.map { [String($0)] } ?? [])
        if sort { arguments.append("--sort-tests") }
        if elementNames { arguments.append("--output=json") }
        if updateSnapshots { arguments.append("--update-snapshots") }
        if coverage { arguments.append("--coverage") }
        add("--lpath", lpath.map { [$0] } ?? [])
        add("--cpath", cpath.map { [$0] } ?? [])
        add("--helper", helper.map { [$0] } ?? [])
        if let config {
            add("--replay-config", [config.path])
            add("--replay-config-name", [config.name])
        }
        add("--runner-arg", commandLine)
        if recordLoads { arguments.append("--watch") }
        if exposeRunner { arguments.append("--runner-internals") }
        return arguments
    }
}
