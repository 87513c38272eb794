// C side of the Lua bridge: everything Swift cannot or must not do itself.
// Swift never raises a Lua error; it returns CK_RAISE and the trampoline raises
// after the Swift frame has returned, so no longjmp crosses a Swift frame.
#ifndef CKSHIMS_H
#define CKSHIMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

#include "cksend.h"

/// A Swift function returns this to ask the trampoline to raise the value on top of the stack.
#define CK_RAISE (-1)

// Macros Swift cannot import.
int ckmacros_registryindex(void);
int ckmacros_upvalueindex(int i);
void ckmacros_pop(lua_State *L, int n);
void ckmacros_newtable(lua_State *L);
void ckmacros_remove(lua_State *L, int idx);
void ckmacros_insert(lua_State *L, int idx);
void ckmacros_replace(lua_State *L, int idx);
const char *ckmacros_tostring(lua_State *L, int idx, size_t *len);
int ckmacros_string_equals(lua_State *L, int idx, const void *bytes, size_t len);
int ckmacros_isnoneornil(lua_State *L, int idx);
int ckmacros_mainthreadindex(void);
/// `t[k]` without metamethods, for the table at `idx`: pushes it and returns its type.
int ckmacros_rawgetfield(lua_State *L, int idx, const char *k);
/// `t.key` without metamethods (props' key, read for every component made).
int ckmacros_rawgetkey(lua_State *L, int idx);

// Non-raising raw access for Swift (ckstack.c): a non-table reads as nil and ignores writes;
// keys carry their length. Each returns the type pushed, or 1 if it stored.
int ckstack_rawget_key(lua_State *L, int idx);                          /* key on top -> value */
int ckstack_rawget_named(lua_State *L, int idx, const char *k, size_t len);
int ckstack_rawset_named(lua_State *L, int idx, const char *k, size_t len);   /* value on top */
int ckstack_rawset_key(lua_State *L, int idx);                          /* key, value on top */
int ckstack_rawgeti_checked(lua_State *L, int idx, lua_Integer i);
int ckstack_rawseti_checked(lua_State *L, int idx, lua_Integer i);      /* value on top */
void ckstack_setglobal_raw(lua_State *L, const char *name, size_t len); /* value on top */
int ckstack_getglobal_raw(lua_State *L, const char *name, size_t len);
/// lua_checkstack, which never raises: 0 if the stack cannot grow by `n`.
int ckstack_checkstack(lua_State *L, int n);
/// How many items the list at `idx` has: t[1], t[2], ... up to the first nil (0 for a non-table).
/// The only length of a script's list anything may loop over or size by (`#t` is a border).
lua_Integer ckstack_list_length(lua_State *L, int idx);
size_t ckstack_raw_text(lua_State *L, int idx, char *buf, size_t size);   /* tostring of a non-string, no metamethods */
/// The byte size of the full userdata at `idx` (the caller knows it is one): sizes, never lengths.
static inline size_t ckshims_userdata_bytes(lua_State *L, int idx) { return lua_rawlen(L, idx); }

// Allocator accounting, per state. Allocation never fails while Swift code runs:
// an overshoot is recorded and raised by the trampoline once Swift has returned.
// Everything the state holds counts against `limit` (issue 24, class 5): Lua's blocks and the
// warning being gathered (`used`), and what Swift keeps for the script (`held`).
typedef struct ck_memory {
    size_t used;
    size_t peak;
    size_t limit;        // 0: unlimited
    int in_swift;         // > 0 while Swift runs (from creation; 0 while Lua runs under ckpcall_at)
    int exceeded;        // set when the limit was passed inside Swift code
    struct ck_pool *pool; // small blocks from size-class pools (ckpool.c); NULL: malloc
    size_t held;          // bytes Swift keeps on the script's behalf (Engine.hold / WorkLimits.hold)
    struct ck_extra *extra; // the state's shared block (NULL before it is made and after it is freed)
} ck_memory;

/// Whether the state holds more than its limit (Lua's bytes and Swift's held ones).
static inline int ckshims_over_limit(const ck_memory *m) { return m->limit != 0 && m->used + m->held > m->limit; }

