/* Lua's warnings, gathered into whole messages for the host. */
#include "ckshims.h"
#include "ckinternal.h"
#include <string.h>

/* Lua's warnings arrive in pieces; whole messages go to the host. Finalizer errors are always
   reported; messages from the script's warn() only after warn("@on"), as in lua.c. */
static ck_warning_fn warning_handler = NULL;
static char warn_buffer[2048];
static size_t warn_length = 0;
static int warn_on = 0;

static void ck_warnf(void *ud, const char *message, int tocont) {
    lua_State *L = (lua_State *)ud;
    if (warn_length == 0 && !tocont && message[0] == '@') {
        if (strcmp(message, "@on") == 0) warn_on = 1;
        else if (strcmp(message, "@off") == 0) warn_on = 0;
        return;
    }
    size_t n = strlen(message);
    if (warn_length + n >= sizeof(warn_buffer)) n = sizeof(warn_buffer) - warn_length - 1;
    memcpy(warn_buffer + warn_length, message, n);
    warn_length += n;
    warn_buffer[warn_length] = '\0';
    if (tocont) return;
    int is_gc = strncmp(warn_buffer, "error in ", 9) == 0;
    if (warning_handler && (is_gc || warn_on)) warning_handler(L, warn_buffer, is_gc);
    warn_length = 0;
}

void ck_set_warning_handler(lua_State *L, ck_warning_fn fn) {
    warning_handler = fn;
    lua_setwarnf(L, ck_warnf, L);
}
