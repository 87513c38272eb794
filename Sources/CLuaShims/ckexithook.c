/* What runs just before the process ends where nothing else can: the watchdog's second tick
   under --timeout (a C function or a finalizer held the thread) and a second Ctrl-C during a
   turn. A full-screen view sets it to give the terminal back. */
#include "ckshims.h"
#include "ckinternal.h"
#include <signal.h>
#include <string.h>

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

/* The second Ctrl-C: the hook, then the default action (the process ends by SIGINT, which
   stays blocked until this handler returns). */
static void second_sigint(int sig) {
    ckexithook_run(sig);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
}

void (*ckexithook_second_sigint_handler(void))(int) { return exit_hook != NULL ? second_sigint : SIG_DFL; }