/// `pooled`: the state's small blocks come from pools freed with it (for short-lived states),
/// unless it has a memory limit: a pool's free blocks serve one size class only, and per-class
/// peaks added up past the limit (400 MB under 32 MB), so a limited state uses malloc.
lua_State *ckstate_new(ck_memory *memory, int pooled);
void ckstate_close(lua_State *L);
/// The time limit of the finalizers lua_close runs (0: none).
void ckstate_set_close_limit(lua_State *L, double seconds);
ck_memory *ckstate_memory_of(lua_State *L);

/// The thread whose Swift function is running (the main thread outside them): saved and
/// restored in C around every Swift function and every protected call from Swift.
lua_State **ckstate_current_thread(lua_State *L);
/// For Swift entered from Lua other than through the trampoline (warnings): Swift mode on and
/// `L` current until ckstate_leave_swift restores both.
typedef struct ck_swift_frame { lua_State *thread; int in_swift; } ck_swift_frame;
void ckstate_enter_swift(lua_State *L, ck_swift_frame *frame);
void ckstate_leave_swift(lua_State *L, const ck_swift_frame *frame);

// The owner (the Swift LuaState) stored in the state's extra space; coroutines inherit it.
void ckstate_set_owner(lua_State *L, void *owner);
void *ckstate_get_owner(lua_State *L);

// The one Swift-function trampoline.
typedef int (*ck_dispatch_fn)(lua_State *L, int function_id);
void cktrampoline_set_dispatcher(ck_dispatch_fn fn);
/// `[yieldAcrossRuntime]`'s detail, raised by coroutine.yield (ckguards.c) and by a runtime call a yield broke (Swift).
#define CK_YIELD_ACROSS_RUNTIME "a coroutine yielded inside a render, handler or callback the runtime called; yield outside runtime calls, or use ck.after for delayed work"
void cktrampoline_push_swift_function(lua_State *L, int function_id);
int cktrampoline_swift_function_id(lua_State *L, int idx);   // -1 if not a Swift function
/* A Swift function Lua may collect: when it does, `fn` gets its id back (set once per process). */
typedef void (*ck_release_fn)(lua_State *L, int function_id);
void cktrampoline_set_releaser(ck_release_fn fn);
void cktrampoline_push_collectable_swift_function(lua_State *L, int function_id);

/// Pops a methods table and pushes an `__index` function: methods from the table, other
/// keys from the host function `fields_id(object, key)`.
void ckindex_push(lua_State *L, int fields_id);
void ckindex_push_keeping(lua_State *L, int refuse_id);
lua_Integer ckindex_name_id(lua_State *L, int index, int names_ref);
void ckindex_add_name(lua_State *L, int index, int names_ref, lua_Integer id);

// Protected calls: every call into Lua goes through here, with a traceback handler.
int ckpcall_traceback(lua_State *L);
// A handler's error value that was no string, kept by ckpcall_traceback for the Swift side to
// raise again as it is (ckpcall_error_value pushes it if `index` holds the text made of it).
int ckpcall_error_value(lua_State *L, int index);
void ckpcall_clear_error_value(lua_State *L);
int ckpcall(lua_State *L, int nargs, int nresults);
// lua_pcall with the message handler already at `msgh`.
int ckpcall_at(lua_State *L, int nargs, int nresults, int msgh);
// Loading (ckpcall.c): the only loaders of scripts' chunks. Once ckpcall_set_text_only was called
// (--sandbox), both load text only whatever `mode` says. Return the status, the chunk or the
// error on top.
int ckpcall_loadbuffer(lua_State *L, const char *buf, size_t len, const char *name, const char *mode);
/// luaL_loadfilex (a BOM and a `#` line skipped; NULL: standard input).
int ckpcall_loadfile(lua_State *L, const char *path);
void ckpcall_set_text_only(lua_State *L);
/// lua_load from a reader, in the loaders' mode (text only once ckpcall_set_text_only was called).
int ckpcall_load(lua_State *L, lua_Reader reader, void *data, const char *chunkname);
/// Bytecode this process dumped itself (CompiledChunks), loaded in any mode.
int ckpcall_load_trusted_bytecode(lua_State *L, const char *buf, size_t len, const char *name);
int ckpcall_openlibs(lua_State *L);
/// Which file a path named when it was read (ckmodules.c): a module compiled ahead is used only
/// while its path still names that file, unchanged.
typedef struct ck_file_identity {
    uint64_t device, inode;
    int64_t size, modified_seconds, modified_nanoseconds, changed_seconds, changed_nanoseconds;
} ck_file_identity;
/// 1 and `identity` when `path` names a regular file outside /proc and /sys (what --sandbox's
/// readable allows of a regular file); 0 otherwise.
int ckmodules_identity(const char *path, ck_file_identity *identity);
/// In a bare state (made text-only here): the Lua module `name` as `require`'s file searcher
/// finds it with the package.path a state's package library starts with, compiled. Pushes the
/// function and its file's path and returns 2, `identity` set (the same before and after it
/// was read); or pushes nothing and returns 0.
int ckmodules_compile(lua_State *L, const char *name, ck_file_identity *identity);
/* The registry key of the globals as they were before any script ran (ckpristine.c). */
#define CKPRISTINE_KEY "ckrun.pristine"
/* Takes that copy under pcall; LUA_OK, or an error (out of memory) on the stack. */
int ckpristine_take(lua_State *L);
/// Replaces pcall, xpcall and coroutine.close by guarded versions (ckguards.c).
int ckguards_install(lua_State *L);

