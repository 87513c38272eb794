/* What runs just before the process ends where nothing else can: the watchdog's second tick
   under --timeout (a C function, a finalizer or a debug hook held the thread), a second Ctrl-C during a
   turn, and Ctrl-\ (SIGQUIT) at any time. A full-screen view and the line editor set it to give
   the terminal back. */
#include "ckshims.h"
#include "ckinternal.h"
#include <signal.h>

static void (*volatile exit_hook)(void) = NULL;
static volatile sig_atomic_t ending_signal = 0;

void ckexithook_set(void (*hook)(void)) { exit_hook = hook; }

int ckexithook_signal(void) { return ending_signal; }

void ckexithook_run(int sig) {
    void (*hook)(void) = exit_hook;
    exit_hook = NULL;
    ending_signal = sig;
    if (hook != NULL) hook();
}

/* The second Ctrl-C, SIGQUIT: the hook, then the default action (the process ends by the
   signal, which stays blocked until this handler returns). */
static void end_by_signal(int sig) {
    ckexithook_run(sig);
    cksignals_handle(sig, SIG_DFL, 0, NULL);
    raise(sig);
}

void (*ckexithook_second_sigint_handler(void))(int) { return exit_hook != NULL ? end_by_signal : SIG_DFL; }

/* A signal raised by the process's own fault: what the Swift runtime's backtracer is for. */
static int is_fault(int sig) {
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP
        || sig == SIGABRT || sig == SIGSYS;
}

void ckexithook_claim_signals(void) {
    /* Handlers are not inherited across exec: one found at start is the Swift runtime's
       backtracer, which took SIGQUIT as a crash ("Program crashed", a 30 s prompt). Every signal
       another process or the terminal sends gets its default back; one ignored stays ignored
       (nohup). */
    for (int sig = 1; sig < NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP || is_fault(sig)) continue;
        struct sigaction old;
        if (sigaction(sig, NULL, &old) != 0) continue;
        if (old.sa_handler == SIG_DFL || old.sa_handler == SIG_IGN) continue;
        cksignals_handle(sig, SIG_DFL, 0, NULL);
    }
    struct sigaction old;
    if (sigaction(SIGQUIT, NULL, &old) != 0 || old.sa_handler == SIG_IGN) return;
    cksignals_handle(SIGQUIT, end_by_signal, 0, NULL);
}
