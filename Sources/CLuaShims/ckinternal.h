// Shared between the C files of the bridge; not part of its public header.
#ifndef CKINTERNAL_H
#define CKINTERNAL_H

#include <lua.h>
#include <lauxlib.h>
#include <signal.h>
#include <time.h>
#include <string.h>
#include <stdatomic.h>

/* A warning being gathered from its pieces (ckwarn.c); its capacity counts as the state's memory. */
typedef struct ck_warning_buffer {
    char *text;
    size_t length, capacity;
    int cut;              /* a piece would have passed the memory limit: the rest is dropped */
} ck_warning_buffer;

/* ckrun test's records of a file's tests (ckrunner.c): outside the Lua heap, counted against it.
   Another thread (a run's ending) or a signal handler reads them while the recording thread may
   be anywhere (ckhandoff.c): `bytes` and `whole` are published with release stores, a buffer the
   records outgrow is retired, not freed, until the state closes, and `whole` counts the bytes of
   the whole records only. */
#define CK_RECORDS_RETIRED 48
typedef struct ck_records {
    unsigned char *_Atomic bytes;
    size_t length, capacity;
    _Atomic size_t whole;
    unsigned char *retired[CK_RECORDS_RETIRED];
    size_t retired_count, retired_bytes;
} ck_records;

/* Ctrl-C in a turn: none; came (the hook raises it at the next instruction); raised, and pending
   until the turn ends (ckwatchdog_clear_interrupt, or the test runner's next piece of code): every
   instruction raises it again, on whatever thread runs, as past the deadline. A plain script's
   (lua.c's "interrupted!") is raised once and is none again. */
enum { CK_INTERRUPT_NONE = 0, CK_INTERRUPT_CAME = 1, CK_INTERRUPT_RAISED = 2 };

/* The extra space holds a pointer to this block, shared by every thread of the state. */
typedef struct ck_extra {
    void *owner;          /* the Swift LuaState that owns this state */
    ck_memory *memory;
    lua_State *current;
    int close_depth;      /* coroutine.close calls under way (ckthreads.c) */
    int swift_depth;      /* calls from Lua into Swift under way, nested (cktrampoline.c) */   /* the thread whose Swift function runs (the main thread outside them) */
    volatile sig_atomic_t interrupted;   /* CK_INTERRUPT_…: Ctrl-C (or SIGTERM) in the turn running */
    unsigned interrupts_raised; /* Ctrl-C errors the watchdog's hook raised (LuaStack.keepingInterrupt) */
    lua_State *volatile running;  /* the coroutine running Lua code (NULL: the main thread), kept by
                                     ckthreads.c; the watchdog's signal hooks it, whatever hook it was left */
    int has_deadline;
    int is_test_runner;   /* ckrun test's state: past the deadline the runner's own chunks finish their step
                             (ckwatchdog.c), and --coverage hooks each coroutine made (ckcoroutines.c) */
    struct timespec deadline;
    double close_seconds; /* the time limit of lua_close's finalizers (0: none) */
    volatile int closing; /* lua_close runs (ckstate_close): its finalizers run */
    int text_only;        /* --sandbox: ckpcall_loadbuffer and ckpcall_loadfile load text only */
    ck_warning_buffer warning;
    ck_records records;   /* ckrun test: the file's results so far */
    size_t user_limit;    /* ckrun test: --memory-limit, which the runner's own turns exceed by a reserve */
    int user_limit_saved;
    char struck[LUA_IDSIZE + 32];  /* "file:line: " running when an allocation passed the limit (ckalloc.c) */
    char timeout_struck[LUA_IDSIZE + 32];  /* "file:line: " where the time limit first struck (ckwatchdog.c) */
    char interrupt_message[LUA_IDSIZE + 64];  /* Ctrl-C's error as first raised, raised again unchanged (ckwatchdog.c) */
    char limit_message[LUA_IDSIZE + 200];
    int props_metatable;  /* registry key of the props views' metatable (ckprops.c): rawgeti beats rawgetp */
} ck_extra;

