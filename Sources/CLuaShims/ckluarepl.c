/* lua.c's REPL when standard input is not a terminal (`-i` in a pipe), cut into steps so that
   Swift runs each step that can run a script's code (the prompt's __tostring, the chunk, the
   printing) as a turn, and the blocking read outside any time limit. */
#include "ckshims.h"
#include "ckinternal.h"
#include <stdlib.h>
#include <string.h>

/* Protected: pushes _PROMPT (first line) or _PROMPT2 (a continuation) as a string. */
static int prompt_protected(lua_State *L) {
    int first = lua_toboolean(L, 1);
    if (lua_getglobal(L, first ? "_PROMPT" : "_PROMPT2") == LUA_TNIL) {
        lua_pushstring(L, first ? "> " : ">> ");
        return 1;
    }
    luaL_tolstring(L, -1, NULL);
    return 1;
}

int ckluarepl_prompt(lua_State *L, int first) {
    lua_pushcfunction(L, prompt_protected);
    lua_pushboolean(L, first);
    int as_lua = ckwatchdog_sigint_watch(L, 1);
    int status = ckpcall_at(L, 1, 1, 0);
    ckwatchdog_sigint_unwatch(as_lua);
    return status;
}

char *ckluarepl_getline(size_t *length) {
    char *line = NULL;
    size_t capacity = 0;
    ssize_t n = getline(&line, &capacity, stdin);
    if (n < 0) {
        free(line);
        return NULL;
    }
    if (n > 0 && line[n - 1] == '\n') line[--n] = '\0';
    /* The line goes to stdout after its prompt, as readline (which Debian's lua uses) echoes
       input that does not come from a terminal, and flushed as readline flushes it: what the
       line's code writes to stderr comes after it. */
    fwrite(line, 1, (size_t)n, stdout);
    fputc('\n', stdout);
    fflush(stdout);
    *length = (size_t)n;
    return line;
}

/* A syntax error that ends at "<eof>": the statement goes on on the next line. */
static int is_incomplete(lua_State *L, int status) {
    size_t len;
    const char *msg;
    if (status != LUA_ERRSYNTAX) return 0;
    msg = lua_tolstring(L, -1, &len);
    return len >= 5 && strcmp(msg + len - 5, "<eof>") == 0;
}

/* Protected: (pending or nil, line or NULL, length). A first line compiles as `return line;`
   if it can; the status and the chunk, the error or the text still incomplete. */
static int compile_protected(lua_State *L) {
    const char *line = lua_touserdata(L, 2);
    size_t len = (size_t)lua_tointeger(L, 3);
    if (lua_isnil(L, 1)) {
        int equals = len > 0 && line[0] == '=';               /* Lua 5.2's "=expr" */
        if (equals) lua_pushliteral(L, "return ");
        lua_pushlstring(L, line + equals, len - (size_t)equals);
        if (equals) lua_concat(L, 2);                          /* 4: the line */
        lua_pushliteral(L, "return ");
        lua_pushvalue(L, 4);
        lua_pushliteral(L, ";");
        lua_concat(L, 3);
        size_t rlen;
        const char *as_return = lua_tolstring(L, -1, &rlen);
        if (ckpcall_loadbuffer(L, as_return, rlen, "=stdin", "bt") == LUA_OK) return lua_pushinteger(L, LUA_OK), 2;
        lua_settop(L, 4);
    } else if (line != NULL) {
        lua_pushvalue(L, 1);
        lua_pushliteral(L, "\n");
        lua_pushlstring(L, line, len);
        lua_concat(L, 3);
    } else {
        lua_pushvalue(L, 1);
    }
    size_t blen;
    const char *text = lua_tolstring(L, -1, &blen);
    int status = ckpcall_loadbuffer(L, text, blen, "=stdin", "bt");
    if (line != NULL && is_incomplete(L, status)) {
        lua_pop(L, 1);
        status = CK_REPL_INCOMPLETE;
    }
    lua_pushinteger(L, status);
    return 2;
}

int ckluarepl_compile(lua_State *L, const char *line, size_t length) {
    lua_pushcfunction(L, compile_protected);
    if (lua_gettop(L) > 1) lua_insert(L, -2);   /* the text pending from earlier lines */
    else lua_pushnil(L);
    lua_pushlightuserdata(L, (void *)line);
    lua_pushinteger(L, (lua_Integer)length);
    int status = ckpcall_at(L, 3, 2, 0);
    if (status != LUA_OK) return status;
    status = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
    return status;
}

int ckluarepl_print(lua_State *L, int base) {
    int n = lua_gettop(L) - base;
    if (n <= 0) return 0;
    if (!lua_checkstack(L, LUA_MINSTACK)) {
        lua_settop(L, base);
        fputs("too many results to print\n", stderr);
        return 0;
    }
    /* The lookup runs protected (a strict _G may raise; lua.c ends there, as ckrun does). */
    if (ckluamain_getglobal(L, "print") != LUA_OK) {
        lua_replace(L, base + 1);
        lua_settop(L, base + 1);
        return -2;
    }
    lua_insert(L, base + 1);
    if (ckpcall_at(L, n, 0, 0) != LUA_OK) {
        const char *why = lua_tostring(L, -1);
        fprintf(stderr, "error calling 'print' (%s)\n", why ? why : "?");
        fflush(stderr);
        lua_settop(L, base);
    }
    return 0;
}
