import CKCore

/// What `ckrun test` asks of the runtime beyond the `ck` module (SPEC §9): each test isolated
/// (clock, timers, hosts), taps and sends that build what they queued, and luassert's test
/// doubles on classes.
extension Engine {
    /// Turns on `act()` for the file's state: an async update queued inside a send, tap or
    /// other runtime call is built before the call returns (`Runtime.buildsUpdatesAfterCalls`).
    public func buildUpdatesAfterCalls() { runtime.buildsUpdatesAfterCalls = true }

    /// `begin()`: before a test's `before_each` hooks: the virtual clock goes back to 0 and the
    /// hosts made from now on are noted (`Runtime.beginTest`).
    public var beginTestFunction: Value {
        function { [unowned self] _ throws(LuaError) in
            runtime.beginTest()
            return []
        }
    }

    /// `end()`: after a test's `after_each` hooks: destroys the hosts it made and did not destroy,
    /// then cancels its timers (`Runtime.endTest`). Runs unmount callbacks: call it as user code.
    public var endTestFunction: Value {
        function { [unowned self] _ throws(LuaError) in
            try protect { try runtime.endTest() }
            return []
        }
    }

    /// `methods(x)`: true and the names of a component or controller class's methods, sorted;
    /// false for anything else. luassert's `stub` and `mock` take tables; the prelude hands them a
    /// stand-in for a class, and `mock` spies on these names.
    public var classMethodsFunction: Value {
        function { [unowned self] arguments throws(LuaError) in
            let names: [String]
            switch arguments.first {
            case .object(let c as ComponentClass)?: names = Array(c.methods.keys)
            case .object(let c as ControllerClass)?: names = Array(c.methods.keys)
            default: return [.bool(false)]
            }
            return [.bool(true)] + names.sorted().map(Value.string)
        }
    }
}
