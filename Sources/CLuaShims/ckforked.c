/* A `ckrun test --jobs` worker (WorkerLoop.swift) must not outlive the parent that forked it:
   a parent ended by a signal sent to it alone (kill, a supervisor, an IDE) takes its workers,
   and the files they run, with it. */
#include "ckshims.h"
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

int ckforked_end_with_parent(int parent) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    /* The parent may have ended before the call, when nothing would send the signal. */
    return getppid() == parent ? 0 : -1;
}
