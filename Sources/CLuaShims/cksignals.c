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

/* Runs the handler `before` names, if it names one (not SIG_DFL, SIG_IGN): a handler put in its
   place for a while passes the signal on. */
void cksignals_pass_on(const struct sigaction *before, int sig, siginfo_t *info, void *context) {
    if (before->sa_flags & SA_SIGINFO) {
        if (before->sa_sigaction) before->sa_sigaction(sig, info, context);
    } else if (before->sa_handler != SIG_DFL && before->sa_handler != SIG_IGN) {
        before->sa_handler(sig);
    }
}
