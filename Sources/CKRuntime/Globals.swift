import CKCore
import CKLua

extension Runtime {
    /// A Swift function Lua calls (``register(_:_:)``): its arguments, converted as a Swift
    /// handler's are; what it returns is the call's one result.
    public typealias Function = ([ScriptValue]) throws -> ScriptValue

    /// Sets the global variable `name` to `value` (raw: a script's `__newindex` on `_G` does
    /// not run). A name with a NUL byte is ``ErrorID/badArgument``.
    public func setGlobal(_ name: String, _ value: ScriptValue) throws(ScriptError) {
        try Runtime.checkGlobalName(name, "setGlobal")
        try glue("setGlobal", [.string(name)], then: [value])
    }

    /// Sets the global variable `name` to the Lua value `object` holds (a function, a table, a
    /// class), which must belong to this runtime (another's is ``ErrorID/badArgument``).
    public func setGlobal(_ name: String, _ object: ScriptObject) throws(ScriptError) {
        try Runtime.checkGlobalName(name, "setGlobal")
        try exclusive { held throws(ScriptError) in
            try glue(held, "setGlobal", [.string(name), try object.raw(held, in: self, as: "setGlobal's value")])
        }
    }

    /// Sets the global variable `name` to a Lua function that calls `function` with its
    /// arguments (converted as a Swift handler's: a table as an array or dictionary, a
    /// function or runtime object as ``ScriptValue/object(_:)``) and returns its result.
    ///
    /// ```swift
    /// try runtime.register("greet") { arguments in .string("hello, \(arguments.first?.stringValue ?? "you")") }
    /// try runtime.load(string: "print(greet('Ann'))")
    /// ```
    ///
    /// It runs inside the call from Swift that ran the script, under its limits: the time it
    /// takes counts against ``Configuration/timeout`` (Lua is stopped at its next instruction
    /// after the function returns; Swift code itself is never interrupted). What it throws is
    /// raised in Lua, where `pcall` can catch it: a ``ScriptError`` as it is (its id and
    /// message), any other error as ``ErrorID/scriptFailed`` naming the function. The runtime
    /// keeps `function`, and what it captures, while it lives: capture the runtime `weak` or
    /// `unowned`, or it is never freed. A name with a NUL byte is ``ErrorID/badArgument``.
    public func register(_ name: String, _ function: @escaping Function) throws(ScriptError) {
        try Runtime.checkGlobalName(name, "register")
        try exclusive { held throws(ScriptError) in
            let marshal = held.marshal
            let lua = held.engine.tools.function { arguments throws(LuaError) in
                [try marshal.lua(try Runtime.callSwift(name, function, try marshal.swift(arguments)))]
            }
            try glue(held, "setGlobal", [.string(name), lua])
        }
    }

    /// Runs a registered function; its error as Lua raises it.
    private static func callSwift(_ name: String, _ function: Function, _ arguments: [ScriptValue]) throws(LuaError) -> ScriptValue {
        do {
            return try function(arguments)
        } catch let e as ScriptError {
            throw LuaError(message: e.message, traceback: e.traceback)
        } catch {
            throw LuaError(message: Catalogue.scriptFailed.message("\(Excerpt.text(name)) (a Swift function given to register) failed: \(Excerpt.text("\(error)")); throw a ScriptError (ScriptError(.badArgument, …)) to give the error a catalogued id of its own"))
        }
    }

    private static func checkGlobalName(_ name: String, _ method: String) throws(ScriptError) {
        guard !name.utf8.contains(0) else {
            throw ScriptError(.badArgument, "\(method): a global's name must be text without NUL bytes, got \(Excerpt.text(name.replacingNUL()))")
        }
    }
}

private extension String {
    func replacingNUL() -> String { split(separator: "\0", omittingEmptySubsequences: false).joined(separator: "\\0") }
}
