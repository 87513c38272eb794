/* Full-screen drawing: start and end, and the few ways the live view writes cells. */
#include "ckcurses.h"
#include "ckcurses_internal.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static volatile sig_atomic_t active = 0;
static int out_descriptor = -1;
static int colors_on = 0;
/* terminfo's BD, written when the view ends (kept here: the ending may run in a signal handler). */
static char paste_off[64];
/* terminfo's BE, written again when the view takes the terminal back after lending it. */
static char paste_on[64];

/* A terminfo string capability, or NULL where the terminal has none. */
static const char *capability(const char *name) {
    const char *s = NC(tigetstr)(name);
    return s == NULL || s == (char *)-1 || s[0] == '\0' ? NULL : s;
}

/* Bracketed paste, where terminfo describes it (the extended capabilities xterm-like terminals
   and tmux have): the terminal marks a paste with PS ... PE once BE turns the mode on, and
   ncurses reads each mark as one key. Written as terminfo gives it, around ncurses' own output. */
static void start_bracketed_paste(int out_fd) {
    const char *on = capability("BE"), *off = capability("BD");
    const char *start = capability("PS"), *end = capability("PE");
    paste_off[0] = '\0';
    if (on == NULL || off == NULL || start == NULL || end == NULL || strlen(off) >= sizeof paste_off) return;
    if (NC(define_key)(start, CK_CODE_PASTE_START) != OK || NC(define_key)(end, CK_CODE_PASTE_END) != OK) return;
    strcpy(paste_off, off);
    if (strlen(on) < sizeof paste_on) strcpy(paste_on, on);
    ssize_t w = write(out_fd, on, strlen(on));
    (void)w;
}

/* Ctrl-Left and Ctrl-Right, read as the codes the view knows where terminfo names them (the
   extended kLFT5, kRIT5 of xterm-like terminals and tmux): a word left and right in an editor. */
static void define_word_keys(void) {
    const char *left = capability("kLFT5"), *right = capability("kRIT5");
    if (left != NULL) NC(define_key)(left, CK_CODE_CONTROL_LEFT);
    if (right != NULL) NC(define_key)(right, CK_CODE_CONTROL_RIGHT);
}

/* Each style by purpose: its attributes alone (monochrome, NO_COLOR), and its colour pair. */
static const struct { attr_t attributes; short pair; short foreground, background; } styles[CK_STYLE_COUNT] = {
    [CK_STYLE_PLAIN] = {A_NORMAL, 0, -1, -1},
    [CK_STYLE_DIM] = {A_DIM, 0, -1, -1},
    [CK_STYLE_TITLE] = {A_BOLD, 1, COLOR_CYAN, -1},
    [CK_STYLE_BUTTON] = {A_BOLD, 2, COLOR_YELLOW, -1},
    [CK_STYLE_FOCUS] = {A_REVERSE | A_BOLD, 0, -1, -1},
    [CK_STYLE_STATUS] = {A_REVERSE, 3, COLOR_WHITE, COLOR_BLUE},
    [CK_STYLE_ERROR] = {A_BOLD, 4, COLOR_RED, -1},
    [CK_STYLE_HANDLED] = {A_BOLD, 5, COLOR_GREEN, -1},
};

static void set_up_colors(void) {
    NC(start_color)();
    NC(use_default_colors)();
    for (int i = 0; i < CK_STYLE_COUNT; i++)
        if (styles[i].pair > 0) NC(init_pair)(styles[i].pair, styles[i].foreground, styles[i].background);
    colors_on = 1;
}

/* A terminal terminfo knows may still be unable to move the cursor (TERM=dumb: Emacs' shell,
   CI logs): nothing could be drawn where it belongs, so the view is not started there. */
static int can_address_cursor(void) {
    const char *cup = NC(tigetstr)("cup");
    return cup != NULL && cup != (char *)-1;
}

int ckcurses_screen_start(int in_fd, int out_fd, int color) {
    if (active || !ckcurses_load()) return 0;
    ckcells_use_utf8_locale();   /* multibyte (UTF-8) text and keys */
    FILE *out = fdopen(dup(out_fd), "w");
    FILE *in = fdopen(dup(in_fd), "r");
    if (out == NULL || in == NULL) return 0;
    if (NC(newterm)(NULL, out, in) == NULL) return 0;
    if (!can_address_cursor()) {
        NC(endwin)();
        return 0;
    }
    out_descriptor = out_fd;
    active = 1;
    NC(cbreak)();   /* Ctrl-C stays a signal: the run's own handling stops a turn */
    NC(noecho)();
    NC(nonl)();
    NC(intrflush)(CK_SCREEN, FALSE);
    NC(keypad)(CK_SCREEN, TRUE);
    NC(nodelay)(CK_SCREEN, TRUE);
    NC(set_escdelay)(25);
    NC(curs_set)(0);
    /* Press and release apart, never merged into a click wherever the release lands: the view
       taps only when both are on the same view (UIKit's touchUpInside). */
    NC(mousemask)(BUTTON1_PRESSED | BUTTON1_RELEASED, NULL);
    NC(mouseinterval)(0);
    start_bracketed_paste(out_fd);
    define_word_keys();
    if (color && NC(has_colors)()) set_up_colors();
    return 1;
}

/* ncurses' SIGTSTP handler while the view owns the terminal, put aside while it is lent. */
static struct sigaction view_suspend;
static int suspend_put_aside = 0;

/* While the terminal is lent, Ctrl-Z stops the process as it stops any program reading lines:
   ncurses' handler would take the terminal back in the view's modes on `fg` and draw the view
   over the read, which waited on for a line end those modes never give. An ignored SIGTSTP
   stays ignored. */
