/* Lua's warnings as lua.c shows them: off until warn("@on"), "@on"/"@off" control messages,
   each message on stderr as "Lua warning: " + its pieces + newline. Finalizer errors are
   warnings too: shown only while warnings are on, and the host may take them first. */
#include "ckshims.h"
#include "ckinternal.h"
#include <stdlib.h>
#include <string.h>

static ck_warning_fn warning_handler = NULL;

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

/* The message being gathered (pieces sent with tocont) is the state's, and its bytes are
   counted as the state's (issue 24, class 5): `warn(s, s, ...)` with one 1 KB string 400,000
   times held 400 MB here under a 32 MB limit. A piece that would pass the limit is dropped and
   the message ends with CUT. A warning function cannot raise (a finalizer's error arrives here
   from the collector), so the message is cut rather than refused. */
static const char CUT[] = " [cut: the warning passed the memory limit]";

static void release_buffer(ck_extra *e) {
    ck_memory *m = e->memory;
    free(e->warning.text);
    m->used -= e->warning.capacity;
    memset(&e->warning, 0, sizeof e->warning);
}

static void append(ck_extra *e, const char *piece) {
    ck_warning_buffer *w = &e->warning;
    ck_memory *m = e->memory;
    size_t n = strlen(piece);
    if (w->cut) return;
    if (w->length + n + sizeof CUT > w->capacity) {
        size_t capacity = (w->length + n + sizeof CUT) * 2;
        size_t grows = capacity - w->capacity;
        char *grown = NULL;
        if (m->limit == 0 || m->used + m->held + grows <= m->limit) grown = realloc(w->text, capacity);
        if (grown == NULL) {   /* past the limit, or out of memory: the rest of the message is lost */
            w->cut = 1;
            if (w->text != NULL) memcpy(w->text + w->length, CUT, sizeof CUT);
            if (w->text != NULL) w->length += sizeof CUT - 1;
            return;
        }
        w->text = grown;
        w->capacity = capacity;
        m->used += grows;
    }
    memcpy(w->text + w->length, piece, n);
    w->length += n;
    w->text[w->length] = '\0';
}

static void warn_more(void *ud, const char *message, int tocont) {
    lua_State *L = (lua_State *)ud;
    ck_extra *e = ckinternal_extra_of(L);
    append(e, message);
    if (tocont) {
        lua_setwarnf(L, warn_more, L);
        return;
    }
    lua_setwarnf(L, warn_on, L);
    const char *text = e->warning.text ? e->warning.text : CUT + 1;
    size_t length = e->warning.text ? e->warning.length : sizeof CUT - 2;
    int from_gc = strncmp(text, "error in ", 9) == 0;
    if (!(warning_handler && warning_handler(L, text, from_gc))) {
        fputs("Lua warning: ", stderr);
        fwrite(text, 1, length, stderr);
        fputc('\n', stderr);
        fflush(stderr);
    }
    release_buffer(e);
}

static void warn_on(void *ud, const char *message, int tocont) {
    if (is_control((lua_State *)ud, message, tocont)) return;
    release_buffer(ckinternal_extra_of((lua_State *)ud));
    warn_more(ud, message, tocont);
}

void ckwarn_release(ck_extra *e) { release_buffer(e); }

void ckwarn_set_handler(lua_State *L, ck_warning_fn fn) {
    warning_handler = fn;
    lua_setwarnf(L, warn_off, L);
}
