/* What `ckrun` needs from C to behave as the stand-alone `lua` (lua.c) does: its way of calling
   chunks and reporting their errors, its version line, its default paths and its REPL. The
   command line itself is read in Swift (Sources/CKRunCommands/Run). */
#include "ckshims.h"
#include "ckinternal.h"
#include <stdlib.h>
#include <string.h>

/* A string error gets a traceback; an object whose __tostring gives a string is shown as that
   string alone; anything else is named by its type, with a traceback. */
static int lua_style_handler(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* The C level the chunk runs on: lua.c runs every chunk from its main C function, so a
   traceback ends with that level ("[C]: in ?"). */
static int run_below(lua_State *L) {
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

int ck_lua_docall(lua_State *L, int nargs, int nresults) {
    int base = lua_gettop(L) - nargs;          /* the function */
    lua_pushcfunction(L, lua_style_handler);
    lua_insert(L, base);
    lua_pushcfunction(L, run_below);
    lua_insert(L, base + 1);                    /* handler, run_below, function, args */
    ck_sigint_watch(L, 1);
    int status = ck_pcall_at(L, nargs + 1, nresults, base);
    ck_sigint_unwatch();
    lua_remove(L, base);
    return status;
}

void ck_lua_print_version(void) {
    fputs(LUA_COPYRIGHT "\n", stdout);
    fflush(stdout);
}

int ck_lua_default_paths(lua_State *L) {
    lua_State *fresh = luaL_newstate();
    if (fresh == NULL) return 0;
    lua_pushboolean(fresh, 1);
    lua_setfield(fresh, LUA_REGISTRYINDEX, "LUA_NOENV");
    luaL_requiref(fresh, LUA_LOADLIBNAME, luaopen_package, 0);
    lua_getfield(fresh, -1, "path");
    lua_pushstring(L, lua_tostring(fresh, -1));
    lua_getfield(fresh, -2, "cpath");
    lua_pushstring(L, lua_tostring(fresh, -1));
    lua_close(fresh);
    return 1;
}

/* ---- The REPL of `lua -i` when standard input is not a terminal (Debian's lua, readline) ---- */

static const char *prompt(lua_State *L, int first) {
    if (lua_getglobal(L, first ? "_PROMPT" : "_PROMPT2") == LUA_TNIL) {
        lua_pop(L, 1);
        lua_pushstring(L, first ? "> " : ">> ");
    } else {
        luaL_tolstring(L, -1, NULL);
        lua_remove(L, -2);
    }
    return lua_tostring(L, -1);
}

/* Shows the prompt and pushes the next line without its newline; 0 at the end of input. */
static int next_line(lua_State *L, int first) {
    fputs(prompt(L, first), stdout);
    fflush(stdout);
    lua_pop(L, 1);
    char *line = NULL;
    size_t capacity = 0;
    ssize_t n = getline(&line, &capacity, stdin);
    if (n < 0) {
        free(line);
        return 0;
    }
    if (n > 0 && line[n - 1] == '\n') line[--n] = '\0';
    /* The line goes to stdout after its prompt, as readline (which Debian's lua uses) echoes
       input that does not come from a terminal. */
    fwrite(line, 1, (size_t)n, stdout);
    fputc('\n', stdout);
    if (first && line[0] == '=') lua_pushfstring(L, "return %s", line + 1);   /* Lua 5.2's "=expr" */
    else lua_pushlstring(L, line, (size_t)n);
    free(line);
    return 1;
}

/* A syntax error that ends at "<eof>": the statement goes on on the next line. */
static int is_incomplete(lua_State *L, int status) {
    size_t len;
    const char *msg;
    if (status != LUA_ERRSYNTAX) return 0;
    msg = lua_tolstring(L, -1, &len);
    return len >= 5 && strcmp(msg + len - 5, "<eof>") == 0;
}

/* Stack: line. Leaves the chunk or the error in place of the line; returns the status. */
static int compile_input(lua_State *L) {
    size_t len;
    const char *line = lua_tolstring(L, -1, &len);
    const char *as_return = lua_pushfstring(L, "return %s;", line);
    if (ck_loadbuffer(L, as_return, strlen(as_return), "=stdin", "bt") == LUA_OK) {
        lua_remove(L, -2);
        lua_remove(L, -2);
        return LUA_OK;
    }
    lua_pop(L, 2);
    for (;;) {
        line = lua_tolstring(L, -1, &len);
        int status = ck_loadbuffer(L, line, len, "=stdin", "bt");
        if (!is_incomplete(L, status)) {
            lua_remove(L, -2);
            return status;
        }
        lua_pop(L, 1);
        if (!next_line(L, 0)) {
            line = lua_tolstring(L, -1, &len);
            status = ck_loadbuffer(L, line, len, "=stdin", "bt");
            lua_remove(L, -2);
            return status;
        }
        lua_pushliteral(L, "\n");
        lua_insert(L, -2);
        lua_concat(L, 3);
    }
}

static int read_protected(lua_State *L) {
    if (!next_line(L, 1)) {
        lua_pushinteger(L, -1);
        return 1;
    }
    int status = compile_input(L);
    lua_pushinteger(L, status);
    return 2;
}

int ck_lua_repl_read(lua_State *L) {
    int base = lua_gettop(L);
    lua_pushcfunction(L, read_protected);
    int status = lua_pcall(L, 0, LUA_MULTRET, 0);
    if (status != LUA_OK) return -2;   /* the error on top: the _PROMPT lookup or its __tostring
                                          failed, and lua.c ends there */
    status = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
    if (status == -1) lua_settop(L, base);
    return status;
}

int ck_lua_repl_print(lua_State *L, int base) {
    int n = lua_gettop(L) - base;
    if (n <= 0) return 0;
    if (!lua_checkstack(L, LUA_MINSTACK)) {
        lua_settop(L, base);
        fputs("too many results to print\n", stderr);
        return 0;
    }
    /* The lookup runs protected (a strict _G may raise; lua.c ends there, as ckrun does). */
    if (ck_lua_getglobal(L, "print") != LUA_OK) {
        lua_replace(L, base + 1);
        lua_settop(L, base + 1);
        return -2;
    }
    lua_insert(L, base + 1);
    if (ck_pcall_at(L, n, 0, 0) != LUA_OK) {
        const char *why = lua_tostring(L, -1);
        fprintf(stderr, "error calling 'print' (%s)\n", why ? why : "?");
        fflush(stderr);
        lua_settop(L, base);
    }
    return 0;
}

/* `-l g=mod`: lua.c's dolibrary, each step that can run a script's metamethods (`_G` with
   __index or __newindex) under a protected call. The error, if any, is left on the stack. */
static int set_global(lua_State *L) {      /* value name */
    lua_pushvalue(L, 1);
    lua_setglobal(L, lua_tostring(L, 2));
    return 0;
}

int ck_lua_dolibrary(lua_State *L, const char *global, const char *module, size_t module_len) {
    int status = ck_lua_getglobal(L, "require");
    if (status != LUA_OK) return status;
    lua_pushlstring(L, module, module_len);
    status = ck_lua_docall(L, 1, 1);
    if (status != LUA_OK) return status;
    lua_pushcfunction(L, set_global);
    lua_insert(L, -2);
    lua_pushstring(L, global);
    return lua_pcall(L, 2, 0, 0);
}

/* Pushes the global `name` as lua.c's lua_getglobal does, under a protected call; returns the
   status (the error on the stack if it failed). */
static int get_global(lua_State *L) {
    lua_getglobal(L, lua_tostring(L, 1));
    return 1;
}

int ck_lua_getglobal(lua_State *L, const char *name) {
    lua_pushcfunction(L, get_global);
    lua_pushstring(L, name);
    return lua_pcall(L, 1, 1, 0);
}
