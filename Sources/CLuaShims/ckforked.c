/* A `ckrun test --jobs` worker runs each file in a process it forks (ForkServer.swift); that
   process must not outlive the worker: a worker the parent ended (Ctrl-C, --fail-fast, a stopped
   or hung file) takes its file's process with it. */
#include "ckshims.h"
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

int ckforked_end_with_parent(int parent) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    /* The parent may have ended before the call, when nothing would send the signal. */
    return getppid() == parent ? 0 : -1;
}
