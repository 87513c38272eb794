import CKCore
import CKLua
import Foundation

/// The app runner's session around the REPL: what it says on start, `.reload`, and
/// `--watch` (reload when the app's files change).
final class AppSession {
    let engine: Engine
    /// The app file, or nil (standard input, or a REPL without a file).
    let file: String?

    init(engine: Engine, file: String?) {
        self.engine = engine
        self.file = file
    }

    /// Which app is mounted, its root, and where to start; nil when no app runs.
    var banner: String? {
        guard let host = engine.appHost, !host.isDestroyed else { return nil }
        let name = file.map { ($0 as NSString).lastPathComponent } ?? "the app"
        let root = host.root?.label ?? "nothing (the provider returned nil)"
        let state = host.isMounted ? "mounted" : "not mounted"
        return "\(name): \(root) \(state) as app (generation \(host.generation))\n"
            + "  .tree shows what is on screen, .help lists the commands\n"
    }

    /// `.reload`: runs the app file again; the running host takes its provider, keeping state
    /// and controllers by scope. Modules loaded from beside the script load again.
    func reload() throws(LuaError) -> String {
        guard let file else {
            throw LuaError(message: "no app file to reload: start the REPL on the app (ckrun app.lua, or ckrun repl app.lua)")
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw LuaError(message: "cannot read \(file)")
        }
        engine.forgetSiblingModules()
        guard try engine.reloadApp(LuaSource(bytes: data), name: "@" + file),
              let host = engine.appHost else {
            throw LuaError(message: "no app is running to reload: \(file) did not start one (return a component class or provider, or call ck.run)")
        }
        return "reloaded \(file): generation \(host.generation), state and controllers kept"
    }

    /// Watches the app file's directory (`--watch`); nil without a file or inotify.
    func makeWatcher() -> FileWatcher? {
        guard let file else { return nil }
        return FileWatcher(directory: Engine.directory(of: file))
    }
}

extension Engine {
    /// The session functions the REPL's Lua side calls (`repl.lua`'s `session`).
    func replSession(_ app: AppSession) -> Value {
        let clock = function { [unowned self] _ in
            let loop = self.runtime.loop
            return [.number(loop.now), .number(Double(loop.pendingTimers)), loop.nextDue.map(Value.number) ?? .nil]
        }
        let reload = function { _ throws(LuaError) in
            do throws(LuaError) { return [.string(try app.reload())] } catch {
                // Printed as it is (repl.lua's mark): the app file's frames, not the REPL's.
                let e = error.keepingFirstTraceback().cutTraceback(at: "in field 'reload'")
                throw LuaError(message: "\u{1}" + e.description)
            }
        }
        return table([("clock", clock), ("reload", reload)])
    }
}