// Operations that may run metamethods, each under pcall. On error the message
// replaces the result; the return value is the status.
int ckpcall_safe_gettable(lua_State *L, int idx);           // key on top -> value
int ckpcall_safe_getfield(lua_State *L, int idx, const char *k);
int ckpcall_safe_settable(lua_State *L, int idx);           // key, value on top -> nothing
int ckpcall_safe_tostring(lua_State *L, int idx);           // pushes luaL_tolstring result
int ckpcall_safe_next(lua_State *L, int idx);               // key on top -> key, value (1) or nothing (0)
int ckpcall_safe_equal(lua_State *L, int a, int b, int *result);

// Instruction-count watchdog: once the deadline passes, Lua code raises [timeout]
// at every check until the deadline is cleared (so a pcall in the script cannot swallow it).
/* ckalarm.c */
void ckalarm_set(double first, double interval);
void ckalarm_stop(void);
void ckalarm_unblock(int sig);
/// What the watchdog's last resort says held the thread past --timeout (Lua runs finalizers and
/// debug hooks with hooks off, and a C function never reaches one): the one wording, for C and Swift.
const char *ckwatchdog_unstoppable(void);
void ckwatchdog_set_deadline(lua_State *L, double seconds_from_now);
void ckwatchdog_clear_deadline(lua_State *L);
int ckwatchdog_deadline_passed(lua_State *L);
/// How many Ctrl-C errors the watchdog's hook has raised in this state (a call that drops its
/// error compares it before and after: `LuaStack.keepingInterrupt`; a plain script's Ctrl-C,
/// lua.c's, is raised once, and a pending one is raised again anyway).
unsigned ckwatchdog_interrupts_raised(lua_State *L);
/// Async-signal-safe: stop at the next check with [interrupted], which stays pending (raised at
/// every instruction of whatever thread runs) until the turn ends (`ckwatchdog_clear_interrupt`);
/// a plain script's "interrupted!" is lua.c's, raised once.
void ckwatchdog_interrupt(lua_State *L);
void ckwatchdog_clear_interrupt(lua_State *L);
/// The piece of code a raised Ctrl-C stopped has ended (ckrun test's next piece, a timer `.advance`
/// fired): its interruption with it; one that came and was not raised yet stays (ckinterruption.c).
void ckinterruption_end_raised(lua_State *L);
int ckstate_interrupt_pending(lua_State *L);   // a Ctrl-C in the turn running (Swift loops check it)
void ckwatchdog_interrupt_running(void);   // async-signal-safe, for SIGTERM: interrupts the state a turn watches, if any ("stopped by SIGTERM")
/// SIGINT now interrupts L as lua.c does (a second one ends the process); `as_lua`: the error is
/// lua.c's "interrupted!" rather than [interrupted]. Returns the mode it replaced, which unwatch
/// takes back with the previous handler.
int ckwatchdog_sigint_watch(lua_State *L, int as_lua);
void ckwatchdog_sigint_unwatch(int as_lua);
/// Runs `hook` (async-signal-safe) just before the process ends where nothing else can: the
/// watchdog's second tick, a second Ctrl-C during a turn (ckexithook.c). NULL: none.
void ckexithook_set(void (*hook)(void));
/// The signal ending the process while the hook runs: SIGALRM for the watchdog, SIGINT for a
/// second Ctrl-C; 0 before.
int ckexithook_signal(void);
/// Gives the terminal back for a read (`lending` 1, the other arguments NULL and 0), then takes
/// it again (`lending` 0) with the bytes the read got, `length` 0 when none or the terminal did
/// not echo them (the answer, to copy where the terminal showed the question).
typedef void (*ckstdin_lender)(int lending, const char *read, size_t length);
/// From now on the state's io.stdin (and the default input when it is that) reads descriptor 0
/// through a stream of ckrun's own, never C's stdin (ckstdin.c): call before the script reads.
/// `hook` non-NULL (the live view owns the terminal): a read calls it around the wait; NULL: it
/// reads as it is. A wait ends on a stop the watchdog has pending. Returns 0 when it could not.
int ckstdin_lend(lua_State *L, ckstdin_lender hook);
/// Whether `path` (NULL: standard input) is a pipe, FIFO or character device: bytes that come
/// once and may wait for their writer, which ckstream_loadfile reads (ckstream.c).
int ckstream_is_stream(const char *path);
/// luaL_loadfilex for such a file (NULL: standard input), read once as it comes, its waits ended
/// by a stop the watchdog has pending (--timeout's deadline): call inside a turn. A stop fails
/// the load with "[timeout] …"; other failures are "[cannotRead] …", as ckpcall_loadfile's.
int ckstream_loadfile(lua_State *L, const char *path);
/// At start: every signal sent from outside whose default ends the process has its default back
/// (the Swift runtime's backtracer took SIGQUIT as a crash); the faults keep the backtracer.
/// SIGQUIT then runs the hook above (the terminal given back) and ends the process by SIGQUIT.
void ckexithook_claim_signals(void);
/// At start, after ckexithook_claim_signals: a fault (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP,
/// SIGABRT, SIGSYS) first writes "[crashed] signal N" and the note below to standard error, then
/// reaches the action found at start (the Swift runtime's backtracer) as it would have (ckcrash.c).
void ckcrash_install(void);
/// The rest of that line (after the signal's number, up to 2 KB), rendered now: what is running;
/// the test a serial run started last goes in at `cut`. Length 0: nothing is written.
void ckcrash_note(const char *text, size_t length, size_t cut);
/// The test started now: a string that stays while the note does (NULL: none). A pointer store.
void ckcrash_note_test(const char *name);
/// While the watchdog's last resort runs its hook: "file:line: " of the innermost script line of
/// the thread it ended ("" when none), for the message that reports it.
const char *cklastresort_where(void);
/// The name in front of the lines ckrun writes as its own from C: argv[0] ("ckrun" when empty),
/// as `ProgramName.shown` has it in Swift.
const char *cklastresort_program(void);
/// Async-signal-safe: writes "NAME: " (`cklastresort_program`) on `fd`, for a hook.
void cklastresort_write_program(int fd);

