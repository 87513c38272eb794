/* Keys and clicks, read without waiting and told apart for the live view. */
#include "ckcurses.h"
#include "ckcurses_internal.h"

/* ncurses' function keys the view uses, and what each is to it. */
static const struct { int code; ck_key_kind kind; } function_keys[] = {
    {KEY_UP, CK_KEY_UP}, {KEY_DOWN, CK_KEY_DOWN}, {KEY_LEFT, CK_KEY_LEFT}, {KEY_RIGHT, CK_KEY_RIGHT},
    {KEY_BTAB, CK_KEY_BACKTAB}, {KEY_ENTER, CK_KEY_ENTER}, {KEY_BACKSPACE, CK_KEY_BACKSPACE},
    {KEY_DC, CK_KEY_DELETE}, {KEY_HOME, CK_KEY_HOME}, {KEY_END, CK_KEY_END},
    {KEY_PPAGE, CK_KEY_PAGE_UP}, {KEY_NPAGE, CK_KEY_PAGE_DOWN},
    {KEY_SPREVIOUS, CK_KEY_SHIFT_PAGE_UP}, {KEY_SNEXT, CK_KEY_SHIFT_PAGE_DOWN}, {KEY_RESIZE, CK_KEY_RESIZE},
    {CK_CODE_PASTE_START, CK_KEY_PASTE_START}, {CK_CODE_PASTE_END, CK_KEY_PASTE_END},
};

/* Characters that are keys rather than text. */
static const struct { wint_t character; ck_key_kind kind; } control_characters[] = {
    {'\t', CK_KEY_TAB}, {'\r', CK_KEY_ENTER}, {'\n', CK_KEY_ENTER}, {27, CK_KEY_ESCAPE},
    {127, CK_KEY_BACKSPACE}, {8, CK_KEY_BACKSPACE},
};

static ck_key mouse_key(void) {
    ck_key key = {CK_KEY_OTHER, 0, 0, 0};
    MEVENT event;
    if (NC(getmouse)(&event) == OK && (event.bstate & (BUTTON1_CLICKED | BUTTON1_RELEASED))) {
        key.kind = CK_KEY_CLICK;
        key.row = event.y;
        key.column = event.x;
    }
    return key;
}

static ck_key function_key(wint_t code) {
    ck_key key = {CK_KEY_OTHER, 0, 0, 0};
    if (code == KEY_MOUSE) return mouse_key();
    for (unsigned i = 0; i < sizeof function_keys / sizeof *function_keys; i++)
        if (function_keys[i].code == (int)code) key.kind = function_keys[i].kind;
    return key;
}

/* An Escape that ncurses hands over with another key already read behind it (within ESCDELAY,
   so not typed apart): a terminal's Alt/Option key, one key; ESC followed by a function key (Alt
   and an arrow on some terminals) is one the view has no use for. */
static ck_key after_escape(void) {
    ck_key key = {CK_KEY_ESCAPE, 0, 0, 0};
    wint_t next = 0;
    int got = NC(wget_wch)(CK_SCREEN, &next);
    if (got == ERR) return key;
    if (got == KEY_CODE_YES) {
        key.kind = next == KEY_RESIZE ? CK_KEY_RESIZE : CK_KEY_OTHER;
        return key;
    }
    key.kind = CK_KEY_ALT;
    key.character = (unsigned int)next;
    return key;
}

ck_key ckcurses_input_read(void) {
    ck_key key = {CK_KEY_NONE, 0, 0, 0};
    if (!ckcurses_screen_active()) return key;
    wint_t c = 0;
    int got = NC(wget_wch)(CK_SCREEN, &c);
    if (got == ERR) return key;
    if (got == KEY_CODE_YES) return function_key(c);
    if (c == 27) return after_escape();
    key.kind = CK_KEY_CHAR;
    key.character = (unsigned int)c;
    for (unsigned i = 0; i < sizeof control_characters / sizeof *control_characters; i++)
        if (control_characters[i].character == c) key.kind = control_characters[i].kind;
    return key;
}
