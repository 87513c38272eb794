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
    /// Returns whether an app is running. The app is bound before its first mount: an error of
    /// that mount (a callback's) is the turn's error, raised with the app running
    /// (`engine.appHost` set), and the run goes on as after any turn's error (SPEC §9).
    func host(returnedAt index: Int32, classesBefore: Int) throws(LuaError) -> Bool {
        if engine.appHostObject != nil { return true }
        let L = engine.lua.L
        let index = LuaStack(L).absolute(index)
        let isClass = engine.objects.object(at: index, L) is ComponentClass
        let isProvider = LuaStack(L).isFunction(index) && engine.componentClassesDefined > classesBefore
        guard isClass || isProvider else {
            engine.notAnAppBecause = LuaStack(L).isFunction(index)
                ? "it returned a function but defined no component class, and a provider counts as an app once the file defines one (ck.component); define the classes it renders in the file, or call ck.run(provider)"
                : "it returned \(LuaStack(L).typeName(index)); return a component class or a provider, or call ck.run"
            return false
        }
        // The first build runs the provider and every render: under the limits as the chunk was.
        try engine.withLimits { () throws(LuaError) in try engine.protect {
            let h = try engine.hosts.make(providerAt: index, optsAt: 0, L)
            engine.appHostObject = h
            engine.values.push(h, L)
            engine.lua.setGlobal("app", on: L)
            try h.mount()
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
        engine.runtime.isReloadingApp = true
        engine.reloadRanApp = false
        // The replaced classes and tree go at once: Lua's collector counts only Lua's bytes, not
        // the Swift objects their handles keep, so between reloads it ran ever more rarely and
        // the handle and arena tables grew to hold the garbage (10,000 reloads: +3 MB Lua).
        defer { engine.isReloadingApp = false; engine.runtime.isReloadingApp = false; engine.lua.collectGarbage() }
        let stack = LuaStack(engine.lua.L)
        let base = stack.top
        defer { stack.top = base }
        do throws(LuaError) { try engine.lua.loadFile(file) } catch { throw error.asSyntaxError(ReloadFailure.keptApp) }
        engine.forgetInnerTraceback()
        do {
            try engine.withLimits { () throws(LuaError) in try engine.lua.call(arguments: 0, results: 1) }
        } catch {
            throw ReloadFailure.raised(engine.restoringInnerTraceback(error), file: file)
        }
        let L = engine.lua.L
        guard stack.isFunction(-1) || engine.objects.object(at: -1, L) is ComponentClass else {
            if engine.reloadRanApp { return true }
            throw notAnApp(file: file, returned: stack.typeName(-1))
        }
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
        engine.reloadRanApp = true
        return host
    }

    /// `[badReturn]` for a reloaded file that no longer returns an app nor calls `ck.run`: the
    /// running app is kept, and would go on rendering with the classes it was built with.
    private func notAnApp(file: String, returned: String) -> LuaError {
        LuaError(message: Catalogue.badReturn.message("reloading \(BytePath.shown(file)): the file returned \(returned) and did not call ck.run, so it no longer runs an app; the reload was abandoned and the running app is kept as it was (its classes from before the reload). End the file with `return Class` or `return provider`, or call ck.run(provider), then reload again"))
    }

    /// Fires the timers due by `time` (nil: until none is left, the virtual clock's run until
    /// idle), each in a turn of its own with the build after it (`Engine.ownTurn`: its own
    /// `--timeout`, also under the REPL's `.advance` line), then moves the clock to `time`.
    /// `fired` is told of each timer. A timer's error, `[timeout]` included, goes to `report` as
    /// `[timerFailed]` and the run goes on, but Ctrl-C (or SIGTERM) in a timer ends the whole run,
    /// as it ends any turn, the clock left at that timer's time (so does `[timeout]` when the
    /// timers share their caller's limit, `Engine.timersShareTheCallsLimit`). Returns where the bound every
    /// run of the clock shares (`RunLoop.drain`) stopped it, else nil.
    public func fireTimers(until time: Double?, report: (LuaError) -> Void, fired: () -> Void = {}) -> TimerRunStop? {
        engine.runtime.loop.drain(until: time) { timer in
            fired()
            var goesOn = true
            do throws(LuaError) {
                try engine.ownTurn { turn throws(LuaError) in try turn.fire(timer) }
            } catch {
                report(error)
                goesOn = error.id != Catalogue.interrupted.rawValue
            }
            // What a timer that raised had queued is built as any turn's is.
            engine.endTurn(report: report)
            // Past a shared deadline every timer would only time out again: the run ends there,
            // as a [timeout] of the run (the deadline may pass between two timers, none struck).
            if goesOn, engine.timersShareTheCallsLimit, engine.deadlinePassed {
                report(LuaError(message: Catalogue.timeout.message("the call's timers ran past its time limit")))
                return false
            }
            return goesOn
        }
    }

    /// Where a run of the clock was stopped, for the advice of its `[timerLoop]` warning.
    public enum ClockRun {
        /// The wall clock: such a timer is due at once each time; input is served between rounds.
        case wallClock
        /// A running virtual clock: each input runs the clock on again, so stepping it takes `.pause`.
        case virtualClock
        /// Once, with no input after it (`ckrun tree`).
        case once
    }

    /// The `[timerLoop]` warning for the timer a run stopped at, through `ck.config.onWarning`.
    public func warnTimerLoop(_ stop: TimerRunStop, in run: ClockRun) {
        let hint = if stop.atOneInstant || run == .wallClock {
            "it is due at once each time: give it a delay, or stop re-arming it (ck.cancel)"
        } else if run == .virtualClock {
            "each input runs the clock on again: .pause (or --paused) stops it so that .advance SECONDS steps it; --clock wall runs it in real time"
        } else {
            "the tree is the app's at that time; stop re-arming it (ck.cancel) if it should end"
        }
        let site = stop.timer.site
        // The wall clock's reading (to the ms), not the instant the chain stayed at (atk-apps:
        // "stopped at 0s" while the clock read 2 s): `current` catches the loop up with it.
        let loop = engine.runtime.loop
        let detail = stop.detail(now: run == .wallClock ? (loop.current * 1000).rounded() / 1000 : loop.now) + hint
        _ = try? engine.turn { turn throws(LuaError) in turn.warn(.timerLoop, detail, at: site.isEmpty ? nil : site) }
    }
}

extension Turn {
    /// Fires `timer` (popped from the run loop) and builds what it queued; its error is
    /// `[timerFailed]` naming where the timer was set, with the error's own message and traceback after it.
    func fire(_ timer: RunLoop.Timer) throws(LuaError) {
        let runtime = engine.runtime
        engine.forgetInnerTraceback()
        do throws(LuaError) {
            try engine.protect {
                try runtime.perform { try timer.fire() }
                try runtime.flush()
            }
        } catch {
            let e = engine.restoringInnerTraceback(error)
            // Ctrl-C (or SIGTERM) stopped it: not the timer's failure, and the run ends with it.
            if ScriptErrors.isInterrupt(message: e.message) { throw e }
            let detail = "a timer set here failed; the app goes on: " + e.message
            throw LuaError(message: Catalogue.timerFailed.message(detail, at: timer.site.isEmpty ? nil : timer.site),
                           traceback: e.traceback, status: e.status)
        }
    }
}
