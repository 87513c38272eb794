import CCurses
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

/// `ckrun app.lua --tui`: the app's views drawn full-screen with ncursesw and driven with keys
/// (docs/tui.md). A front end of the interactive run: keys come from `descriptor`; a tap is a
/// turn it hands the run (`InputEvent.turn`), the command line's lines go to the REPL as typed
/// ones do; every build redraws (`didBuild`), and what turns print shows in the output pane.
final class LiveView: FrontEnd {
    let descriptor: Int32 = 0
    let isTerminal = true
    let greets = false
    let engine: Engine
    let clock: AppClock
    let appName: String
    /// The REPL's prompt now (`> `, or `>> ` while input is incomplete), and dropping incomplete input.
    let replPrompt: () -> String
    let dropPending: () -> Void
    let output: OutputLog
    let canvas = CursesCanvas()
    var scene = Scene()
    var components: [Component] = []
    var focused: SidePanel.Focused?
    var trace: [SidePanel.Line] = []
    var editor = LineEditor()
    var commandOpen = false
    var prompt = "> "
    /// A line was handed over: whether the command line stays open waits on the REPL's prompt.
    var awaitingPrompt = false
    var lastError: String?
    /// A tap's turn ran and the builds it queued follow before the next wait: a failed one is
    /// the tap's too (its trace says so).
    var tapAwaitsBuild = false
    /// The view the mouse's button was pressed on (its identity across builds), until released.
    var pressed: FocusIdentity?
    /// The error of the last failed reload, while it is the last error reported.
    var failedReload: String?
    /// A reload failed and its error is the next one reported.
    var reloadFailing = false
    /// How many rows the output pane is scrolled back from its newest (0: it follows the output).
    var outputBack = 0
    /// The wall clock's whole second the status line shows (nil: no running wall clock shown).
    var shownSecond: Double?
    /// What changed waits for the run's next wait (`beforeWait`) to be drawn or read, once: the
    /// whole screen, or the status row alone for the clock's tick (`PendingDraw`).
    var draws = PendingDraw()
    var needsDraw: Bool {
        get { draws.isPending }
        set { if newValue { draws.changed() } }
    }
    var treeIsStale = false
    var pendingKeys: [LiveInput] = []
    var reader = KeyReader()
    /// What was typed into text fields (`LiveViewTextEntry.swift`).
    var fields = TextFields()

    /// Why the view cannot be had here, or nil (`startupOutput`: standard output is held there).
    static func unavailable(startupOutput: OutputLog?) -> String? {
        guard isatty(0) == 1, isatty(startupOutput?.terminalOutput ?? 1) == 1 else {
            return "standard input and output must be a terminal"
        }
        guard ckcurses_load() != 0 else { return "ncursesw (libncursesw.so.6, Debian's libncursesw6) cannot be loaded" }
        return nil
    }

    /// Takes the terminal (nil if ncurses cannot draw on it); `NO_COLOR` set: no colours.
    /// `startupOutput` holds what the script printed while it started: the pane begins with it.
    init?(engine: Engine, clock: AppClock, appFile: String?, startupOutput: OutputLog?,
          replPrompt: @escaping () -> String, dropPending: @escaping () -> Void) {
        // The run's SIGWINCH, SIGINT and SIGTERM handlers first: ncurses leaves those it finds set.
        _ = SignalPipe.descriptor
        guard let output = startupOutput ?? OutputLog() else { return nil }
        let color = (Environment.value("NO_COLOR") ?? "").isEmpty
        guard ckcurses_screen_start(0, output.terminalOutput, color ? 1 : 0) != 0 else {
            output.close()
            return nil
        }
        self.engine = engine
        self.clock = clock
        self.output = output
        self.replPrompt = replPrompt
        self.dropPending = dropPending
        appName = appFile.map { BytePath.shown($0.lastPathComponent) } ?? "ckrun"
        TerminalRestore.install(output)
        engine.warningWritten = { [unowned output] in output.noteWarning($0) }
        // Counted, for a test of what is drawn at rest (`ck.stats().liveViewPaints`).
        engine.frontEndFigures = { [unowned self] in [("liveViewPaints", draws.wholeDraws), ("liveViewStatusDraws", draws.statusDraws)] }
        StandardInputLending.start(engine: engine, output: output)
        refreshTree()
    }

    // MARK: FrontEnd

    func start(prompt: String) {
        settlePrompt()
        needsDraw = true
    }

    /// After a line: the command line stays open for more of an incomplete input, and for the
    /// rest of a paste (text pending, or a paste not yet ended): pasted text is never view keys.
    func settlePrompt() {
        prompt = replPrompt()
        guard awaitingPrompt else { return }
        awaitingPrompt = false
        commandOpen = prompt != "> " || reader.pasting || pendingKeys.contains { if case .text = $0 { true } else { false } }
    }

    func readable() -> [InputEvent] {
        StandardInputLending.takeBack()
        pendingKeys += reader.readAll()
        settlePrompt()
        refreshTreeIfStale()
        needsDraw = true
        while !pendingKeys.isEmpty {
            guard let event = handle(pendingKeys.removeFirst()) else { continue }
            // A line or a tap may unmount or destroy the app with no build after it: read again.
            treeIsStale = true
            // A typed line is shown in the pane before it runs (it may run long); a tap's
            // effects are drawn once, after its turn and builds.
            if case .line = event { drawPending() }
            return [event]
        }
        return []
    }

