/* A script's standard input on a terminal (under the live view too), read by ckrun itself:
   the state's io.stdin, and the default input when it is io.stdin, read through a stream of
   ckrun's own whose reads are read(2) on descriptor 0. The stream's buffer is the only one: C's stdin is not read, so
   no libc's internals are asked what it holds (a read that would wait is just one the stream's
   buffer could not serve). While a lender is set (the view owns the terminal: its keys leave no
   line ending a read could wait for), a read asks it to give the terminal back in line mode
   first, and to take it again after, with the bytes read (the answer, for the view's output
   pane). A line-mode terminal hands over one line a read, so nothing is read past it. The wait
   ends on a stop the watchdog has pending (--timeout, Ctrl-C, SIGTERM): the read fails with
   EINTR and the hook raises at the script's next instruction, as anywhere else in a turn.
   Everything else a read does is C's stdin's on a terminal, as lua5.4 has it (own_read,
   own_seek): line buffered, so reading flushes a line-buffered stdout (a prompt written with
   io.write shows before the wait); a terminal left O_NONBLOCK answers EAGAIN at once; outside
   the terminal's foreground process group job control answers (EIO, or a stop by SIGTTIN);
   seeking is lseek's (ESPIPE). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "ckshims.h"
#include "ckinternal.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/select.h>
#include <termios.h>
#include <unistd.h>
#include <lauxlib.h>
#include <lualib.h>

static ckstdin_lender lender = NULL;
static FILE *own_stream = NULL;
/* The state whose scripts read the stream: its turn's stop ends a wait. */
static lua_State *reader = NULL;

/* The watchdog's hook would raise at the script's next instruction: --timeout's deadline passed,
   Ctrl-C or SIGTERM (the flags its signal handlers set). */
static int stop_pending(void) {
    return reader != NULL && (ckinternal_extra_of(reader)->interrupted || ckwatchdog_deadline_passed(reader));
}

/* The signals that stop a turn: blocked but for the wait itself, so one that comes between the
   check and the wait still ends the wait (pselect). */
static void stopping_signals(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGALRM);
    sigaddset(set, SIGTERM);
}

static int in_background(void);

/* Waits until descriptor 0 can be read without waiting, or job control answers a read of it
   (in_background); 0 when a stop is pending first (errno EINTR) or the wait failed. Other
   signals (a resize, SIGCONT after Ctrl-Z) wait on. */
static int wait_readable(void) {
    sigset_t stopping, previous;
    stopping_signals(&stopping);
    sigprocmask(SIG_BLOCK, &stopping, &previous);
    int ready = 0, error = 0;
    for (;;) {
        if (stop_pending()) {
            error = EINTR;
            break;
        }
        if (in_background()) {
            ready = 1;
            break;
        }
        fd_set in;
        FD_ZERO(&in);
        FD_SET(0, &in);
        int n = pselect(1, &in, NULL, NULL, NULL, &previous);
        if (n > 0) {
            ready = 1;
            break;
        }
        if (n < 0 && errno != EINTR) {
            error = errno;
            break;
        }
    }
    sigprocmask(SIG_SETMASK, &previous, NULL);
    errno = error;
    return ready;
}

/* Whether the terminal shows what is typed (a script may have turned echo off for a password). */
static int terminal_echoes(void) {
    struct termios modes;
    return tcgetattr(0, &modes) != 0 || (modes.c_lflag & ECHO) != 0;
}

/* Outside the terminal's foreground process group (a background job, one orphaned when its
   shell left) select would wait for keys that go to the foreground job, for ever: read(2) is
   asked at once, as C's stdin asks it, and job control answers, failing it with EIO (SIGTTIN
   ignored or blocked, an orphaned group) or stopping the group with SIGTTIN until `fg`. */
static int in_background(void) {
    pid_t foreground = tcgetpgrp(0);
    return foreground > 0 && foreground != getpgrp();
}

/* While a read waits, SIGCONT is caught without SA_RESTART (the handler it had runs too): a
   wait or a read that SIGCONT met, after `fg` or `bg`, fails with EINTR and the read asks
   again where the process now is (a read restarted in the foreground would wait where no
   turn's stop ends it; a wait in the background, for ever). */