// The stand-alone interpreter (lua.c's behaviour), see ckluamain.c.
/// Calls the function below `nargs` arguments as lua.c does: lua.c's message handler, Ctrl-C
/// watched, one C level below the chunk (tracebacks end with "[C]: in ?").
int ckluamain_docall(lua_State *L, int nargs, int nresults);
/// Writes "Lua 5.4.x  Copyright (C) ..." and a newline to stdout.
void ckluamain_print_version(void);
/// Pushes the default package.path and package.cpath (as with LUA_NOENV); returns 0 if it cannot.
int ckluamain_default_paths(lua_State *L);
/// lua.c's REPL on a pipe, step by step (ckluarepl.c). Pushes the prompt (`_PROMPT`, or
/// `_PROMPT2` for a continuation line) as a string, its __tostring run protected and under the
/// SIGINT watch; the status, the prompt or the error on top.
int ckluarepl_prompt(lua_State *L, int first);
/// Reads a line of standard input without its newline and echoes it to stdout (as readline
/// does on a pipe); a malloc'd buffer (free it), or NULL at the end of input. No Lua runs.
char *ckluarepl_getline(size_t *length);
/// The status ckluarepl_compile returns while a statement goes on on the next line.
#define CK_REPL_INCOMPLETE (-3)
/// Compiles a line (the stack empty: a first line, tried as `return line;` first) or a
/// continuation (the stack holds the text so far; line NULL at the end of input). Leaves the
/// chunk (LUA_OK), the text so far (CK_REPL_INCOMPLETE) or the error (any other status) on top.
int ckluarepl_compile(lua_State *L, const char *line, size_t length);
/// Prints the values on the stack above `base` with the global print, as lua.c's REPL does;
/// returns -2 with the error pushed when looking `print` up failed (lua.c ends there), else 0.
int ckluarepl_print(lua_State *L, int base);

