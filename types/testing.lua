---@meta
-- LuaLS annotations for the globals `ckrun test` provides (busted's spec language and luassert).
-- Tests/lua/types_spec.lua checks that every global the test prelude defines is declared here.

---@param name string
---@param fn function
function describe(name, fn) end
---@param name string
---@param fn function
function context(name, fn) end
--- A describe block whose globals and `package.loaded` are restored after it.
---@param name string
---@param fn function
function insulate(name, fn) end
--- A describe block whose globals reach the enclosing block.
---@param name string
---@param fn function
function expose(name, fn) end
---@param name string
---@param fn? function
function it(name, fn) end
---@param name string
---@param fn? function
function spec(name, fn) end
---@param name string
---@param fn? function
function test(name, fn) end
---@param name string
---@param fn? function
function pending(name, fn) end
---@param fn function
function before_each(fn) end
---@param fn function
function after_each(fn) end
---@param fn function
function setup(fn) end
---@param fn function
function teardown(fn) end
---@param fn function
function lazy_setup(fn) end
---@param fn function
function lazy_teardown(fn) end
---@param fn function
function strict_setup(fn) end
---@param fn function
function strict_teardown(fn) end
--- Inside a test: runs `fn` after the test, whether it passed or not.
---@param fn function
function finally(fn) end
--- Inside a describe block: runs its tests in random order (a seed gives busted's order).
---@param enabled_or_seed? boolean|integer
---@param seed? integer
function randomize(enabled_or_seed, seed) end

---@class ckrun.Spy
---@field calls { vals: any[], refs: any[] }[]
---@field callback function
local Spy = {}
--- Puts back what the spy replaced (`spy.on`, `stub`): a class's method too.
function Spy:revert() end
--- Forgets the recorded calls.
function Spy:clear() end
---@param n? integer
---@return boolean
function Spy:called(n) end
---@return boolean
function Spy:called_with(...) end

---@class ckrun.Stub: ckrun.Spy
local Stub = {}
---@return ckrun.Stub
function Stub.returns(...) end
---@param fn function
---@return ckrun.Stub
function Stub.invokes(fn) end
---@return { returns: fun(...): ckrun.Stub, invokes: fun(fn: function): ckrun.Stub }
function Stub.on_call_with(...) end

---@class ckrun.SpyAssertion
---@field was { called: fun(n?: integer), called_with: fun(...), returned_with: fun(...), not_called: fun(), called_at_least: fun(n: integer), called_at_most: fun(n: integer) }
---@field was_not { called: fun(n?: integer), called_with: fun(...) }

---@class ckrun.Assert
---@field are { equal: fun(expected: any, actual: any, message?: string), same: fun(expected: any, actual: any, message?: string) }
---@field are_not { equal: fun(expected: any, actual: any, message?: string), same: fun(expected: any, actual: any, message?: string) }
---@field is_true fun(value: any, message?: string)
---@field is_false fun(value: any, message?: string)
---@field is_nil fun(value: any, message?: string)
---@field is_not_nil fun(value: any, message?: string)
---@field truthy fun(value: any, message?: string)
---@field falsy fun(value: any, message?: string)
---@field matches fun(pattern: string, actual: string, init?: integer, plain?: boolean, message?: string)
---@field has_error fun(fn: function, message?: string)
---@field error_matches fun(fn: function, pattern: string)
---@field spy fun(s: ckrun.Spy): ckrun.SpyAssertion
---@field stub fun(s: ckrun.Stub): ckrun.SpyAssertion
--- ckrun's snapshot of a component tree: `host:dump()` (or a string) against the test's entry in
--- `__snapshots__/<file>.snap`; `--update-snapshots` rewrites it.
---@field tree_snapshot fun(host_or_text: ck.Host|string, name?: string)
---@overload fun(value: any, message?: string, ...): any
assert = {}

---@class ckrun.SpyModule
---@overload fun(fn?: function): ckrun.Spy
spy = {}
--- Replaces `t[name]` by a spy that calls it: a table, a component or controller class (sends
--- call the spy), or a host responder's `methods`.
---@param t table|ck.ComponentClass|ck.ControllerClass
---@param name string
---@return ckrun.Spy
function spy.on(t, name) end
---@param fn? function
---@return ckrun.Spy
function spy.new(fn) end
---@param value any
---@return boolean
function spy.is_spy(value) end

--- `stub(t, name, ...)`: replaces `t[name]` by a function returning `...` that records its calls
--- (a component or controller class too: sends call the stub, not the method).
---@class ckrun.StubModule
---@overload fun(t: table|ck.ComponentClass|ck.ControllerClass, name: string, ...): ckrun.Stub
stub = {}
---@return ckrun.Stub
function stub.new(t, name, ...) end

--- `mock(t, dostub)`: a spy (or stub) on every function of `t`, or on every method of a class.
---@class ckrun.MockModule
---@overload fun(t: table|ck.ComponentClass|ck.ControllerClass, dostub?: boolean, fn?: function): table
mock = {}
function mock.revert(t) end
function mock.clear(t) end

--- luassert's argument matchers, for `called_with`: `match._`, `match.is_table()`,
--- `match.is_ref(x)`, `match.has_match(pattern)`, `match.is_not_nil()`, …
---@class ckrun.MatchModule
---@field _ any
---@field is_table fun(): any
---@field is_string fun(): any
---@field is_number fun(): any
---@field is_function fun(): any
---@field is_userdata fun(): any
---@field is_ref fun(value: any): any
---@field is_same fun(value: any): any
---@field is_equal fun(value: any): any
---@field is_truthy fun(): any
---@field is_not_nil fun(): any
---@field has_match fun(pattern: string): any
match = {}
