import CKCore
import CKLua
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a test file's Lua state comes from: a fresh one per file (busted's default, each file
/// insulated), or, under `auto-insulate = false` / `--no-auto-insulate`, one state shared by the
/// files this process runs, as busted runs them all in one: a module loaded once stays loaded,
/// globals stay set. Each `--jobs` worker shares its own. A state whose runner stopped (an
/// error outside the tests' reach) is dropped and the next file gets a new one.
final class SpecStates {
    let settings: TestRunSettings
    let shared: Bool
    private var current: SpecSession?
    /// The state last handed to a file, unless files share one (nil once it is gone).
    private weak var handed: SpecSession?

    init(settings: TestRunSettings, shared: Bool? = nil) {
        self.settings = settings
        self.shared = shared ?? settings.sharedState
    }

    /// A configured state for the next file.
    func session(listOnly: Bool = false) throws(LuaError) -> SpecSession {
        if shared, let current { return current }
        let session = try SpecSession(settings: settings)
        try configure(session, listOnly: listOnly)
        if shared { current = session } else { handed = session }
        return session
    }

    /// Closes the state last handed to a file now (its finalizers run), unless files share it.
    func closeHanded() {
        handed?.engine.close()
        handed = nil
    }

    func discard(_ session: SpecSession) {
        if current === session { current = nil }
    }

    /// lua5.4's LUA_INIT_5_4, else LUA_INIT (busted is a script lua5.4 runs: it runs them first).
    static let luaInit: (name: String, value: String)? = {
        for name in ["LUA_INIT_5_4", "LUA_INIT"] { if let value = Environment.value(name) { return (name, value) } }
        return nil
    }()

    /// The run's settings, given once per state (the runner's table drops `set` when its first file starts).
    private func configure(_ session: SpecSession, listOnly: Bool) throws(LuaError) {
        for (key, values) in [("filters", settings.filters), ("filter_out", settings.excludes), ("tags", settings.tags),
                              ("exclude_tags", settings.excludeTags), ("helper_arguments", settings.helperArguments)] {
            for value in values { try session.call("set", key, value) }
        }
        if let timeout = settings.timeout { try session.call("set", "timeout", String(timeout)) }
        if let luaInit = Self.luaInit {
            try session.call("set", "lua_init_name", luaInit.name)
            try session.call("set", "lua_init", luaInit.value)
        }
        if let seed = settings.seed { try session.call("set", "run_seed", String(Int64(bitPattern: seed))) }
        let flags = [("fail_fast", settings.failFast), ("list", listOnly), ("sort", settings.sort),
                     ("update_snapshots", settings.updateSnapshots), ("coverage", settings.coverage),
                     ("randomize", settings.shuffleTests && settings.seed != nil),
                     ("shuffle_files", settings.shuffleFiles && settings.seed != nil), ("lazy", settings.lazy),
                     ("record_loads", settings.recordLoads), ("element_names", settings.elementNames)]
        for (key, on) in flags where on { try session.call("set", key, "true") }
        if let shard = settings.shard {
            try session.call("set", "shard_index", String(shard.index))
            try session.call("set", "shard_count", String(shard.count))
        }
        for (key, value) in [("lpath", settings.lpath), ("cpath", settings.cpath), ("helper", settings.helper)] {
            if let value { try session.call("set", key, value) }
        }
        if let config = settings.config {
            try session.call("set", "config_source", config.source)
            try session.call("set", "config_name", config.name)
        }
        for argument in settings.commandLine { try session.call("set", "command_line", argument) }
        // busted 2.1.1's --lang names its output handlers' language only: luassert's messages stay English.
        for statement in settings.statements { try session.call("set", "statements", statement) }
    }
}