static inline ck_extra *ckinternal_extra_of(lua_State *L) { return *(ck_extra **)lua_getextraspace(L); }
/// Pushes "file:line: " of the innermost Lua function from level 1 up ("" if none): where a C
/// function (a metamethod the table library called, a C stack overflow) was called from.
void ckwhere_script(lua_State *L);

/* Whether a chunk's source is one of the test runner's own ("=(ckrun test…"). */
static inline int ckinternal_is_runner_source(const char *source) { return strncmp(source, "=(ckrun test", 12) == 0; }

/* Whether a chunk's source is one of ckrun's own (the test runner's, the REPL's, the library's
   glue, the sandbox's, the searcher's): a place read from the stack for a message never names
   one ("[interrupted] (repl):640:" during .advance, sweep15). check-layout refuses a chunk name
   "=(…)" that Swift loads and this list lacks. */
static inline int ckinternal_is_own_source(const char *source) {
    static const char *const own[] = {"=(ckrun test", "=(repl)", "=(CKRuntime glue)", "=(sandbox)", "=(searcher)"};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (strncmp(source, own[i], strlen(own[i])) == 0) return 1;
    return 0;
}

/// The watchdog's count hook (ckwatchdog.c): raises [timeout] or [interrupted]; ckcoroutines.c
/// puts it on each coroutine ckrun test makes.
#define CK_HOOK_EVERY_INSTRUCTION (LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT)
void ckwatchdog_hook(lua_State *L, lua_Debug *ar);
/// Whether the error on top (raised with `status`) is the memory limit's, and that error made
/// the catalogued `[memoryLimit] …` (ckalloc.c).
int ckalloc_is_limit_error(lua_State *L, int status);
void ckalloc_catalogue_error(lua_State *L);
/// The guarded coroutine library and debug.sethook (ckthreads.c), into the tables given.
void ckthreads_install(lua_State *L, int table);
void ckthreads_install_sethook(lua_State *L, int table);
/// Whether the value at `idx` is the send path's C function (cksend.c), which runs a handler
/// from C: a yield in the handler cannot cross it.
int cksend_is_send(lua_State *L, int idx);
/// Ends a deadline without touching `L` (it may be closed): the timer stops, the handler forgets it.
void ckwatchdog_forget(lua_State *L);
/* cksignals.c: sets `sig`'s handler (or SIG_DFL) with an empty mask and `flags`; `old` (or NULL)
   receives the action it had. sigaction's result. */
int cksignals_handle(int sig, void (*handler)(int), int flags, struct sigaction *old);
int cksignals_handle_info(int sig, void (*handler)(int, siginfo_t *, void *), int flags);
void cksignals_pass_on(const struct sigaction *before, int sig, siginfo_t *info, void *context);
/// SIGALRM's handler: `on_tick` for the interval timer's own ticks only (ckalarm.c).
void ckalarm_handle(void (*on_tick)(int));

/* ckexithook.c: the hook (once), and what a first Ctrl-C leaves for the second. */
void ckexithook_run(int sig);
void (*ckexithook_second_sigint_handler(void))(int);
/// Whether another state's deadline is armed (one timer serves the process).
int ckwatchdog_busy(lua_State *L);
/// `L` is closing: the alarm's handler must not touch it (lua_close frees it meanwhile).
void ckwatchdog_closing(lua_State *L);

/// Whether a call from Lua into Swift may go deeper on this thread's C stack (ckcstack.c);
/// `left` and `size` in bytes (size 0: unknown bounds, never refused). Sets `ckcstack_floor`.
int ckcstack_has_room(size_t *left, size_t *size);
/// The lowest frame address from which a call may go deeper on this thread (UINTPTR_MAX until
/// ckcstack_has_room found the bounds; 0 when they are unknown): the send path's check is one
/// compare against it.
extern _Thread_local uintptr_t ckcstack_floor;