/// `-l g=mod` as lua.c does it (require, then set the global), metamethods run protected.
int ckluamain_dolibrary(lua_State *L, const char *global, const char *module, size_t module_len);
/// `lua_getglobal` under a protected call: the status, and the value or the error on top.
int ckluamain_getglobal(lua_State *L, const char *name);

/// Receives whole Lua warnings while warnings are on; `is_finalizer_error` for errors in __gc.
/// Returns 1 if it took the message, 0 to have it printed as lua.c prints it.
typedef int (*ck_warning_fn)(lua_State *L, const char *message, int is_finalizer_error);
void ckwarn_set_handler(lua_State *L, ck_warning_fn fn);

// Handles: a userdata {int32 slot, int32 kind, int32 keys} with its kind's metatable, kept in a
// weak-valued table by slot so that one runtime object is one Lua value. `keys`: for a component
// handle carrying its props (CK_COMPONENT_PROPS), their number of keys plus one (0: not counted).
// (Twelve bytes take the same malloc block as eight with a handle's user values.)
#define CK_HANDLE_SIZE (3 * sizeof(int32_t))
#define CK_HANDLE_KEYS 2
/// Pushes the handle `weak_ref[slot]` and returns 1, or pushes nothing and returns 0.
int ckhandles_push_live(lua_State *L, int weak_ref, lua_Integer slot);
/// The slot of the handle at `index` (its kind in `kind`), or 0 if the value is not a handle:
/// a userdata of a handle's size whose metatable is `metatables[kind]` (`kinds` of them).
int32_t ckhandles_at(lua_State *L, int index, const void *const *metatables, int32_t kinds, int32_t *kind);
/// A children list's common case in one pass (ChildLists): `next` over the table at `t`
/// (absolute) from the key on top, the entries 1, 2, … (each `*last` + 1, updated) each a
/// handle of `kind` (metatable `metatable`), whose slot goes to `slots`. Returns how many slots
/// it wrote; `*status` 0: done, the key popped; 1: `cap` written, the next key on top; -1: not
/// the common case (a hole, false, an index out of order, another value, a handle under another
/// key), the key popped: a hole makes the children's entries differ from their indices.
int ckhandles_list(lua_State *L, int t, const void *metatable, int32_t kind, int32_t *slots, int cap,
                   int64_t *last, int *status);
/// Replaces the table `weak_ref` by a copy holding its live entries, with its metatable: a Lua
/// table keeps the size it had at its peak, which a burst of handles made large.
void ckhandles_compact(lua_State *L, int weak_ref);
/// Pushes a new handle for `slot` and records it in `weak_ref`.
void ckhandles_push_new(lua_State *L, int weak_ref, int32_t slot, int32_t kind, int metatable_ref,
                        int user_values);
/// The same, the handle carrying the value at `arena` (an absolute index; 0: none) as user value
/// `arena_uv`, then moved to `dest` where the stack ends (0: left on top).
void ckhandles_push_new_owned(lua_State *L, int weak_ref, int32_t slot, int32_t kind, int metatable_ref,
                              int user_values, int arena, int arena_uv, int dest);

