/// Every error and warning id ckrun raises. Messages start with `[id]`; the docs'
/// error catalogue is generated from `cause` and `fix`, so an id is never undocumented.
public enum Catalogue: String, CaseIterable, Sendable {
    // Components, scopes and state (SPEC §2–3)
    case immutableComponent, outsideBuild, noScope, scopeCollision, duplicateKey, updateDuringRender, updateLoop
    case unknownClass, badReturn, buildFailed
    // Controllers and hosts (SPEC §4–5)
    case controllerWithoutScope, hostDestroyed, deadObject, badQuery, noMatch, callbackFailed, operationLoop
    // Actions (SPEC §6)
    case unknownType, doesNotRespond, tooManyArguments, badArgument, unhandledAction, notMounted
    case notMainThread, implicitDemotion, typeMismatch, yieldAcrossRuntime
    // Attributes (SPEC §7)
    case notAControl, nothingTapped, unknownEvent
    // Limits and the command line (SPEC §9)
    case timeout, memoryLimit, interrupted, sandbox, usage, cannotRead, testFailure, finalizerError
    case cannotWrite, cannotWatch, graphvizFailed, crashed
    // The app's run loop (SPEC §9)
    case timerFailed, timerLoop
    // Limits of the Lua stack and of nesting; names and fields a script may have misspelled
    case stackLimit, suspiciousName, reactName, unknownProp, droppedChild, treeTooDeep, suspiciousUpdate, updateAfterUnmount
    // Script functions the runtime calls for the script, outside a build or a lifecycle pass
    case actionFailed, configCallbackFailed
    // The Swift library (CKRuntime), and chunks the user wrote, loaded again or typed into a running app
    case syntaxError, reloadFailed, scriptFailed, timerBusy

