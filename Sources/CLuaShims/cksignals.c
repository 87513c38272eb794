/* A signal's action, set the one way every C file here sets one: this handler (or SIG_DFL), no
   other signal blocked while it runs, `flags` (SA_RESTART: a read or write the signal met goes
   on rather than failing with EINTR). System calls only: the lowest layer. */
#include "ckshims.h"
#include "ckinternal.h"

int cksignals_handle(int sig, void (*handler)(int), int flags, struct sigaction *old) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    action.sa_flags = flags;
    sigemptyset(&action.sa_mask);
    return sigaction(sig, &action, old);
}

/* The same with a handler that reads the signal's origin (SA_SIGINFO). */
int cksignals_handle_info(int sig, void (*handler)(int, siginfo_t *, void *), int flags) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = handler;
    action.sa_flags = flags | SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    return sigaction(sig, &action, NULL);
}
