import CKCore

/// Running an app (SPEC §9): a file's result hosted by the app rule, the file run again for
/// `.reload` / `--watch` (the running host takes the new provider, keeping scopes), and the
/// virtual clock's timers fired turn by turn for the app runner, `ckrun tree` and the REPL.
public struct AppRunner {
    unowned(unsafe) let engine: Engine

    /// The app rule (SPEC §9) for the value at `index`, the first result of a script that ran
    /// while `classesBefore` component classes existed: a component class, or a function once
    /// the script defined a component class, is hosted, mounted and bound to `app`. A script
    /// that called `ck.run` is an app already. Any other result is ignored, as lua ignores it.
    /// Returns whether an app is running.
    func host(returnedAt index: Int32, classesBefore: Int) throws(LuaError) -> Bool {
        if engine.appHostObject != nil { return true }
        let L = engine.lua.L
        let index = LuaStack(L).absolute(index)
        let isClass = engine.objects.object(at: index, L) is ComponentClass
        let isProvider = LuaStack(L).isFunction(index) && engine.componentClassesDefined > classesBefore
        guard isClass || isProvider else { return false }
        // The first build runs the provider and every render: under the limits as the chunk was.
        try engine.withLimits { () throws(LuaError) in try engine.protect {
            let h = try engine.hosts.make(providerAt: index, optsAt: 0, L)
            try h.mount()
            engine.appHostObject = h
            engine.values.push(h, L)
            engine.lua.setGlobal("app", on: L)
        } }
        return true
    }

    /// Runs a file as lua loads it (its bytes as they are) under the configured limits, and
    /// hosts it if it is an app by the app rule; returns whether an app is running.
    func runFile(_ path: String) throws(LuaError) -> Bool {
        let stack = LuaStack(engine.lua.L)
        let base = stack.top
        defer { stack.top = base }
        let classes = engine.componentClassesDefined
        try engine.lua.loadFile(path)
        try engine.withLimits { () throws(LuaError) in try engine.lua.call(arguments: 0, results: 1) }
        return try host(returnedAt: -1, classesBefore: classes)
    }

    /// Runs the app file again. Returns false if no app is running to reload.
    func reload(file: String) throws(LuaError) -> Bool {
        guard let host = engine.appHostObject, !host.isDestroyed else { return false }
        engine.isReloadingApp = true
        // The replaced classes and tree go at once: Lua's collector counts only Lua's bytes, not
        // the Swift objects their handles keep, so between reloads it ran ever more rarely and
        // the handle and arena tables grew to hold the garbage (10,000 reloads: +3 MB Lua).
        defer { engine.isReloadingApp = false; engine.lua.collectGarbage() }
        let stack = LuaStack(engine.lua.L)
        let base = stack.top
        defer { stack.top = base }
        try engine.lua.loadFile(file)
        engine.forgetInnerTraceback()
        do {
            try engine.withLimits { () throws(LuaError) in try engine.lua.call(arguments: 0, results: 1) }
        } catch {
            throw engine.restoringInnerTraceback(error)
        }
        let L = engine.lua.L
        guard stack.isFunction(-1) || engine.objects.object(at: -1, L) is ComponentClass else { return true }
        try engine.protect {
            try host.reload(provider: try engine.hosts.owned(by: host) { try engine.hosts.provider(at: stack.top, L) })
            if !host.isMounted { try host.mount() }
        }
        return true
    }

    /// `ck.run(provider, opts)` while the app reloads: the running host takes the provider,
    /// responders and model; nil when not reloading (ck.run makes a host).
    func reloadRunning(providerAt p: Int32, optsAt o: Int32, _ L: OpaquePointer) throws -> Host? {
        guard engine.isReloadingApp, let host = engine.appHostObject, !host.isDestroyed else { return nil }
        try engine.hosts.owned(by: host) {
            let provider = try engine.hosts.provider(at: p, L)
            let (model, responders) = try engine.hosts.options(at: o, L)
            try host.reload(provider: provider, responders: responders, model: model)
        }
        if !host.isMounted { try host.mount() }
        return host
    }

    /// A run of the clock stops at a timer whose chain of timers — each set while the one before
    /// fired — reached this length (a timer that re-arms itself, React's `setInterval` habit);
    /// sinon's fake timers stop at 1,000 too.
    public static let timerChainLimit = 1000