    var hasBufferedInput: Bool { !pendingKeys.isEmpty }

    func remember(_ entry: [UInt8]) {}

    func aside(_ body: () -> Void) {
        body()
        needsDraw = true
    }

    func didBuild() {
        treeIsStale = true
        needsDraw = true
    }

    func interrupted(prompt: String) -> Bool {
        guard commandOpen else { return true }
        closeCommandLine()
        needsDraw = true
        return false
    }

    func reported(error: String) {
        lastError = error
        if reloadFailing {
            reloadFailing = false
            failedReload = error
        }
        if tapAwaitsBuild, ErrorHeadline.id(of: error) == Catalogue.buildFailed.rawValue {
            trace += TapTrace.buildFailed(error, generation: engine.appHost?.generation)
        }
    }

    /// A reload that succeeds after a failed one (`--watch`'s or `.reload`'s), nothing reported
    /// between, clears its error from the status line (the output pane keeps it): the file it
    /// named is fixed. A failed reload's error is reported after it ended.
    func reloaded(succeeded: Bool) {
        reloadFailing = !succeeded
        if !succeeded { return failedReload = nil }
        if let failed = failedReload, failed == lastError { lastError = nil }
        failedReload = nil
        needsDraw = true
    }

    func resized() {
        StandardInputLending.takeBack()
        ckcurses_screen_resize()
        needsDraw = true
    }

    /// After `fg`: ncurses' own handler drew the view again; the keypad's mode is set again too
    /// (the first arrow key after `fg` came in the cursor keys' normal mode and was lost).
    func continued() {
        guard ForegroundTerminal.owns(0) else { return }
        StandardInputLending.takeBack()
        ckcurses_screen_resume()
    }

    func close() {
        engine.warningWritten = nil
        engine.frontEndFigures = nil
        StandardInputLending.stop(engine: engine)
        TerminalRestore.leave()
    }

    /// The running wall clock's next second: the status line's reading goes stale then.
    var secondsToNextTick: Double? { shownSecond.map { $0 + 1 - clock.wallNow } }

    /// Only the status row shows the clock: a tick draws that row, never the tree.
    func tick() { draws.tick() }

    func beforeWait() {
        tapAwaitsBuild = false
        StandardInputLending.takeBack()
        refreshTreeIfStale()
        // Keys typed from here on were typed at what the screen shows: once it shows that no
        // field has the focus, printable keys are the view's again (`typingCarried`).
        defer { fields.typingCarried = false }
        drawPending()
    }

    /// Draws what is pending, once: the whole screen, or only the status row.
    func drawPending() {
        switch draws.take() {
        case .whole: redraw()
        case .status: redrawStatus()
        case nil: break
        }
    }

    // MARK: The tree

    /// Builds since the tree was read: read it again (before keys act on it, or a draw).
    func refreshTreeIfStale() {
        guard treeIsStale else { return }
        treeIsStale = false
        refreshTree()
    }

    /// The mounted tree again (a turn: values shown may run a `__tostring`); the focus stays on
    /// the same view (`FocusIdentity`). An unmounted or destroyed app shows no views.
    func refreshTree() {
        guard let host = engine.appHost, !host.isDestroyed, host.isMounted else {
            replace(LiveTree(), [])
            return
        }
        do throws(LuaError) {
            try engine.turn { turn throws(LuaError) in
                let made = LiveTreeBuilder.make(from: try turn.tree(of: host), describe: { (try? turn.describe($0)) ?? "…" },
                                                prop: { [engine] c, name in engine.tools.field(name, of: c.props) })
                replace(made.tree, made.components)
            }
        } catch {
            ProcessOutput.err(error.description + "\n")
            reported(error: error.description)
        }
    }

    private func replace(_ tree: LiveTree, _ components: [Component]) {
        var tree = tree
        fields.apply(to: &tree, components)
        self.components = components
        var nodes: [ObjectIdentifier: Int] = [:]
        for i in 0..<tree.count { nodes[ObjectIdentifier(components[tree[i].tag])] = i }
        let root = engine.appHost?.root
        let focusable = { (c: Component) in nodes[ObjectIdentifier(c)].map { tree[$0].focusable } ?? false }
        scene.replace(with: tree, key: { FocusIdentity(of: components[tree[$0].tag]) }) { key in
            key.target(under: root, takesFocus: focusable).flatMap { nodes[ObjectIdentifier($0)] }
        }
        focusChanged()
        fieldFocusSettled()
    }

    /// The side panel's account of the focused component: its label, path and responder chain.
    func focusChanged() {
        guard let node = scene.focused else { return focused = nil }
        let c = components[scene.tree[node].tag]
        let chain = engine.runtime.responderChain(from: .component(c)).map(\.name) + ["nil"]
        focused = SidePanel.Focused(label: c.label, path: c.path, chain: chain)
    }

    /// The identity the focus keeps across builds (`FocusIdentity`) of a node of the tree as it
    /// is now (not read through `scene`, which is being changed when it is asked).
    var focusKey: (Int) -> FocusIdentity {
        let tree = scene.tree, components = components
        return { FocusIdentity(of: components[tree[$0].tag]) }
    }
}
