/* --timeout and Ctrl-C: a signal handler sets a hook, and the hook raises at the next instruction
   (the way lua.c stops a script), on the main thread and on the coroutine running (`running`,
   kept by ckthreads.c): a hook lives on one thread, and a script may have cleared that one's.
   Until then no thread is hooked: code runs at plain Lua's speed, in coroutines too. */
#include "ckshims.h"
#include "ckinternal.h"
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The state the signal handlers act on (one running state per process at a time). */
static lua_State *volatile signal_L = NULL;
/* The state lua_close is freeing (ckstate_close): the handler only compares it, never uses it. */
static lua_State *volatile closing_L = NULL;
/* Set once the deadline's timer fired; cleared when the host clears or sets a deadline. */
static volatile sig_atomic_t expired = 0;
/* Hook runs past the deadline let through for the runner's code (ckframes_in_runner); bounded, as a
   script can name a chunk like the runner's. */
static long runner_steps = 0;
#define RUNNER_STEPS_PAST_DEADLINE 100000
/* 1: Ctrl-C raises lua.c's "interrupted!"; 0: the catalogued [interrupted]. */
static volatile sig_atomic_t interrupt_as_lua = 0;
/* The interruption came from SIGTERM (ckwatchdog_interrupt_running), not Ctrl-C: say which; and
   the run ends: every instruction raises from then on, so a pcall loop cannot keep it going. */
static volatile sig_atomic_t interrupt_by_term = 0, terminating = 0;

/* Puts the hook that raises at the next instruction on the main thread and the coroutine running. */
static void hook_now(lua_State *L) {
    lua_State *co = ckinternal_extra_of(L)->running;
    lua_sethook(L, ckwatchdog_hook, CK_HOOK_EVERY_INSTRUCTION, 1);
    if (co != NULL) lua_sethook(co, ckwatchdog_hook, CK_HOOK_EVERY_INSTRUCTION, 1);
}

static const char timeout_detail[] =
    "the script ran past its time limit; find the loop that does not end, or raise --timeout";

/* The first raise of a Ctrl-C, where the script is. A plain script's is lua.c's, raised once
   (a script's xpcall handler sees it): a pcall that catches it goes on (and the second Ctrl-C
   ends the process). A turn of ckrun's keeps it pending until it ends, and its first raise
   passes the script's xpcall handlers as the time limit's does: Lua runs a handler with hooks
   off for an error a hook raised, so one that looped held the turn for good (atk-new3 04). */
static void raise_interruption(lua_State *L, ck_extra *e, int timed_out) {
    e->interrupted = interrupt_as_lua ? CK_INTERRUPT_NONE : CK_INTERRUPT_RAISED;
    int keep = !interrupt_as_lua || terminating || timed_out;
    lua_sethook(L, keep ? ckwatchdog_hook : NULL, keep ? LUA_MASKCOUNT : 0, 1);
    e->interrupts_raised++;
    ckinterruption_make(L, interrupt_as_lua, interrupt_by_term ? "stopped by SIGTERM" : "stopped by Ctrl-C");
    interrupt_by_term = 0;
    if (keep) cktimeout_raise_again(L);
    lua_error(L);
}

/* Nothing to stop (a coroutine hooked in a turn stopped before): unhooked, unless a signal came. */
static void unhook_idle(lua_State *L, ck_extra *e) {
    lua_sethook(L, NULL, 0, 0);
    if (e->interrupted != CK_INTERRUPT_NONE || (e->has_deadline && expired) || terminating)
        lua_sethook(L, ckwatchdog_hook, LUA_MASKCOUNT, 1);
}

void ckwatchdog_hook(lua_State *L, lua_Debug *ar) {
    ck_extra *e = ckinternal_extra_of(L);
    int timed_out = e->has_deadline && expired;
    if (e->interrupted == CK_INTERRUPT_CAME) raise_interruption(L, e, timed_out);
    if (!timed_out && !terminating && e->interrupted == CK_INTERRUPT_NONE) {
        unhook_idle(L, e);
        return;
    }
    /* The deadline passed, the run ends, or Ctrl-C was raised and its turn has not ended: every
       instruction raises from now on, so a pcall, coroutine.resume or wrap that caught the error
       cannot keep the turn going. */
    lua_sethook(L, ckwatchdog_hook, LUA_MASKCOUNT, 1);
    /* Not in the message handler of an error under way (the alarm's hook takes every event,
       and the handler's call is one): raised there, the bare [timeout] replaced the located
       error the handler was describing (a build's own, wrapped). Any other C function is
       stopped at its call as before (gsub calling string.upper for 30M characters). */
    if (ar->event == LUA_HOOKCALL && ckframes_in_message_handler(L, ar)) return;
    if (terminating) cktrampoline_raise_catalogued(L, "interrupted", 0, "stopped by SIGTERM");
    if (e->is_test_runner && runner_steps < RUNNER_STEPS_PAST_DEADLINE && ckframes_in_runner(L, ar)) {
        runner_steps++;
        return;
    }
    if (e->interrupted != CK_INTERRUPT_NONE) ckinterruption_raise_again(L);
    cktimeout_raise(L, timeout_detail);
}