    /// What makes ckrun raise it.
    public var cause: String {
        switch self {
        case .immutableComponent: "A script wrote a field of a component instance or of its props; both are immutable snapshots."
        case .outsideBuild: "A scoped component was constructed outside a build (not inside a host's provider or a render)."
        case .noScope: "`updateState` or `component:action` was called on a component whose class declares no scope."
        case .scopeCollision: "Two siblings built in the same enclosing scope have the same class, identifier and key; they are told apart by order (warning)."
        case .duplicateKey: "Two siblings without a scope (built-ins too: `ck.Text{key = 7}` twice) have the same class and `key`; their views are matched to the previous generation's by order among them, which breaks when they move (warning, when a build places them; scoped siblings get `[scopeCollision]`)."
        case .updateDuringRender: "`updateState`, or a call that builds or changes a host (`host:update`, `reload`, `mount`, `unmount`, `destroy`, `flush`, `ck.flush`), was made while a render was running."
        case .updateLoop: "State updates kept triggering builds of one host that queued more updates: 100 builds of it in a row."
        case .unknownClass: "A class name was used that no `ck.component` or `ck.controller` defined."
        case .badReturn: "A render, provider or view function returned something that is not a component (or view spec)."
        case .buildFailed: "A render, view function, `shouldUpdate`, `initialState`, provider or state update function raised while a host built: its first build (`ck.host`, the app runner's, `ckrun tree`'s; no host was made) or a later one (`host:update`, a state update, `reload`, `.reload`; the build was rolled back and the updates it was folding were dropped). The line names what raised and where."
        case .controllerWithoutScope: "A component class has a controller but the component declares no scope."
        case .hostDestroyed: "A method of a destroyed host, or `updateState` on one of its components, was called."
        case .deadObject: "A controller was used after `invalidateController`, a runtime object after its host went away, or `ck` from a finalizer that ran while the engine closed its state."
        case .callbackFailed: "A controller's lifecycle callback (`didMount`, `willUpdateComponent`, `invalidateController`, …) raised. The rest of the pass ran (the tree is mounted or unmounted whole); the first such error reaches the caller of the runtime call that ran the pass (`host:update`, `host:mount`, a send, …), naming the callback and the component's path."
        case .operationLoop: "Host operations called from lifecycle callbacks kept deferring more (a `didMount` that unmounts and a `didUnmount` that mounts): 100 rounds of them (what one round's passes deferred is the next) after one pass; the rest were dropped."
        case .badQuery: "A query string given to `find`, `tap` or a REPL command could not be parsed."
        case .unknownEvent: "`host:controlEvent(query, name)` was given an event name that is no UIControl event and for which the view it reached registers no control action (`ck.onControl`, a `ck.Button`'s `events`), so it sent nothing: 0 actions, as SPEC §7 says, and this warning naming UIControl's events and the view's own."
        case .nothingTapped: "`host:tap(query)` (`.tap` in the REPL) tapped the first view at or below the component its query found, which sends nothing for a tap (a row's label), while views below it would: 0 actions were sent (warning)."
        case .noMatch: "A well-formed query given to `host:tap` or `host:controlEvent` matched no component (`host:find` returns nil for it)."
        case .unknownType: "An action or struct named a type that is neither built in, a struct, nor a class."
        case .doesNotRespond: "A scope or target action names a method that neither the component class nor its controller class has."
        case .tooManyArguments: "A scope or target action's handler takes more arguments than the sender plus the action's types."
        case .badArgument: "A value passed to a `ck` function or an action's send does not have the expected type, or a value assigned to `ck.config` (which cannot be replaced) or to one of its settings is not one it takes."
        case .unhandledAction: "No responder on the chain handles the action's selector."
        case .notMounted: "A selector action was sent from an unmounted component and nothing handled it."
        case .timerBusy: "A runtime with a timeout was called while another runtime's call held the process's one timer: around this call, or on another thread for longer than this call's timeout (a timed call waits that long for it)."
        case .notMainThread: "The Swift API was used from a thread other than the runtime's: another thread was inside a call, or (from Lua's side) a send came from another thread."
        case .implicitDemotion: "An action with more types than a prop or attribute declares was given to it."
        case .typeMismatch: "An action whose types are incompatible with a prop's declared types was given to it."
        case .yieldAcrossRuntime: "A coroutine yielded from inside a render, handler or callback that the runtime called."
        case .notAControl: "`ck.onControl` was used on a view class that is not a control."
        case .timeout: "The script ran longer than `--timeout` (or a test's time limit)."
        case .memoryLimit: "The script allocated more than `--memory-limit`."
        case .interrupted: "Ctrl-C stopped a running chunk."
        case .sandbox: "Under `--sandbox`, the script called a function that runs programs, loads C code or bytecode, writes files, reads the environment or ends the process (docs/sandbox.md)."
        case .usage: "The command line could not be understood."
        case .cannotRead: "A file ckrun loads itself (the script, `ckrun tree`'s, a spec file, `LUA_INIT=@file`, the file `.reload` or `--watch` loads again) does not exist, cannot be opened, or is a directory, FIFO or socket (reading a FIFO would block before any limit)."
        case .crashed: "The process faulted (a signal such as SIGSEGV): Lua runs a precompiled chunk without verifying it, as lua5.4 does, so a corrupted one a script loaded (allowed without `--sandbox`), or a C module's fault, can crash it. One line names what was running (a serial `ckrun test`'s test file, a plain run's script); the Swift runtime's backtrace follows and the process ends by the signal."
        case .testFailure: "`ckrun test` could not run a test file to its end: the file stopped outside any test (it called `os.exit`, a limit or a signal struck between its tests, its worker process died or answered what it could not read), or luassert was missing. A file that does not compile and a failing hook are reported as busted reports them: an error named by the file or the hook, with Lua's message."
        case .cannotWrite: "ckrun could not write its standard output or standard error, or a report file it was asked for (`--junit`, coverage): closed, `>&-`; a full disk, `>/dev/full`; a FIFO no process reads; an I/O error. What it wrote there is incomplete, so the run ends with a non-zero status. A reader that went away (`| head -1`) is not this error: ckrun then ends quietly, as killed by SIGPIPE, as a filter does (or, started with SIGPIPE ignored, goes on without that output, as lua5.4 does)."
        case .cannotWatch: "`--watch` could not start watching files: the system refused an inotify instance or watch (the per-user limits `fs.inotify.max_user_instances` or `max_user_watches` reached, or no inotify on this system), or the script is a pipe or device, whose bytes come once (`ckrun <(…) --watch`)."
        case .graphvizFailed: "`ckrun tree --format svg` ran Graphviz's `dot` on the graph `--format dot` prints and dot failed (it exited with a non-zero status or was killed): the line carries dot's status and its own message. No SVG, or only part of one, was written; the status is 1."
        case .finalizerError: "A `__gc` metamethod raised an error while Lua collected garbage, while warnings are on (`warn(\"@on\")`, `-W`): a warning to `ck.config.onWarning` when one is set, else Lua's own `Lua warning: error in __gc` line, as lua5.4 prints it. While warnings are off (the default), as in lua5.4, a finalizer's error is dropped."
        case .timerFailed: "A timer's function (`ck.after`) raised: in an app run by `ckrun` (or the build after it failed; the app goes on), or when `ck.advance` or `ck.runUntilIdle` fired it (the error reaches their caller, naming where the timer was set)."
        case .timerLoop: "A timer kept re-arming itself (each firing set the next: a clock, a poller, `setInterval`), so running the clock until idle would never end, or it re-armed with no delay, so even a run to a time would not: the run stopped with the timer pending. A warning in an app run (the app goes on) and in `ckrun tree`; raised by `ck.runUntilIdle` and `ck.advance`."
        case .stackLimit: "A call passed or returned more values than a Lua stack holds, `coroutine.close` calls nested (from `__close` handlers) deeper than the C stack has room for (Lua 5.4.4 counts no C call there and overflows it; ckrun closes as deep as lua5.4 until the stack is short), or calls from Lua into the runtime (host builds, sends, mounts, class calls) nested inside each other deeper than Lua's limit of nested C calls allows (about 200: a handler that sends to its parent's, 190 deep, works) or than the C stack has room for (`ulimit -s`)."
        case .treeTooDeep: "A build made a tree deeper than `ck.config.maxDepth` components (default 1,048,576), most often a render that returns its own class without a base case; the build stopped and was rolled back. Warned once a build (on it goes) when it passes 10,000; stopped there instead, under the default limit, when the render that repeats was given the same props, key and state level after level (it could never end)."
        case .reactName: "A script called a React method on a component or controller whose class does not define it (`self:setState{…}`, `self:forceUpdate()`, `self:componentDidMount()`): ckrun names it otherwise. The names are the ones `[suspiciousName]` warns about in a definition."
        case .suspiciousName: "A controller or component class defined a method whose name is one letter or two away from a lifecycle method's, or is React's name for one; or a component class took a built-in's name (`ck.component(\"Button\", …)`) (warning)."
        case .updateAfterUnmount: "`updateState` was called on a component whose scope has left the tree (a timer or callback that outlived it: React's \"state update on an unmounted component\"); the update is dropped (SPEC §3) (warning, once per line that calls it)."
        case .suspiciousUpdate: "An update function returned nil for a state that was a table: the state is now nil, since an update sets the state to what its function returns (ComponentKit's `fn(old) -> new`), where React's and Roact's `setState` skip an update whose function returns nil (warning)."
        case .unknownProp: "A built-in component (`ck.Button`, `ck.Text`, …) was given a prop it does not read (warning)."
        case .droppedChild: "A built-in's `children` list holds a component at a key that is no list index (a string, 0, a negative or fractional number): only entries at 1, 2, 3, … are children, so it is not built (warning)."
        case .actionFailed: "An action's handler (a component's or controller's method, a host responder's, a block action's function) or a responder's `canPerformAction` raised during a send. Where ckrun reports the error itself (a script's uncaught error, the app runner, the REPL, `ckrun test`'s report of an errored test), this line names the handler and the component path before the handler's own message and traceback. Script code that catches the error (`pcall`, `assert.has_error`) gets the handler's own error value unchanged, as SPEC §6.3 says it reaches the caller."
        case .syntaxError: "A chunk the user wrote does not compile where ckrun reports it itself: a chunk the Swift library loaded (`Runtime.load(file:)`, `Runtime.load(string:name:)`), the app file loaded again (`.reload`, `--watch`), a line typed into the REPL or the live view's command line. The message after the id is Lua's own, with the chunk's name and line (then, in a running app, what became of the run). A plain script, `-e`, `-l` and `require` report Lua's message alone, as lua5.4 does; a spec file that does not compile is reported as busted reports it."
        case .reloadFailed: "The app file loaded again (`.reload`, `--watch`) raised at its top level, before it gave a provider. The reload was rolled back: the running host keeps its provider, responders, model, state and controllers; globals the file set before it raised stay set."
        case .scriptFailed: "A Lua function the Swift library (CKRuntime) called raised an error of its own, one whose message has no catalogued id (`error(\"boom\")`, indexing nil, an error value that is a table), in a chunk `Runtime.load` ran or a function `ScriptObject.call` called (a handler's error in a send is `[actionFailed]`, a render's in a build `[buildFailed]`). The message after the id is the script's own, with its file:line; the error's traceback is where it was raised."
        case .configCallbackFailed: "A function the script set in `ck.config` raised: `onWarning` (the warning it was given is then written to standard error after this line) or `onTrace` (reported as this warning). The code that warned or sent goes on: a warning or a trace never raises into it."
        }
    }