static void lend_suspend(int lending) {
    if (lending && !suspend_put_aside) {
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        if (sigaction(SIGTSTP, NULL, &view_suspend) != 0 || view_suspend.sa_handler == SIG_IGN) return;
        suspend_put_aside = sigaction(SIGTSTP, &dfl, NULL) == 0;
    } else if (!lending && suspend_put_aside) {
        sigaction(SIGTSTP, &view_suspend, NULL);
        suspend_put_aside = 0;
    }
}

void ckcurses_screen_end(void) {
    if (!active) return;
    active = 0;
    lend_suspend(0);
    NC(curs_set)(1);
    NC(endwin)();
    if (paste_off[0] != '\0') {   /* async-signal-safe: the ending may run in a handler */
        ssize_t w = write(out_descriptor, paste_off, strlen(paste_off));
        (void)w;
    }
}

int ckcurses_screen_active(void) { return active; }

void ckcurses_screen_lend(int lending) {
    if (!active) return;
    ssize_t w = 0;
    lend_suspend(lending);
    if (lending) {
        NC(def_prog_mode)();
        NC(endwin)();
        if (paste_off[0] != '\0') w = write(out_descriptor, paste_off, strlen(paste_off));
    } else {
        if (paste_on[0] != '\0' && paste_off[0] != '\0') w = write(out_descriptor, paste_on, strlen(paste_on));
        NC(wrefresh)(CK_SCREEN);   /* ncurses' own: the program's modes back, everything drawn again */
        /* endwin left keypad transmit mode, and ncurses sets it again only at its next read of a
           key: the first arrow key after the read came in the cursor keys' normal mode, unknown. */
        NC(keypad)(CK_SCREEN, TRUE);
    }
    (void)w;
}

void ckcurses_screen_resume(void) {
    if (!active) return;
    NC(wrefresh)(CK_SCREEN);
    NC(keypad)(CK_SCREEN, TRUE);   /* as after a lend: the first arrow key after `fg` was lost */
}

int ckcurses_screen_rows(void) { return active ? (NC(getmaxy)(CK_SCREEN)) : 0; }
int ckcurses_screen_columns(void) { return active ? (NC(getmaxx)(CK_SCREEN)) : 0; }

void ckcurses_screen_resize(void) {
    struct winsize size;
    if (!active || ioctl(out_descriptor, TIOCGWINSZ, &size) != 0 || size.ws_row == 0) return;
    NC(resizeterm)(size.ws_row, size.ws_col);
}

static void use_style(ck_style style) {
    int pair = colors_on ? styles[style].pair : 0;
    attr_t attributes = styles[style].attributes;
    /* With colours the pair says it; reverse video stays for focus, in either mode. */
    if (pair > 0 && style != CK_STYLE_STATUS) attributes &= (attr_t)~A_REVERSE;
    NC(wattr_set)(CK_SCREEN, attributes, (short)pair, NULL);
}

void ckcurses_screen_erase(void) { NC(werase)(CK_SCREEN); }

void ckcurses_screen_text(int y, int x, const char *utf8, int length, ck_style style) {
    cchar_t cells[256];
    int width = 0, n = ckcurses_row_cells(utf8, length, x, NC(getmaxx)(CK_SCREEN), cells, 256, &width);
    use_style(style);
    NC(wmove)(CK_SCREEN, y, x);
    if (n > 0) {
        NC(wadd_wchnstr)(CK_SCREEN, cells, n);
        NC(wmove)(CK_SCREEN, y, x + width);   /* where waddnstr leaves the cursor */
    } else {
        NC(waddnstr)(CK_SCREEN, utf8, length);
    }
    use_style(CK_STYLE_PLAIN);
}

void ckcurses_screen_fill(int y, int x, int width, ck_style style) {
    use_style(style);
    NC(wmove)(CK_SCREEN, y, x);
    for (int i = 0; i < width; i++) NC(waddnstr)(CK_SCREEN, " ", 1);
    use_style(CK_STYLE_PLAIN);
}

/* A line-drawing character (ncurses' WACS table, by its VT100 letter) in `style`. */
static cchar_t line_char(char letter, ck_style style) {
    cchar_t c = (*ckcurses_load_library.wacs)[(unsigned char)letter];
    int pair = colors_on ? styles[style].pair : 0;
    c.attr = (c.attr & ~A_COLOR) | (styles[style].attributes & ~A_REVERSE) | (attr_t)COLOR_PAIR(pair);
    return c;
}

void ckcurses_screen_line(int y, int x, int length, int vertical, ck_style style) {
    if (length <= 0) return;
    cchar_t c = line_char(vertical ? 'x' : 'q', style);
    if (vertical) NC(mvwvline_set)(CK_SCREEN, y, x, &c, length);
    else NC(mvwhline_set)(CK_SCREEN, y, x, &c, length);
}

void ckcurses_screen_corner(int y, int x, ck_corner corner, ck_style style) {
    static const char letters[] = {[CK_CORNER_TOP_LEFT] = 'l', [CK_CORNER_TOP_RIGHT] = 'k',
                                   [CK_CORNER_BOTTOM_LEFT] = 'm', [CK_CORNER_BOTTOM_RIGHT] = 'j'};
    cchar_t c = line_char(letters[corner], style);
    NC(mvwadd_wch)(CK_SCREEN, y, x, &c);
}

void ckcurses_screen_cursor(int y, int x, int visible) {
    NC(curs_set)(visible ? 1 : 0);
    if (visible) NC(wmove)(CK_SCREEN, y, x);
}

void ckcurses_screen_flush(void) {
    NC(wnoutrefresh)(CK_SCREEN);
    NC(doupdate)();
}