/// Each call nested from Lua into Swift is nested in a call from C into Lua, which Lua counts:
/// Lua 5.4 refuses the 200th (LUAI_MAXCCALLS) first, as [stackLimit] (ckcstack_overflow_message).
/// A relay 190 handlers deep works (atk-ck3 05: 64 refused the 65th); this is a backstop.
#define CK_SWIFT_DEPTH_MAX 200
/// Raises [stackLimit] for a call `depth` calls deep (ckcstack_has_room decides, and finds the
/// bounds on a thread's first call).
void cktrampoline_refuse_depth(lua_State *L, int depth);
/// `msg`, or when it is Lua's own "C stack overflow" (too many nested C calls: renders, handlers
/// and sends calling each other), the [stackLimit] message it is, pushed (ckpcall_traceback).
const char *ckcstack_overflow_message(lua_State *L, const char *msg);

/// Raises [stackLimit] (the script's file:line) when a call from Lua into the runtime, `depth`
/// such calls deep, would nest too deep: a short C stack, or past a depth no program needs.
/// Inline: every send and every entry into Swift asks it.
static inline void ckinternal_check_call_depth(lua_State *L, int depth) {
    char here;
    if ((uintptr_t)&here > ckcstack_floor && depth < CK_SWIFT_DEPTH_MAX) return;
    cktrampoline_refuse_depth(L, depth);
}

/// Runs Swift function `id` on the current stack as if Lua had called it (its `file:line` is
/// the Lua caller's); raises what it asks to raise. Returns its result count.
int cktrampoline_call_swift(lua_State *L, int id);

/// The allocator every state is made with: counts bytes against ck_memory.limit.
void *ckalloc(void *ud, void *ptr, size_t osize, size_t nsize);

/// Memory kept for Swift once Lua's allocator fails (ckreserve.c): released when an allocation of
/// Lua's fails, taken again (when it can be) before Lua allocates again.
extern int ckreserve_released_flag;
static inline int ckinternal_reserve_released(void) { return __atomic_load_n(&ckreserve_released_flag, __ATOMIC_ACQUIRE); }
void ckreserve_release(void);
int ckreserve_retake(void);

/// Size-class pools (ckpool.c): a block's size is given back when it is released or resized.
typedef struct ck_pool ck_pool;
ck_pool *ckpool_new(void);
void ckpool_free(ck_pool *pool);
void *ckpool_realloc(ck_pool *pool, void *ptr, size_t old, size_t nsize);
void ckpool_release(ck_pool *pool, void *ptr, size_t old);

/// Frees a state's warning buffer (ckwarn.c) once lua_close has run the last finalizer.
void ckwarn_release(ck_extra *e);
/// Frees the runner's records of a closing state (ckrunner.c).
void ckrunner_records_free(ck_extra *e);

/// The xpcall scripts call, whose message handler is its frame's second slot (set by ckguards.c).
void cktimeout_set_xpcall(lua_CFunction xpcall);
/// Raises "[timeout] file:line: detail" from the watchdog's hook (cktimeout.c).
int cktimeout_raise(lua_State *L, const char *detail);
/// Raises the error on top again past the script's xpcall handlers (Ctrl-C's, pending: cktimeout.c).
int cktimeout_raise_again(lua_State *L);
void cklastresort_end(lua_State *L, int sig, const char *head, const char *detail, int status);
/// Ctrl-C's error pushed and kept where it first struck; raised again unchanged (ckinterruption.c).
void ckinterruption_make(lua_State *L, int as_lua, const char *cause);
int ckinterruption_raise_again(lua_State *L);

/// "file:line: " of the innermost Lua function with a line on `thread`, or "" (ckframes.c).
void ckframes_script_line(lua_State *thread, char *where, size_t size);

/// Keeps the C modules a closing state loaded loaded for the process's life (ckclibs.c).
void ckclibs_pin(lua_State *L);

/// Raises "[id] where: detail": the id first, as every ckrun error.
int cktrampoline_raise_catalogued(lua_State *L, const char *id, int level, const char *detail);

#endif
