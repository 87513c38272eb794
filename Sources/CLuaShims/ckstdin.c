/* Standard input lent by whoever owns the terminal (the live view, whose keys leave no line
   ending a read could wait for): while a lender is set, the state's io.stdin, and the default
   input when it is io.stdin, read through a stream of ckrun's own. Before a read that would
   wait, it asks the lender to give the terminal back in line mode, and after, to take it again.
   Only what C's stdin holds is handed on, up to a line end, so nothing is read ahead past it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "ckshims.h"
#include <errno.h>
#include <stdio.h>
#include <lauxlib.h>
#include <lualib.h>

static void (*lender)(int lending) = NULL;
static FILE *lent_stream = NULL;

static int stdin_holds_bytes(void) { return stdin->_IO_read_ptr < stdin->_IO_read_end; }

static ssize_t lent_read(void *cookie, char *buf, size_t size) {
    (void)cookie;
    if (size == 0) return 0;
    void (*hook)(int) = stdin_holds_bytes() ? NULL : lender;
    if (hook != NULL) hook(1);
    size_t n = 0;
    int c = getc(stdin);
    while (c != EOF) {
        buf[n++] = (char)c;
        if (c == '\n' || n == size || !stdin_holds_bytes()) break;
        c = getc(stdin);
    }
    int failed = n == 0 && ferror(stdin), error = errno;
    if (failed) clearerr(stdin);
    if (hook != NULL) hook(0);
    if (!failed) return (ssize_t)n;
    errno = error;
    return -1;
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

int ckstdin_lend(lua_State *L, void (*hook)(int lending)) {
    if (hook != NULL && lent_stream == NULL) {
        cookie_io_functions_t functions = {lent_read, NULL, NULL, NULL};
        lent_stream = fopencookie(NULL, "r", functions);
        if (lent_stream == NULL) return 0;
    }
    if (lent_stream == NULL || !lua_checkstack(L, 3)) return 0;
    lender = hook;
    lua_pushcfunction(L, swap_streams);
    lua_pushlightuserdata(L, hook != NULL ? (void *)stdin : (void *)lent_stream);
    lua_pushlightuserdata(L, hook != NULL ? (void *)lent_stream : (void *)stdin);
    if (ckpcall(L, 2, 0) != LUA_OK) {
        lua_pop(L, 1);
        return 0;
    }
    return 1;
}
