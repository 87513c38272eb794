/* A script's standard input under the live view, read by ckrun itself: the state's io.stdin,
   and the default input when it is io.stdin, read through a stream of ckrun's own whose reads
   are read(2) on descriptor 0. The stream's buffer is the only one: C's stdin is not read, so
   no libc's internals are asked what it holds (a read that would wait is just one the stream's
   buffer could not serve). While a lender is set (the view owns the terminal: its keys leave no
   line ending a read could wait for), a read asks it to give the terminal back in line mode
   first, and to take it again after, with the bytes read (the answer, for the view's output
   pane). A line-mode terminal hands over one line a read, so nothing is read past it. The wait
   ends on a stop the watchdog has pending (--timeout, Ctrl-C, SIGTERM): the read fails with
   EINTR and the hook raises at the script's next instruction, as anywhere else in a turn. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "ckshims.h"
#include "ckinternal.h"
#include <errno.h>
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

/* Waits until descriptor 0 can be read without waiting; 0 when a stop is pending first (errno
   EINTR) or the wait failed. Other signals (a resize, SIGCONT after Ctrl-Z) wait on. */
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

static ssize_t own_read(void *cookie, char *buf, size_t size) {
    (void)cookie;
    if (size == 0) return 0;
    ckstdin_lender hook = lender;
    if (hook != NULL) hook(1, NULL, 0);
    ssize_t n = -1;
    while (wait_readable()) {
        n = read(0, buf, size);
        if (n >= 0 || (errno != EINTR && errno != EAGAIN)) break;
    }
    int error = errno;
    if (hook != NULL) hook(0, buf, n > 0 && terminal_echoes() ? (size_t)n : 0);
    errno = error;
    return n;
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
        cookie_io_functions_t functions = {own_read, NULL, NULL, NULL};
        own_stream = fopencookie(NULL, "r", functions);
        if (own_stream == NULL) return 0;
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
