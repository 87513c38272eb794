#ifndef CKCURSES_H
#define CKCURSES_H

/* ncursesw (the wide-character build), loaded with dlopen when `--tui` first draws, so that a
   run without it never loads ncurses and terminfo at start-up. The live view (Swift) sees only
   this: a screen of cells it writes UTF-8 text and boxes into, styles by purpose, and keys and
   clicks already told apart. Nothing here writes an escape sequence: ncurses and terminfo do. */

/// 1 once ncursesw is loaded (or already was); 0 if it cannot be.
int ckcurses_load(void);

/// Characters are read under the user's locale if it is UTF-8, else C.UTF-8 (a script's text
/// is UTF-8). ckcurses_screen_start does it first.
void ckcells_use_utf8_locale(void);
/// The cells a code point takes (`wcwidth`): 2 for wide ones, 0 for combining marks, -1 for
/// what cannot be shown.
int ckcells_width(unsigned int code_point);

/// Starts full-screen drawing on the terminal open as `in_fd`/`out_fd` (the alternate screen,
/// keys one at a time without echo, the mouse, no cursor, bracketed paste where terminfo has
/// its strings: BE, BD, PS, PE); colour when `color` is 1 and the
/// terminal has it. Returns 0 on failure (no such terminal type, say).
int ckcurses_screen_start(int in_fd, int out_fd, int color);
/// Leaves full-screen drawing: the terminal as it was. Safe to call twice, and from the paths
/// that end the process (atexit, the watchdog's last tick, a second Ctrl-C).
void ckcurses_screen_end(void);
/// Whether drawing is on (started and not ended).
int ckcurses_screen_active(void);
/// 1: the terminal lent in the shell's (line) modes, on its main screen (ncurses' endwin);
/// 0: taken back and drawn again.
void ckcurses_screen_lend(int lending);
/// Draws again after the terminal was in other hands (ncurses' own refresh after endwin).
void ckcurses_screen_resume(void);

/// The screen's size in cells.
int ckcurses_screen_rows(void);
int ckcurses_screen_columns(void);
/// The terminal changed size (SIGWINCH): ncurses takes the new size (a KEY_RESIZE follows).
void ckcurses_screen_resize(void);

/// What a cell range is drawn as: a purpose, mapped to attributes (and colours when on).
typedef enum {
    CK_STYLE_PLAIN = 0,
    CK_STYLE_DIM,
    CK_STYLE_TITLE,
    CK_STYLE_BUTTON,
    CK_STYLE_FOCUS,
    CK_STYLE_STATUS,
    CK_STYLE_ERROR,
    CK_STYLE_HANDLED,
    CK_STYLE_COUNT
} ck_style;

void ckcurses_screen_erase(void);
/// Writes `length` bytes of UTF-8 at row `y`, column `x`; ncurses clips at the right edge.
void ckcurses_screen_text(int y, int x, const char *utf8, int length, ck_style style);
/// A line of `length` line-drawing cells from (y, x), down when `vertical` is 1, else right.
void ckcurses_screen_line(int y, int x, int length, int vertical, ck_style style);

typedef enum { CK_CORNER_TOP_LEFT, CK_CORNER_TOP_RIGHT, CK_CORNER_BOTTOM_LEFT, CK_CORNER_BOTTOM_RIGHT } ck_corner;

/// A frame's corner at (y, x).
void ckcurses_screen_corner(int y, int x, ck_corner corner, ck_style style);
/// Fills a row segment with blanks in `style` (status line, focus bar).
void ckcurses_screen_fill(int y, int x, int width, ck_style style);
/// Puts the cursor at (y, x) and shows it, or hides it when `visible` is 0.
void ckcurses_screen_cursor(int y, int x, int visible);
/// Sends what changed to the terminal.
void ckcurses_screen_flush(void);

/// A key as the live view needs it.
typedef enum {
    CK_KEY_NONE = 0,   /* nothing more to read */
    CK_KEY_CHAR,       /* `character` holds the code point */
    CK_KEY_UP, CK_KEY_DOWN, CK_KEY_LEFT, CK_KEY_RIGHT,
    CK_KEY_TAB, CK_KEY_BACKTAB, CK_KEY_ENTER, CK_KEY_ESCAPE,
    CK_KEY_BACKSPACE, CK_KEY_DELETE, CK_KEY_HOME, CK_KEY_END,
    CK_KEY_PAGE_UP, CK_KEY_PAGE_DOWN,
    CK_KEY_SHIFT_PAGE_UP, CK_KEY_SHIFT_PAGE_DOWN,   /* terminfo's kPRV, kNXT */
    CK_KEY_PRESS,      /* the mouse's first button pressed: `row`, `column` hold where */
    CK_KEY_CLICK,      /* and released (ncurses' BUTTON1_RELEASED): `row`, `column` hold where */
    CK_KEY_RESIZE,
    CK_KEY_PASTE_START, /* the terminal's bracketed-paste marks (terminfo PS, PE): what comes */
    CK_KEY_PASTE_END,   /* between them was pasted, not typed */
    CK_KEY_ALT,        /* Alt (Option) with the key in `character`: ESC and the key together */
    CK_KEY_CONTROL_LEFT, CK_KEY_CONTROL_RIGHT,   /* terminfo's kLFT5, kRIT5 */
    CK_KEY_OTHER       /* a key the view has no use for */
} ck_key_kind;

typedef struct {
    ck_key_kind kind;
    unsigned int character;
    int row, column;
} ck_key;

/// The next key typed, without waiting (kind CK_KEY_NONE when none is left).
ck_key ckcurses_input_read(void);

#endif
