/* The ncursesw functions the live view uses, resolved from the library dlopen found. The header
   (libncurses-dev, wide build: pkg-config ncursesw's -D_XOPEN_SOURCE=600) gives their types;
   nothing here links against ncurses. */
#ifndef CKCURSES_INTERNAL_H
#define CKCURSES_INTERNAL_H

#include <curses.h>

#define CK_CURSES_FUNCTIONS(X) \
    X(newterm) X(set_term) X(endwin) X(isendwin) X(cbreak) X(noecho) X(nonl) X(keypad) \
    X(nodelay) X(intrflush) X(curs_set) X(has_colors) X(start_color) X(use_default_colors) \
    X(init_pair) X(mousemask) X(getmouse) X(mouseinterval) X(set_escdelay) X(wgetch) \
    X(resizeterm) X(werase) X(wmove) X(waddnstr) X(wadd_wchnstr) X(wattr_set) X(mvwhline_set) X(mvwvline_set) \
    X(mvwadd_wch) X(wnoutrefresh) X(doupdate) X(wrefresh) X(getmaxy) X(getmaxx) X(tigetstr) X(define_key) \
    X(def_prog_mode)

typedef struct {
#define CK_FIELD(name) __typeof__(name) *name;
    CK_CURSES_FUNCTIONS(CK_FIELD)
#undef CK_FIELD
    WINDOW **stdscr;
    cchar_t **wacs;
} ck_curses_library;

/* Filled by ckcurses_load; valid once it returned 1. */
extern ck_curses_library ckcurses_load_library;

/* A call through the table; the parentheses keep curses.h's function-like macros of the same
   names (wattr_set, getmaxy) from expanding. */
#define NC(name) (ckcurses_load_library.name)

/* The key codes the bracketed-paste marks are read as (ncurses' define_key: past its own keys). */
#define CK_CODE_PASTE_START (KEY_MAX + 1)
#define CK_CODE_PASTE_END (KEY_MAX + 2)
/* The codes Ctrl-Left and Ctrl-Right are read as (define_key of terminfo's kLFT5, kRIT5: ncurses
   gives extended keys codes of its own, which vary). */
#define CK_CODE_CONTROL_LEFT (KEY_MAX + 3)
#define CK_CODE_CONTROL_RIGHT (KEY_MAX + 4)

/* A row of text as cells for wadd_wchnstr, or 0 where waddnstr must draw it (ckcurses_row.c). */
int ckcurses_row_cells(const char *utf8, int length, int x, int columns, cchar_t *cells, int capacity, int *width);

/* The window everything is drawn in. */
#define CK_SCREEN (*ckcurses_load_library.stdscr)

#endif