    /// A run of the clock also stops after this many timers in all (sinon's runAll stops at 1,000
    /// in all): a timer that sets two each
    /// time it fires never reaches the chain limit in practice (2^1000 firings), and each
    /// firing is a short turn of its own, so no time limit ends the run.
    public static let timerRunLimit = 10_000

    /// Why a run of the clock stopped early, at `timer` (left pending).
    public struct TimerRunStop {
        public let timer: RunLoop.Timer
        /// The run reached `timerRunLimit` timers rather than a chain of `timerChainLimit`.
        public let byCount: Bool
    }

    /// Fires the timers due by `time` (nil: until none is left, the virtual clock's run until
    /// idle), each in a turn of its own with the build after it, then moves the clock to `time`.
    /// A timer's error goes to `report` as `[timerFailed]` and the run goes on, but Ctrl-C (or
    /// SIGTERM) in a timer ends the whole run, as it ends any turn. Returns where the run
    /// stopped when a chain reached `timerChainLimit` or the run `timerRunLimit`, else nil.
    public func fireTimers(until time: Double?, report: (LuaError) -> Void) -> TimerRunStop? {
        let loop = engine.runtime.loop
        var chains: [Int: Int] = [:]
        var fired = 0
        while let next = loop.next, next.due <= (time ?? .infinity) {
            let length = chains.removeValue(forKey: next.id) ?? 0
            if length >= Self.timerChainLimit || fired >= Self.timerRunLimit {
                return TimerRunStop(timer: next, byCount: length < Self.timerChainLimit)
            }
            // (`chains` holds the timers set during this run that have not fired yet.)
            let before = loop.lastID
            fired += 1
            do throws(LuaError) {
                try engine.turn { turn throws(LuaError) in try turn.fireNext() }
            } catch {
                report(error)
                if error.id == Catalogue.interrupted.rawValue { return nil }
            }
            for id in stride(from: before + 1, through: loop.lastID, by: 1) { chains[id] = length + 1 }
        }
        if let time { loop.advance(to: time) }
        return nil
    }

    /// The `[timerLoop]` warning for the timer a run stopped at, through `ck.config.onWarning`.
    /// On the wall clock such a timer is due at once each time: the run goes on serving input
    /// between rounds of it.
    public func warnTimerLoop(_ stop: TimerRunStop, onWallClock: Bool = false) {
        let now = engine.runtime.loop.now
        let time = Int(exactly: now).map(String.init) ?? "\(now)"
        let hint = onWallClock ? "it is due at once each time: give it a delay, or stop re-arming it (ck.cancel)"
            : ".advance SECONDS moves the clock on, --clock wall runs it in real time"
        let what = stop.byCount
            ? "timers kept setting more timers: \(Self.timerRunLimit) fired in one run of the clock, so it stopped at \(time)s with this one (set here) pending; "
            : "a timer set here re-armed itself \(Self.timerChainLimit) times in a row, so the run of the clock stopped at \(time)s with it pending; "
        let site = stop.timer.site
        _ = try? engine.turn { turn throws(LuaError) in turn.warn(.timerLoop, what + hint, at: site.isEmpty ? nil : site) }
    }
}

extension Turn {
    /// Fires the next timer and builds what it queued; its error is `[timerFailed]` naming where
    /// the timer was set, with the error's own message and traceback after it.
    func fireNext() throws(LuaError) {
        let runtime = engine.runtime
        guard let timer = runtime.loop.popNext() else { return }
        engine.forgetInnerTraceback()
        do throws(LuaError) {
            try engine.protect {
                try runtime.perform { try timer.fire() }
                try runtime.flush()
            }
        } catch {
            let e = engine.restoringInnerTraceback(error)
            // Ctrl-C (or SIGTERM) stopped it: not the timer's failure, and the run ends with it.
            if e.id == Catalogue.interrupted.rawValue { throw e }
            let detail = "a timer set here failed; the app goes on: " + e.message
            throw LuaError(message: Catalogue.timerFailed.message(detail, at: timer.site.isEmpty ? nil : timer.site),
                           traceback: e.traceback, status: e.status)
        }
    }
}
