/* Lua's warnings as lua.c shows them: off until warn("@on"), "@on"/"@off" control messages,
   each message on stderr as "Lua warning: " + its pieces + newline. Finalizer errors are
   warnings too: shown only while warnings are on, and the host may take them first. */
#include "ckshims.h"
#include "ckinternal.h"
#include <stdlib.h>
#include <string.h>

static ck_warning_fn warning_handler = NULL;

/* The message being gathered (pieces sent with tocont), per process: one state warns at a time. */
static char *pending = NULL;
static size_t pending_length = 0, pending_capacity = 0;

static void warn_off(void *ud, const char *message, int tocont);
static void warn_on(void *ud, const char *message, int tocont);

/* "@on" / "@off" alone (not a continued piece) switch; other "@…" messages are ignored. */
static int is_control(lua_State *L, const char *message, int tocont) {
    if (tocont || message[0] != '@') return 0;
    if (strcmp(message + 1, "on") == 0) lua_setwarnf(L, warn_on, L);
    else if (strcmp(message + 1, "off") == 0) lua_setwarnf(L, warn_off, L);
    return 1;
}

static void warn_off(void *ud, const char *message, int tocont) {
    (void)is_control((lua_State *)ud, message, tocont);
}

static void append(const char *piece) {
    size_t n = strlen(piece);
    if (pending_length + n + 1 > pending_capacity) {
        size_t capacity = (pending_length + n + 1) * 2;
        char *grown = realloc(pending, capacity);
        if (grown == NULL) return;   /* out of memory: this piece is lost, the rest goes on */
        pending = grown;
        pending_capacity = capacity;
    }
    memcpy(pending + pending_length, piece, n);
    pending_length += n;
    pending[pending_length] = '\0';
}

static void warn_more(void *ud, const char *message, int tocont) {
    lua_State *L = (lua_State *)ud;
    append(message);
    if (tocont) {
        lua_setwarnf(L, warn_more, L);
        return;
    }
    lua_setwarnf(L, warn_on, L);
    const char *text = pending ? pending : "";
    int from_gc = strncmp(text, "error in ", 9) == 0;
    if (!(warning_handler && warning_handler(L, text, from_gc))) {
        fputs("Lua warning: ", stderr);
        fwrite(text, 1, pending_length, stderr);
        fputc('\n', stderr);
        fflush(stderr);
    }
    pending_length = 0;
}

static void warn_on(void *ud, const char *message, int tocont) {
    if (is_control((lua_State *)ud, message, tocont)) return;
    pending_length = 0;
    warn_more(ud, message, tocont);
}

void ck_set_warning_handler(lua_State *L, ck_warning_fn fn) {
    warning_handler = fn;
    lua_setwarnf(L, warn_off, L);
}