// Arenas (ckarenas.c): tables holding the script values the core keeps, found by id in the
// weak-valued table `index_ref`; slot 0 holds the id.
/// Pushes arena `id` and returns 1, or pushes nothing and returns 0 (collected, or being finalized).
int ckarenas_push(lua_State *L, int index_ref, lua_Integer id);
/// Makes Lua size the arena table (`pin`'s when pinned, else `id`'s) again for the slots it holds
/// now: a table keeps the size of its peak until a new key finds its hash part full, so new keys
/// (negative integers, never slots) go in until the heap's size changes (the resize), then out.
/// Returns 1 if it resized, 0 if `most` new keys did not make it, -1 inside a finalizer (where
/// lua_gc answers nothing) or if the table is gone.
int ckarenas_shrink(lua_State *L, int index_ref, lua_Integer id, int pin, lua_Integer most);
/// Pushes arena `id` found through user value `uv` of the handle at `handle` (absolute); 0
/// (nothing pushed) if that is another arena. For a finalizer that reads
/// a value of an arena the weak index let go of as it is finalized.
int ckarenas_refind(lua_State *L, int handle, int uv, lua_Integer id);
/// Pushes a new arena `id` with the arenas' metatable (its finalizer) and indexes it.
void ckarenas_new(lua_State *L, int index_ref, lua_Integer id, int metatable_ref);
/// Indexes the arena on top (kept there) as `id` again: a finalized arena Swift still needs.
void ckarenas_index_arena(lua_State *L, int index_ref, lua_Integer id);
/// Pushes arena `id` with the value at `value` (absolute) stored in its `slot`; returns 0 if the
/// arena is gone (nothing pushed). A construction's first step (Ownership.swift).
int ckarenas_open(lua_State *L, int index_ref, lua_Integer id, int value, lua_Integer slot);
/// Pops the top value into arena `id`'s `slot`; returns 0 if the arena is gone (the value stays).
int ckarenas_set(lua_State *L, int index_ref, lua_Integer id, lua_Integer slot);
/// Empties `slot` of arena `id`, if the arena is still there.
void ckarenas_clear(lua_State *L, int index_ref, lua_Integer id, lua_Integer slot);
/// Pushes `slot` of arena `id` (nil if the arena is gone) and returns its type.
int ckarenas_get(lua_State *L, int index_ref, lua_Integer id, lua_Integer slot);
/// The same for an arena pinned under registry key `pin` (one lookup fewer).
int ckarenas_pinned_get(lua_State *L, int pin, lua_Integer slot);
void ckarenas_pinned_set(lua_State *L, int pin, lua_Integer slot);
void ckarenas_pinned_open(lua_State *L, int pin, int value, lua_Integer slot);
void ckarenas_pinned_clear(lua_State *L, int pin, lua_Integer slot);
void ckarenas_pinned_set_handle_arena(lua_State *L, int handle, int uv, int pin);
void ckarenas_pinned_make_view(lua_State *L, int pin, lua_Integer props, lua_Integer cls, lua_Integer keep);
/// Takes arena `id` out of the index and drops its finalizer (Swift let go of it).
void ckarenas_forget(lua_State *L, int index_ref, lua_Integer id);
/// The id of the arena at `index` (0 if it is not one).
int ckarenas_is_plain_table(lua_State *L, int index);
int ckarenas_pinned_is_plain(lua_State *L, int pin, lua_Integer slot);
lua_Integer ckarenas_id(lua_State *L, int index);
/// Sets user value `uv` of the handle at `handle` to arena `id`; 0 if the arena is gone.
int ckarenas_set_handle_arena(lua_State *L, int handle, int uv, int index_ref, lua_Integer id);