/* SIGALRM: the first tick sets the hook. The hook raises [timeout] in the code that overran, the
   error reaches the host and the host clears the deadline (or sets the next one), which ends
   `expired`. A later tick that finds the same deadline still expired means the code that overran
   never stopped: a C function (a pathological string.find), a finalizer or a debug hook (Lua runs
   __gc and hook functions with hooks off) holds the thread, and nothing can raise there, so the process ends with the
   [timeout] message, as a second Ctrl-C ends lua. Hook runs elsewhere prove nothing: a finalizer
   that loops resuming hooked coroutines (each stopped, each error caught) never stops itself. */
#define UNSTOPPABLE "a C function, a finalizer (__gc) or a debug hook ran past the time limit and cannot be stopped"

const char *ckwatchdog_unstoppable(void) { return UNSTOPPABLE; }

static _Thread_local int prepared = 0;

/* SIGTERM's bounded end: armed when it stopped a turn (ckwatchdog_interrupt_running). */
static volatile sig_atomic_t term_grace_armed = 0;
#define TERM_GRACE_SECONDS 2.0

/* SIGTERM came and the turn it stopped did not end (in time, or a second one came). */
static void end_by_sigterm(void) {
    lua_State *L = signal_L;
    cklastresort_end(L != closing_L ? L : NULL, SIGTERM, "[interrupted] ",
                     "stopped by SIGTERM, but a C function, a finalizer (__gc) or a debug hook held "
                     "the turn and it did not stop; the process ends\n", 128 + SIGTERM);
}

static void on_alarm(int sig) {
    (void)sig;
    if (term_grace_armed) end_by_sigterm();
    lua_State *L = signal_L;
    if (L == NULL) return;
    if (!expired) {
        expired = 1;
        if (L != closing_L) hook_now(L);
        return;
    }
    cklastresort_end(L, SIGALRM, "[timeout] ", UNSTOPPABLE "; the process ends\n", 1);
}

void ckwatchdog_forked(void) { prepared = 0; }

/* A deadline set or cleared (each timer of `.advance` is a turn with its own --timeout) keeps a
   stop under way: its hook, and SIGTERM's grace timer (sweep15 atk-react 15: SIGTERM ignored). */
static void keep_pending_stop(lua_State *L, ck_extra *e) { if (e->interrupted != CK_INTERRUPT_NONE || terminating) hook_now(L); }
void ckwatchdog_set_deadline(lua_State *L, double seconds) {
    ck_extra *e = ckinternal_extra_of(L);
    e->has_deadline = 1;
    e->timeout_struck[0] = '\0';
    expired = 0;
    runner_steps = 0;
    signal_L = L;
    /* Once per thread (ckrun test sets a deadline per test: two system calls fewer each), and
       again in a forked child, which starts with the default action (ckwatchdog_forked). */
    if (!prepared) {
        ckalarm_handle(on_alarm);
        ckalarm_unblock(SIGALRM);
        prepared = 1;
    }
    /* No thread carries a hook until the timer fires (then the main thread and the coroutine
       running get it, and a coroutine resumed later at its resume: ckthreads.c): any hook makes
       the VM trace every instruction of its thread, 1.8-2x slower. An expired limit's goes. */
    if (lua_gethook(L) == ckwatchdog_hook) lua_sethook(L, NULL, 0, 0);
    keep_pending_stop(L, e);
    if (!term_grace_armed) ckalarm_set(seconds, 1.0);
}

void ckwatchdog_forget(lua_State *L) {
    if (signal_L != L) return;
    ckalarm_stop();
    signal_L = NULL;
    closing_L = NULL;
    expired = 0;
}

void ckwatchdog_closing(lua_State *L) { closing_L = L; }

