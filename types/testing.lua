---@meta
-- LuaLS annotations for the globals `ckrun test` provides (busted's spec language).

---@param name string
---@param fn function
function describe(name, fn) end
---@param name string
---@param fn? function
function it(name, fn) end
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

---@class ckrun.Spy
---@field calls table[]
local Spy = {}
function Spy:revert() end

---@class ckrun.SpyAssertion
---@field was { called: fun(n?: integer), called_with: fun(...), not_called: fun() }

---@class ckrun.Assert
---@field are { equal: fun(expected: any, actual: any, message?: string), same: fun(expected: any, actual: any, message?: string) }
---@field are_not { equal: fun(expected: any, actual: any, message?: string), same: fun(expected: any, actual: any, message?: string) }
---@field is_true fun(value: any, message?: string)
---@field is_false fun(value: any, message?: string)
---@field is_nil fun(value: any, message?: string)
---@field is_not_nil fun(value: any, message?: string)
---@field has_error fun(fn: function, message?: string)
---@field error_matches fun(fn: function, pattern: string)
---@field spy fun(s: ckrun.Spy): ckrun.SpyAssertion
---@overload fun(value: any, message?: string, ...): any
assert = {}

---@class ckrun.SpyModule
spy = {}
---@param t table
---@param name string
---@return ckrun.Spy
function spy.on(t, name) end
---@param fn? function
---@return ckrun.Spy
function spy.new(fn) end