// Component classes: a class handle's user value 1 is its scope function, if it has one; 2 the
// view its scope function is given (ckprops.c); 3 its instances by key, for `keep_id` (ckclass.c).
#define CK_CLASS_USER_VALUES 3
#define CK_CLASS_SCOPE_VIEW 2
#define CK_CLASS_KEEP 3
/// A component handle's user value 1 is its arena. The handle of an instance of a class that
/// keeps its instances by key has a second, its props table (ckclass.c compares the next props
/// with it before asking Swift); other components' handles have none (16 bytes a leaf).
#define CK_COMPONENT_USER_VALUES 2
#define CK_COMPONENT_PROPS 2
/// Pushes the `__call` of component classes (whose metatable is at `metatable`): host function
/// `plain_id(class, props)` for anything, `checked_id(class, props)` once the class handle and
/// the props (a table, a props view or nil) are checked, `computed_id(class, props, scope, key,
/// identifier)` once the class's scope function has run too (only while `state->render_depth` is
/// up). The scope function is given the class's scope view, showing the props for the call.
/// In a render, a class with a keep table and a props table with an integer or string `key` first
/// asks `keep_id(class, props, keep, key, instance)` about the instance last made or kept for
/// that key (1: it is the result), then calls `computed_id(class, props, keep, key, nil)` and
/// records what it returned under the key.
void ckclass_push_call(lua_State *L, int metatable, int plain_id, int checked_id, int computed_id,
                        int keep_id, const ck_callstate *state);
/// Gives the class handle at `cls` a keep table (weak values) if `keeps` and it has none, or
/// takes it away. Raw operations only.
void ckclass_set_keep(lua_State *L, int cls, int keeps);

// Props views (ckprops.c): read-only userdata that read through to a component's props.
/// Makes the views' shared metatable (once per state) and leaves it on the stack for Swift to pin.
void ckprops_open_views(lua_State *L);
void ckprops_use_metatable_key(lua_State *L, int key);
/// Replaces the class and props table on top by a new view of the props (errors name the class).
void ckprops_make_view(lua_State *L);
/// The same for a state table: its writes raise naming the state.
void ckprops_make_state_view(lua_State *L);
/// 1 if the value at `index` is a props (or state) view; "live": one that shows props (a scope
/// function's view shows none once its props are gone).
int ckprops_is_view(lua_State *L, int index);
int ckprops_is_live_view(lua_State *L, int index);
/// Replaces a props view at `index` by its props table and returns 1 (2 for a state view);
/// anything else stays (0).
int ckprops_table(lua_State *L, int index);
/* Raw shallow equality of the tables at a and b (same keys, raw-equal values): 1 equal, 0 not (or
   either is not a table), 2 equal but for pairs of different userdata (objects to compare). */
int ckcompare_shallow_equal(lua_State *L, int a, int b);
/// The same for a given table and a carried one whose keys were counted when it was built:
/// both tables at absolute indices, with 4 stack slots free (unchecked: class_call's case).
int ckcompare_shallow_equal_counted(lua_State *L, int given, int carried, long carried_keys);
/// The raw keys of the table at `t`; `*plain`: none of its keys and values reaches anything.
long ckcompare_count(lua_State *L, int t, int *plain);
/// Pushes a raw copy of the table at `attrs` and returns 1 if no value is a userdata and it has
/// at most `limit` keys; otherwise pushes nothing and returns 0 (ckviewspec.c).
int ckviewspec_plain_copy(lua_State *L, int attrs, int limit);
/// Pushes the raw `class` and `attributes` of the view spec table at `t`; returns the type of `class`.
int ckviewspec_fields(lua_State *L, int t);
/// Pushes the scope view of the class handle at `cls` (made on first use), reading the props
/// table at `props` (through its own metatable's weak `__index`: reads cost what a table's do);
/// `index_key` holds the string "__index".
void ckprops_lend_view(lua_State *L, int cls, int props, int index_key);