/* signal_L is never a closed state: ckstate_close forgets it. */
int ckwatchdog_busy(lua_State *L) {
    lua_State *S = signal_L;
    return S != NULL && S != L && ckinternal_extra_of(S)->has_deadline;
}

void ckwatchdog_clear_deadline(lua_State *L) {
    ck_extra *e = ckinternal_extra_of(L);
    if (!term_grace_armed) ckalarm_stop();
    e->has_deadline = 0;
    e->timeout_struck[0] = '\0';
    expired = 0;
    runner_steps = 0;   /* past a pending Ctrl-C too, the runner's next piece gets its steps */
    /* A hook the script set (luacov, a debugger) stays. */
    if (lua_gethook(L) == ckwatchdog_hook) lua_sethook(L, NULL, 0, 0);
    keep_pending_stop(L, e);
}

/* check_deadline(): raises [timeout] once the deadline passed; for a Lua hook that stands in
   for the watchdog's (--coverage's line hook on a coroutine). */
int ckwatchdog_lua_check_deadline(lua_State *L) {
    if (!ckwatchdog_deadline_passed(L)) return 0;
    return cktrampoline_raise_catalogued(L, "timeout", 2, timeout_detail);   /* the hooked function, past the hook */
}

int ckwatchdog_deadline_passed(lua_State *L) { return ckinternal_extra_of(L)->has_deadline && expired; }

unsigned ckwatchdog_interrupts_raised(lua_State *L) { return ckinternal_extra_of(L)->interrupts_raised; }

/* A Ctrl-C raised already stays as it was: pending, raised again with its first message. */
void ckwatchdog_interrupt(lua_State *L) {
    ck_extra *e = ckinternal_extra_of(L);
    if (e->interrupted == CK_INTERRUPT_NONE) e->interrupted = CK_INTERRUPT_CAME;
    hook_now(L);
}

/* lua.c's Ctrl-C: the first SIGINT sets the hook and restores the default action (after the exit
   hook, if one is set), so a second one ends the process (a C function that never returns
   cannot be stopped otherwise). */
static struct sigaction saved_sigint;
static int watching = 0;

static void on_sigint(int sig) {
    cksignals_handle(sig, ckexithook_second_sigint_handler(), 0, NULL);
    lua_State *L = signal_L;
    if (L != NULL) ckwatchdog_interrupt(L);
}

/* A SIGTERM during a turn stops it; every signal that ends the run has a bounded path that does
   not wait for the script: a second SIGTERM, or the turn still running TERM_GRACE_SECONDS
   later (held where no hook runs), ends the process (end_by_sigterm). A turn that ends clears
   the deadline, and the timer with it. */
void ckwatchdog_interrupt_running(void) {
    lua_State *L = signal_L;
    if (L == NULL) return;
    if (terminating) end_by_sigterm();
    interrupt_by_term = terminating = 1;
    ckwatchdog_interrupt(L);
    if (!prepared) ckalarm_handle(on_alarm);   /* sigint_watch unblocked SIGALRM: not here, in a handler */
    term_grace_armed = 1;
    ckalarm_set(TERM_GRACE_SECONDS, 1.0);
}

int ckwatchdog_sigint_watch(lua_State *L, int as_lua) {
    int previous = interrupt_as_lua;
    signal_L = L;
    interrupt_as_lua = as_lua;
    /* SA_RESTART as lua.c's signal(): a write Ctrl-C met goes on, not EINTR. */
    cksignals_handle(SIGINT, on_sigint, SA_RESTART, watching ? NULL : &saved_sigint);
    ckalarm_unblock(SIGINT);
    /* A parent may have blocked SIGALRM, which SIGTERM's bounded end needs too (a handler
       cannot unblock it: its mask is put back on return). */
    ckalarm_unblock(SIGALRM);
    watching++;
    return previous;
}

void ckwatchdog_sigint_unwatch(int as_lua) {
    interrupt_as_lua = as_lua;   /* the enclosing watch's way (an app's mount after its chunk) */
    if (watching == 0 || --watching > 0) return;
    sigaction(SIGINT, &saved_sigint, NULL);
}

void ckwatchdog_clear_interrupt(lua_State *L) {
    ck_extra *e = ckinternal_extra_of(L);
    e->interrupted = CK_INTERRUPT_NONE;
    if (e->has_deadline && expired) lua_sethook(L, ckwatchdog_hook, LUA_MASKCOUNT, 1);
    else if (lua_gethook(L) == ckwatchdog_hook) lua_sethook(L, NULL, 0, 0);   /* a script's own hook stays (luacov's) */
}
