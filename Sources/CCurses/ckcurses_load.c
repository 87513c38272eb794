/* ncursesw through dlopen: resolved once, when the live view first starts. */
#include "ckcurses.h"
#include "ckcurses_internal.h"
#include <dlfcn.h>

ck_curses_library ckcurses_load_library;

/* The wide build's soname (pkg-config ncursesw: -lncursesw); terminfo comes with it. */
static const char *const library_names[] = {"libncursesw.so.6", "libncursesw.so"};

static int resolve(void *lib) {
#define CK_RESOLVE(name) if ((*(void **)&ckcurses_load_library.name = dlsym(lib, #name)) == NULL) return 0;
    CK_CURSES_FUNCTIONS(CK_RESOLVE)
#undef CK_RESOLVE
    ckcurses_load_library.stdscr = dlsym(lib, "stdscr");
    ckcurses_load_library.wacs = dlsym(lib, "_nc_wacs");
    return ckcurses_load_library.stdscr != NULL && ckcurses_load_library.wacs != NULL;
}

int ckcurses_load(void) {
    static int tried = 0, loaded = 0;
    if (tried) return loaded;
    tried = 1;
    void *lib = NULL;
    for (unsigned i = 0; lib == NULL && i < sizeof library_names / sizeof *library_names; i++)
        lib = dlopen(library_names[i], RTLD_NOW | RTLD_LOCAL);
    loaded = lib != NULL && resolve(lib);
    return loaded;
}