static struct sigaction continued_before;

static void on_continued(int sig, siginfo_t *info, void *context) {
    cksignals_pass_on(&continued_before, sig, info, context);
}

static int catch_continued(void) {
    return sigaction(SIGCONT, NULL, &continued_before) == 0 && cksignals_handle_info(SIGCONT, on_continued, 0) == 0;
}

/* Whether descriptor 0 was left non-blocking (by another program sharing the terminal): C's
   stdin then answers EAGAIN when no line is there, and so does this stream. */
static int non_blocking(void) {
    int flags = fcntl(0, F_GETFL);
    return flags != -1 && (flags & O_NONBLOCK) != 0;
}

static ssize_t own_read(void *cookie, char *buf, size_t size) {
    (void)cookie;
    if (size == 0) return 0;
    ckstdin_lender hook = lender;
    if (hook != NULL) hook(1, NULL, 0);
    int caught = catch_continued();
    ssize_t n = -1;
    for (;;) {
        if (!non_blocking() && !wait_readable()) break;
        n = read(0, buf, size);
        if (n >= 0 || errno != EINTR || stop_pending()) break;
    }
    int error = errno;
    if (caught) sigaction(SIGCONT, &continued_before, NULL);
    if (hook != NULL) hook(0, buf, n > 0 && terminal_echoes() ? (size_t)n : 0);
    errno = error;
    return n;
}

/* lseek on descriptor 0, as C's stdin seeks: a terminal says ESPIPE (Illegal seek), and a
   flush of the stream with bytes read ahead ignores it, as glibc's does. */
static int own_seek(void *cookie, off64_t *position, int whence) {
    (void)cookie;
    off64_t at = lseek64(0, *position, whence);
    if (at == -1) return -1;
    *position = at;
    return 0;
}

/* The stream of the file handle at the top, if it is one; the handle popped. */
static void replace_stream(lua_State *L, FILE *from, FILE *to) {
    luaL_Stream *p = (luaL_Stream *)luaL_testudata(L, -1, LUA_FILEHANDLE);
    if (p != NULL && p->f == from) p->f = to;
    lua_pop(L, 1);
}

/* Protected (lua_pushstring may raise out of memory): raw reads only, no metamethod runs. */
static int swap_streams(lua_State *L) {
    FILE *from = (FILE *)lua_touserdata(L, 1), *to = (FILE *)lua_touserdata(L, 2);
    lua_pushstring(L, "_IO_input");
    lua_rawget(L, LUA_REGISTRYINDEX);
    replace_stream(L, from, to);
    lua_pushstring(L, LUA_LOADED_TABLE);
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (lua_type(L, -1) != LUA_TTABLE) return 0;
    lua_pushstring(L, LUA_IOLIBNAME);
    lua_rawget(L, -2);
    if (lua_type(L, -1) != LUA_TTABLE) return 0;
    lua_pushstring(L, "stdin");
    lua_rawget(L, -2);
    replace_stream(L, from, to);
    return 0;
}

int ckstdin_lend(lua_State *L, ckstdin_lender hook) {
    if (own_stream == NULL) {
        cookie_io_functions_t functions = {own_read, NULL, own_seek, NULL};
        own_stream = fopencookie(NULL, "r", functions);
        if (own_stream == NULL) return 0;
        /* Line buffered, as glibc makes C's stdin on a terminal: its reads then flush stdout
           when stdout is line buffered (a terminal's), as a read of C's stdin does. */
        setvbuf(own_stream, NULL, _IOLBF, BUFSIZ);
    }
    if (!lua_checkstack(L, 3)) return 0;
    lua_pushcfunction(L, swap_streams);
    lua_pushlightuserdata(L, (void *)stdin);
    lua_pushlightuserdata(L, (void *)own_stream);
    if (ckpcall(L, 2, 0) != LUA_OK) {
        lua_pop(L, 1);
        return 0;
    }
    lender = hook;
    reader = L;
    return 1;
}