/// Lua functions: `f()` returns a monotonic time in seconds (the test runner's durations).
int ckrunner_lua_monotonic_clock(lua_State *L);
/* --sandbox: readable(path) -> true, or nil and why (cksandbox.c). */
int cksandbox_readable(lua_State *L);
/* --sandbox: forwarding(f) -> a C function calling f, so a tail call to it keeps the caller's line. */
int cksandbox_forwarding(lua_State *L);
int ckwatchdog_lua_check_deadline(lua_State *L);
/// ckrun test: `f(coroutine)` makes the table's create and wrap hook new coroutines with the
/// watchdog, so the main thread runs tests without a hook (ckwatchdog.c).
int ckcoroutines_lua_hook(lua_State *L);
/// In a child forked from a process that ran Lua: its signal actions are the defaults again.
void ckwatchdog_forked(void);
/// In a `--jobs` worker: killed when the runner `parent` that started it ends; -1 when it has
/// ended already (ckforked.c).
int ckforked_end_with_parent(int parent);
/// Replaces the traceback text on top of the stack by one without the frames of the REPL's own
/// chunk, "=(repl)" (ckreplframes.c; ckpcall_traceback calls it).
void ckreplframes_drop(lua_State *L);
/// ckrun test: `user_frame(level [, skip_luassert])` → short_src, currentline of the first frame
/// outside the runner (ckframes.c); `errorlevel(level)` is luassert's util.errorlevel.
int ckframes_lua_user_frame(lua_State *L);
int ckframes_lua_errorlevel(lua_State *L);
/// Whether a hook's event is in the test runner's own code, or in ckrun's message handler (ckwatchdog.c's hook lets both run past a deadline).
int ckframes_in_runner(lua_State *L, lua_Debug *ar);
int ckframes_in_message_handler(lua_State *L, lua_Debug *ar);
/// ckrun test (ckrunner.c): `turn(seconds [, runner])` sets the time limit of the code about to
/// run (nil: none) and its memory limit (the runner's own code: a reserve past --memory-limit);
/// `record(...)` keeps a record of its arguments (a test's: name, line, status, output, seconds,
/// message, traceback, own, descriptor) outside the Lua heap, as ResultRecords (ckrunner_records_bytes).
int ckrunner_lua_turn(lua_State *L);
int ckrunner_lua_record(lua_State *L);
size_t ckrunner_records_length(lua_State *L);
void ckrunner_records_clear(lua_State *L);
const unsigned char *ckrunner_records_bytes(lua_State *L);
/// What ckrun test hands on from where it cannot call Swift (ckhandoff.c): the whole records
/// kept so far (`*bytes`, and the count returned), safe from another thread; under --jobs, a
/// worker that gets `signal` writes `prefix`, the shared state's whole records and a newline to
/// `fd`; `note_exit(message, status)` notes an os.exit's status, and keeps one a finalizer called as its state closed.
size_t ckhandoff_whole_records(lua_State *L, const unsigned char **bytes);
void ckhandoff_share_on(int signal, int fd, const char *prefix, size_t length);
void ckhandoff_share(lua_State *L);
void ckhandoff_write_shared(void);
int ckhandoff_lua_note_exit(lua_State *L);
const char *ckhandoff_take_closing_exit(void);
int ckhandoff_take_exit_status(void);
/// ResultRecords' one escaper: `s` as a field (ended by 0x1F) into `out` (2 * n + 1 bytes at least).
size_t ckrunner_escape_field(const char *s, size_t n, unsigned char *out);

/// Bytes malloc has handed out (Lua and Swift together), for benchmarks.
size_t ckalloc_heap_bytes(void);
/// Has glibc merge the small blocks freed since its last merge now, for benchmarks.
void ckalloc_settle_heap(void);
/// Keeps freed memory in the heap for reuse: blocks from 32 MiB mapped, the heap trimmed past 64 MiB.
void ckalloc_keep_freed_memory(void);
/// `[memoryLimit] file:line: …`: the catalogued message of the state's memory error, naming the
/// script line that was running when an allocation passed the limit (noted then, since Lua
/// runs no message handler for LUA_ERRMEM), else `thread`'s innermost script line (NULL: none).
/// The note is used up. The text lives in the state's block until the next call.
const char *ckalloc_limit_message(lua_State *L, lua_State *thread);
int ckalloc_lua_struck_place(lua_State *L);

void ckstate_gc_collect(lua_State *L);
void ckstate_gc_generational(lua_State *L);
void ckstate_gc_incremental(lua_State *L);
int ckstate_gc_count_kb(lua_State *L);
void ckstate_gc_debt_kb(lua_State *L, int kb);

/// C's standard streams, which Swift 6 cannot name.
#include <stdio.h>
FILE *ckmacros_stdout(void);
FILE *ckmacros_stderr(void);

#endif
