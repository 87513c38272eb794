/* The last resort of a signal that ends the run when the code it stopped does not stop (held
   in C, a finalizer or a debug hook, where no hook runs): the one way the watchdog's second
   tick and SIGTERM's grace end the process, bounded, whatever the script does. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "ckshims.h"
#include "ckinternal.h"
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* "file:line: " where the last resort struck, for the hook that reports it (ckrun test). */
static char last_resort_where[512];

const char *cklastresort_where(void) { return last_resort_where; }

/* The name in front of the lines C writes as ckrun's own: argv[0] (glibc's copy, set before
   main), as ProgramName.shown has it in Swift; "ckrun" when it is empty. */
const char *cklastresort_program(void) {
    const char *name = program_invocation_name;
    return name != NULL && name[0] != '\0' ? name : "ckrun";
}

/* Async-signal-safe: "NAME: " on `fd`. */
void cklastresort_write_program(int fd) {
    const char *name = cklastresort_program();
    ssize_t w = write(fd, name, strlen(name));
    w = write(fd, ": ", 2);
    (void)w;
}

/* Where it struck (the innermost script line of the thread that runs: the caller of the C
   function, the finalizer's own line; held in C, its frames stay as read), the exit hook
   (what must be kept is written, as `sig` ends it), then the program's name, `head`, where
   and `detail` on stderr
   and _exit(`status`). `L` NULL or closing: no place. In a signal handler. */
void cklastresort_end(lua_State *L, int sig, const char *head, const char *detail, int status) {
    last_resort_where[0] = '\0';
    if (L != NULL) {
        lua_State *co = ckinternal_extra_of(L)->running;
        ckframes_script_line(co != NULL ? co : L, last_resort_where, sizeof last_resort_where);
        if (last_resort_where[0] == '\0' && co != NULL) ckframes_script_line(L, last_resort_where, sizeof last_resort_where);
    }
    ckexithook_run(sig);
    cklastresort_write_program(2);
    ssize_t w = write(2, head, strlen(head));
    w = write(2, last_resort_where, strlen(last_resort_where));
    w = write(2, detail, strlen(detail));
    (void)w;
    _exit(status);
}