    /// What to do about it.
    public var fix: String {
        switch self {
        case .immutableComponent: "Pass new props from the parent's render, or keep the value in state and call `updateState` to change what the next generation shows."
        case .outsideBuild: "Construct scoped components in a provider or a render, or give the class no scope."
        case .noScope: "Declare `scope = true` (or a scope function) on the component class."
        case .scopeCollision: "Give each sibling a distinct scope identifier or `key` prop."
        case .duplicateKey: "Give each sibling a distinct `key`: an id from its data, not its position."
        case .updateDuringRender: "Update state and hosts from handlers, controllers or timers, never from `render`."
        case .updateLoop: "Update state only when the value actually changes, not unconditionally from a lifecycle callback."
        case .unknownClass: "Define the class first, or check the spelling of its name."
        case .badReturn: "Return one component (built with `Class(props)`) or nil; for several children, return `ck.Stack{children = {…}}`. Build a new instance for each place in the tree."
        case .buildFailed: "Read the render's own error and traceback after the first line, fix it, and build again; after a failed rebuild the previous generation is still mounted."
        case .controllerWithoutScope: "Add `scope = true` to the component class, or drop its controller."
        case .hostDestroyed: "Make a new host with `ck.host`; a destroyed one cannot be revived."
        case .deadObject: "Drop references to objects of scopes that left the tree, or look them up again; do not call `ck` from `__gc` metamethods."
        case .callbackFailed: "Read the callback's own error and traceback after the first line and fix the callback; the tree is already in its new state."
        case .operationLoop: "Call `mount`, `unmount`, `update` or `appear` from a callback only when something changed, not unconditionally; the host is left as the last operation made it."
        case .badQuery: "Use `Class`, `Class#id`, `A > B` or `A B`."
        case .unknownEvent: "Check the name's spelling against the events the warning lists (UIControl's are `touchUpInside`, `valueChanged`, `editingChanged`, …), or register an action for it on that view: `ck.onControl(action, {\"refreshRequested\"})`."
        case .nothingTapped: "Tap the view you mean by a query that reaches it: the warning names each tappable view below with one (`Row#a > Stack > Button`)."
        case .noMatch: "Check the query against `host:dump()` (`.tree` in the REPL); to tap only what is there, test `host:find(query)` first."
        case .unknownType: "Use a built-in type name, declare the struct with `ck.struct`, or define the class first."
        case .doesNotRespond: "Define the method on the component class or its controller, or fix the selector's spelling."
        case .tooManyArguments: "Declare the action's types for every argument the handler takes, or drop parameters."
        case .badArgument: "Pass a value of the type named in the message."
        case .unhandledAction: "Define the method on a responder of the printed chain, or set ck.config.unhandledAction."
        case .notMounted: "Mount the host first, or use a scope action, which works while unmounted."
        case .timerBusy: "Call the other runtime outside this one's calls, or give runtimes that run long calls on several threads at once no timeout (the process has one timer)."
        case .notMainThread: "Use a runtime from one isolation domain (a thread, an actor, a task), one call at a time."
        case .implicitDemotion: "Call `action:demoted(types)` to drop the extra types explicitly."
        case .typeMismatch: "Make the action's types match the prop's declared types."
        case .yieldAcrossRuntime: "Yield outside runtime calls, or run the asynchronous work with `ck.after`."
        case .notAControl: "Use `ck.onTap` for plain views, or register the class with `ck.registerControlClass`."
        case .timeout: "Find the loop that does not end, or raise `--timeout`."
        case .memoryLimit: "Use less memory, or raise `--memory-limit`."
        case .interrupted: "Nothing: the REPL goes on."
        case .sandbox: "Do what the message says instead, or run without `--sandbox`."
        case .usage: "See `ckrun --help`."
        case .cannotRead: "Name a readable Lua file; read standard input with `-`."
        case .crashed: "Fix or remove the chunk the named file loads (`--sandbox` loads no precompiled chunk); run `ckrun test --jobs 2` so a crashing test file is a `[testFailure]` and the other files' results and reports are kept."
        case .testFailure: "Read the message and traceback; fix the test file or the code it tests."
        case .cannotWrite: "Give ckrun an output it can write: a file on a disk with room, a pipe, a terminal, a FIFO whose reader is running; do not close descriptor 1 or 2 (from a test's C module either)."
        case .cannotWatch: "Save a script from a pipe to a file first. Close other programs that watch files (editors, other `--watch` runs), or raise the limit (`sysctl fs.inotify.max_user_instances=512`); or run without `--watch`."
        case .graphvizFailed: "Run `ckrun tree FILE --format dot | dot -Tsvg` to see where dot stops; update Graphviz if it is older than the graph's syntax, and report the graph if it is ckrun's."
        case .finalizerError: "Make the finalizer handle its own errors (pcall inside __gc)."
        case .timerFailed: "Read the timer's own error and traceback after the first line and fix the function; set the timer again if it should still run."
        case .timerLoop: "If the timer is meant to repeat, step the clock by a bounded time: `ck.advance(SECONDS)` in a test; in a piped run, where each input runs the clock on again, `.pause` (or `--paused`) first, then `.advance SECONDS`; or run on the wall clock (`--clock wall`). Give a timer re-armed at once a delay; otherwise stop re-arming it (`ck.cancel`)."
        case .stackLimit: "Pass many values in a table; close coroutines one after another instead of from each other's `__close`; make hosts and send actions one after another, not from inside each other's renders and handlers."
        case .treeTooDeep: "Give the recursive render named in the message a base case (return nil when there is nothing below); for a tree that deep on purpose, raise `ck.config.maxDepth`."
        case .reactName: "Call ckrun's method the message names: `self:updateState(value)` or `self:updateState(function(old) return new end)` for `setState` (it replaces the state, it does not merge), `self:updateState(function(s) return s end)` for `forceUpdate`; lifecycle methods are defined on a `ck.controller`, not called."
        case .suspiciousName: "Rename the method to the lifecycle name the warning suggests, or to a name further from it; give a component class a name no built-in has (`SaveButton`)."
        case .updateAfterUnmount: "Cancel what keeps running when the component goes: `ck.cancel(id)` of its timers in the controller's `invalidateController` (or `willUnmount`); or stop calling `updateState` on an instance that left the tree."
        case .suspiciousUpdate: "Return `old` to keep the state (the scope still re-renders), or do not call `updateState`; to make the state nil on purpose, pass it as a value: `updateState(nil)`."
        case .unknownProp: "Use one of the props the warning lists, or check the spelling."
        case .droppedChild: "Put the component in the list (`children = {Row{key = \"a\"}}`: the `key` prop, not the table key, tells siblings apart)."
        case .actionFailed: "Read the handler's own error and traceback after the first line and fix the handler; the state updates it queued before it raised are built at the next turn."
        case .syntaxError: "Fix the Lua at the line the message names (`luac5.4 -p FILE` checks a file without running it), then load, reload or type it again; a running app is unchanged."
        case .reloadFailed: "Read the file's own error and traceback after the first line, fix it, then reload again."
        case .scriptFailed: "Read the script's own message and traceback after the id and fix the Lua at the line it names; to let a Swift program tell a script's errors apart, raise them with an id of this catalogue in front (`error(\"[badArgument] count must be positive\", 0)`)."
        case .configCallbackFailed: "Read the function's own error and traceback after the first line and fix it; to make warnings fail a test, record them in `onWarning` and assert on the record."
        }
    }

    /// `[id] where: detail`.
    public func message(_ detail: String, at location: String? = nil) -> String {
        if let location { return "[\(rawValue)] \(location): \(detail)" }
        return "[\(rawValue)] \(detail)"
    }
}

/// An error raised by the core: a catalogue id and a message a person can act on.
public struct RuntimeError: Error, CustomStringConvertible, Sendable {
    public let id: Catalogue
    public let detail: String
    /// The script's `file:line` when the core knows it (else the bridge adds its caller's).
    public let location: String?

    public init(_ id: Catalogue, _ detail: String, at location: String? = nil) {
        self.id = id
        self.detail = detail
        self.location = location
    }

    public var description: String { id.message(detail, at: location) }
}
