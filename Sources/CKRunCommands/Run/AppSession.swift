import CKCore
import CKLua
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The app runner's side of an interactive run: what it says on start, `.reload` (and
/// `--watch`, which reloads when the app's files change).
final class AppSession {
    let engine: Engine
    /// The app file, or nil (standard input, or a REPL without a file).
    let file: String?

    /// The file failed before it started an app: a reload runs it as at start, until it does.
    private(set) var toStart: Bool

    init(engine: Engine, file: String?, toStart: Bool = false) {
        self.engine = engine
        self.file = file
        self.toStart = toStart
    }

    /// Which app is mounted, its root, and where to start; nil when no app runs.
    var banner: String? {
        guard let host = engine.appHost, !host.isDestroyed else { return nil }
        let name = file.map { BytePath.shown($0.lastPathComponent) } ?? "the app"
        let root = host.root?.label ?? "nothing (the provider returned nil)"
        let state = host.isMounted ? "mounted" : "not mounted"
        return "\(name): \(root) \(state) as app (generation \(host.generation))\n"
            + "  .tree shows what is on screen, .help lists the commands\n"
    }

    /// `.reload`: runs the app file again in a turn; the running host takes its provider,
    /// keeping state and controllers by scope. Every module loaded from the app's directory tree
    /// is forgotten first, so those the file requires load again.
    func reloadFile() throws(LuaError) -> String {
        do throws(LuaError) {
            let said = try reloadFileOnce()
            reloadEnded(true)
            return said
        } catch {
            reloadEnded(false)
            throw error
        }
    }

    /// Told how each reload ended, `.reload`'s and `--watch`'s alike (before a failed one's
    /// error is reported): the live view clears a failed reload's error once one succeeds.
    var reloadEnded: (_ succeeded: Bool) -> Void = { _ in }

    private func reloadFileOnce() throws(LuaError) -> String {
        guard let file else {
            throw LuaError(message: Catalogue.usage.message("no app file to reload: start the REPL on the app (ckrun app.lua, or ckrun repl app.lua)"))
        }
        if let problem = ReadableFile.problem(StartDirectory.absolute(file)) { throw LuaError(message: problem) }
        if toStart, engine.appHost == nil { return try StartDirectory.within { () throws(LuaError) in try start(file: file) } }
        let reloaded = try StartDirectory.within { () throws(LuaError) in
            try engine.turn { turn throws(LuaError) in try turn.reloadApp(file: file) }
        }
        guard let reloaded else {
            let why = engine.appHost?.isDestroyed == true
                ? "its host was destroyed (app:destroy()); start ckrun on \(BytePath.shown(file)) again"
                : "\(BytePath.shown(file)) did not start one (return a component class or provider, or call ck.run)"
            throw LuaError(message: Catalogue.usage.message("no app is running to reload: " + why))
        }
        let modules = reloaded.modules.isEmpty ? "" : "; modules loaded again: " + reloaded.modules.joined(separator: ", ")
        return "reloaded \(BytePath.shown(file)): generation \(reloaded.generation), state and controllers kept" + modules
    }

    /// The app file run as at start, after it failed there: its app started, or why it is none.
    private func start(file: String) throws(LuaError) -> String {
        let isApp = try engine.turn { turn throws(LuaError) in try turn.runAppFile(file) }
        guard isApp, let banner else {
            return "ran \(BytePath.shown(file)): it started no app (return a component class or provider, or call ck.run)"
        }
        toStart = false
        return "started " + banner.trimmingTrailingWhitespace()
    }

    /// Watches the app file's directory (`--watch`); nil without a file or inotify.
    func makeWatcher() -> FileWatcher? {
        guard let file else { return nil }
        return FileWatcher(directory: SiblingSearcher.directory(of: StartDirectory.absolute(file)))
    }

    /// The session functions the REPL's Lua side calls (`repl.lua`'s `session`): the clock's
    /// reading and controls, reload, the dump's quoting of a string (`quote`), and whether a value is a runtime object
    /// (`isObject`, for completion).
    func luaSide(clock: AppClock, runUntilIdle: @escaping () -> Void, advance: @escaping (Double) -> Int) -> Value {
        let reloadFunction = engine.tools.function { [unowned self] _ throws(LuaError) in
            do throws(LuaError) { return [.string(try reloadFile())] } catch {
                // Printed as it is (repl.lua's mark): the app file's frames, not the REPL's.
                let e = error.keepingFirstTraceback().cutTraceback(at: "in field 'reload'")
                throw LuaError(message: "\u{1}" + e.description)
            }
        }
        let pause = engine.tools.function { _ in clock.pause(); return [] }
        let resume = engine.tools.function { _ in
            clock.resume()
            if clock.mode == .virtual { runUntilIdle() }
            return []
        }
        let advanceFunction = engine.tools.function { arguments in
            let seconds: Double = switch arguments.first {
            case .int(let n)?: Double(n)
            case .number(let d)?: d
            default: 0
            }
            return [.int(Int64(advance(seconds)))]
        }
        let app = engine.tools.function { [unowned self] _ in [engine.tools.appHost()] }
        let columns = engine.tools.function { _ in [.int(Int64(HelpLayout.width))] }
        let quote = engine.tools.function { [unowned self] arguments throws(LuaError) in
            [.string(try engine.tools.quoted(arguments.first ?? .nil))]
        }
        // A runtime object's handle, known by its metatable (one a script dressed up as
        // `ck.Host` is not): completion reads only such objects' fields through `__index`.
        let isObject = engine.tools.function { arguments in
            guard case .object? = arguments.first else { return [.bool(false)] }
            return [.bool(true)]
        }
        return engine.tools.table([("clock", clockReading(clock)), ("pause", pause), ("resume", resume), ("reload", reloadFunction),
                                   ("advance", advanceFunction), ("app", app), ("columns", columns), ("quote", quote),
                                   ("isObject", isObject)])
    }

    /// `clock()` → time, pending timers, the next one's due time, paused, "wall" or "virtual".
    private func clockReading(_ clock: AppClock) -> Value {
        engine.tools.function { [unowned self] _ in
            let loop = engine.runtime.loop
            return [.number(loop.now), .number(Double(loop.pendingTimers)), loop.nextDue.map(Value.number) ?? .nil,
                    .bool(clock.isPaused), .string(clock.mode.rawValue)]
        }
    }
}
