/* Keys and clicks, read without waiting and told apart for the live view. */
#include "ckcurses.h"
#include "ckcurses_internal.h"
#include <string.h>
#include <wchar.h>

/* ncurses' function keys the view uses, and what each is to it. */
static const struct { int code; ck_key_kind kind; } function_keys[] = {
    {KEY_UP, CK_KEY_UP}, {KEY_DOWN, CK_KEY_DOWN}, {KEY_LEFT, CK_KEY_LEFT}, {KEY_RIGHT, CK_KEY_RIGHT},
    {KEY_BTAB, CK_KEY_BACKTAB}, {KEY_ENTER, CK_KEY_ENTER}, {KEY_BACKSPACE, CK_KEY_BACKSPACE},
    {KEY_DC, CK_KEY_DELETE}, {KEY_HOME, CK_KEY_HOME}, {KEY_END, CK_KEY_END},
    {KEY_PPAGE, CK_KEY_PAGE_UP}, {KEY_NPAGE, CK_KEY_PAGE_DOWN},
    {KEY_SPREVIOUS, CK_KEY_SHIFT_PAGE_UP}, {KEY_SNEXT, CK_KEY_SHIFT_PAGE_DOWN}, {KEY_RESIZE, CK_KEY_RESIZE},
    {CK_CODE_PASTE_START, CK_KEY_PASTE_START}, {CK_CODE_PASTE_END, CK_KEY_PASTE_END},
    {CK_CODE_CONTROL_LEFT, CK_KEY_CONTROL_LEFT}, {CK_CODE_CONTROL_RIGHT, CK_KEY_CONTROL_RIGHT},
};

/* Characters that are keys rather than text. */
static const struct { wint_t character; ck_key_kind kind; } control_characters[] = {
    {'\t', CK_KEY_TAB}, {'\r', CK_KEY_ENTER}, {'\n', CK_KEY_ENTER}, {27, CK_KEY_ESCAPE},
    {127, CK_KEY_BACKSPACE}, {8, CK_KEY_BACKSPACE},
};

/* The press and the release come apart (ckcurses_screen_start turns ncurses' click resolution
   off): a click is the view's to make, of a press and a release on the same view. Events that
   came in one read (a quick click: press and release in one write) give one KEY_MOUSE, and
   getmouse pops ncurses' queue newest first: all are taken and handed out oldest first. */
#define CK_MOUSE_QUEUE 16
static struct { ck_key keys[CK_MOUSE_QUEUE]; int next, count; } mouse_pending;

static ck_key mouse_event_key(const MEVENT *event) {
    ck_key key = {CK_KEY_OTHER, 0, 0, 0};
    if (event->bstate & (BUTTON1_PRESSED | BUTTON1_RELEASED)) {
        key.kind = event->bstate & BUTTON1_PRESSED ? CK_KEY_PRESS : CK_KEY_CLICK;
        key.row = event->y;
        key.column = event->x;
    }
    return key;
}

/* The next mouse event taken from ncurses and not handed out yet (CK_KEY_NONE: none). */
static ck_key pending_mouse_key(void) {
    if (mouse_pending.next >= mouse_pending.count) return (ck_key){CK_KEY_NONE, 0, 0, 0};
    return mouse_pending.keys[mouse_pending.next++];
}

static ck_key mouse_key(void) {
    MEVENT newest_first[CK_MOUSE_QUEUE];
    int taken = 0;
    while (taken < CK_MOUSE_QUEUE && NC(getmouse)(&newest_first[taken]) == OK) taken++;
    for (int i = 0; i < taken; i++) mouse_pending.keys[i] = mouse_event_key(&newest_first[taken - 1 - i]);
    mouse_pending.next = 0;
    mouse_pending.count = taken;
    ck_key key = pending_mouse_key();
    return key.kind == CK_KEY_NONE ? (ck_key){CK_KEY_OTHER, 0, 0, 0} : key;
}

static ck_key function_key(wint_t code) {
    ck_key key = {CK_KEY_OTHER, 0, 0, 0};
    if (code == KEY_MOUSE) return mouse_key();
    for (unsigned i = 0; i < sizeof function_keys / sizeof *function_keys; i++)
        if (function_keys[i].code == (int)code) key.kind = function_keys[i].kind;
    return key;
}

/* What the terminal sent, a character at a time: read as bytes (wgetch: a function key comes
   whole, as its code) and decoded here, so that nothing is dropped. ncurses' wget_wch dropped a
   byte that is not UTF-8 and what followed it up to the Enter (atk-new 01's class: `y = "\xff"`
   typed at the command line ran as `y = "`). A byte that starts no character, and each byte
   of a C1 control or of a character that stands for a byte, is handed on as CK_STRAY_BYTE
   plus the byte, as the REPL's libedit reader does (ckedit_ahead.c); EditorBytes puts them
   back in the line that runs. */
#define CK_STRAY_BYTE 0x10FF00u
static struct {
    unsigned char bytes[4];
    unsigned at, count;
    int pushed;   /* a code read past a cut sequence, read next (0: none) */
} input;

static int next_code(void) {
    if (input.pushed) {
        int code = input.pushed;
        input.pushed = 0;
        return code;
    }
    return NC(wgetch)(CK_SCREEN);
}

static int escaped(wint_t c) {
    return (c >= 0x80 && c <= 0x9F) || (c >= CK_STRAY_BYTE + 0x80 && c <= CK_STRAY_BYTE + 0xFF);
}

/* The next character (`*is_key`: a function key's code instead), or ERR. */
static int next_character(wint_t *out, int *is_key) {
    *is_key = 0;
    if (input.at < input.count) return *out = CK_STRAY_BYTE + input.bytes[input.at++], OK;
    int c = next_code();
    if (c == ERR) return ERR;
    if (c > 0xFF) return *out = (wint_t)c, *is_key = 1, OK;
    int need = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    unsigned n = 0;
    input.bytes[n++] = (unsigned char)c;
    while ((int)n < need) {
        int d = next_code();
        if (d == ERR) break;
        if (d > 0xFF || (d & 0xC0) != 0x80) { input.pushed = d; break; }
        input.bytes[n++] = (unsigned char)d;
    }
    if ((int)n == need) {
        wchar_t wc;
        mbstate_t state;
        memset(&state, 0, sizeof state);
        size_t used = mbrtowc(&wc, (const char *)input.bytes, n, &state);
        if (used == n && !escaped((wint_t)wc)) return *out = (wint_t)wc, OK;
        if (used == 0 && n == 1) return *out = 0, OK;
    }
    input.at = 0;
    input.count = n;
    return *out = CK_STRAY_BYTE + input.bytes[input.at++], OK;
}

/* The key a control sequence with `final` and `parameters` stands for, of those the view uses. */
static ck_key_kind sequence_kind(char final, const char *parameters) {
    static const struct { char final; const char *parameters; ck_key_kind kind; } known[] = {
        {'A', "", CK_KEY_UP}, {'B', "", CK_KEY_DOWN}, {'C', "", CK_KEY_RIGHT}, {'D', "", CK_KEY_LEFT},
        {'H', "", CK_KEY_HOME}, {'F', "", CK_KEY_END}, {'Z', "", CK_KEY_BACKTAB},
        {'~', "200", CK_KEY_PASTE_START}, {'~', "201", CK_KEY_PASTE_END}, {'~', "3", CK_KEY_DELETE},
        {'~', "1", CK_KEY_HOME}, {'~', "7", CK_KEY_HOME}, {'~', "4", CK_KEY_END}, {'~', "8", CK_KEY_END},
        {'~', "5", CK_KEY_PAGE_UP}, {'~', "6", CK_KEY_PAGE_DOWN},
        {'~', "5;2", CK_KEY_SHIFT_PAGE_UP}, {'~', "6;2", CK_KEY_SHIFT_PAGE_DOWN},
    };
    for (unsigned i = 0; i < sizeof known / sizeof *known; i++)
        if (known[i].final == final && strcmp(known[i].parameters, parameters) == 0) return known[i].kind;
    return CK_KEY_OTHER;
}

/* A control sequence ncurses left unmatched (it came behind another ESC in one read: ncurses
   matches a key only from where a read starts, and hands the rest back as characters), read
   here after its `ESC [` or `ESC O`: parameters, intermediates, the final character, all of it
   taken, so no part of it is typed. The keys the view uses are told apart; any other is
   CK_KEY_OTHER. */
static ck_key control_sequence(wint_t introducer) {
    ck_key key = {CK_KEY_OTHER, 0, 0, 0};
    char parameters[16];
    unsigned n = 0;
    wint_t c = 0;
    int is_key = 0;
    for (;;) {
        if (next_character(&c, &is_key) == ERR) {
            /* ESC [ and nothing behind it: Alt-[ (or Alt-O) typed; a cut sequence otherwise. */
            if (n == 0) key.kind = CK_KEY_ALT, key.character = (unsigned int)introducer;
            return key;
        }
        if (is_key) { input.pushed = (int)c; return key; }
        /* Alt-O and then a key that ends no SS3 sequence: both keys, as typed. */
        if (introducer == 'O' && c < 0x80 && !strchr("ABCDHFPQRS", (int)c)) {
            input.pushed = (int)c;
            key.kind = CK_KEY_ALT, key.character = 'O';
            return key;
        }
        if (introducer == '[' && c >= 0x20 && c <= 0x3F) {   /* parameters and intermediates */
            if (n < sizeof parameters - 1) parameters[n++] = (char)c;
            continue;
        }
        break;
    }
    parameters[n] = 0;
    if (c < 0x40 || c > 0x7E) return key;
    key.kind = sequence_kind((char)c, parameters);
    if (c == 'M' && introducer == '[' && n == 0) {   /* an X10 mouse report's three bytes: taken, unused */
        for (int k = 0; k < 3 && next_character(&c, &is_key) != ERR && !is_key; k++) {}
        if (is_key) input.pushed = (int)c;
    }
    return key;
}

/* An Escape that ncurses hands over with another character already read behind it (within
   ESCDELAY, so not typed apart): a terminal's Alt/Option key with a character is one key. An
   Escape followed by a key (ncurses matched its sequence: an arrow, the paste's start mark) or
   by another ESC is the Escape, then that key: the paste or the arrow is read next, whole
   (atk-apps3 08: ESC then a bracketed paste in one read lost the paste's start mark, and its
   text became keys of the view). */
static ck_key after_escape(void) {
    ck_key key = {CK_KEY_ESCAPE, 0, 0, 0};
    wint_t next = 0;
    int is_key = 0;
    if (next_character(&next, &is_key) == ERR) return key;
    /* Alt-Backspace: ESC then the erase key, which keypad mode reads as KEY_BACKSPACE where
       terminfo's kbs is that byte (xterm, tmux: ^?); as a key pushed back it was Esc, which
       closes the command line and drops its text (atk-new4 01). */
    if (is_key && next == KEY_BACKSPACE) {
        key.kind = CK_KEY_ALT;
        key.character = 0x7F;
        return key;
    }
    if (is_key || next == 27) {
        input.pushed = (int)next;
        return key;
    }
    if (next == '[' || next == 'O') return control_sequence(next);
    key.kind = CK_KEY_ALT;
    key.character = (unsigned int)next;
    return key;
}

ck_key ckcurses_input_read(void) {
    ck_key key = {CK_KEY_NONE, 0, 0, 0};
    if (!ckcurses_screen_active()) return key;
    ck_key mouse = pending_mouse_key();
    if (mouse.kind != CK_KEY_NONE) return mouse;
    wint_t c = 0;
    int is_key = 0;
    if (next_character(&c, &is_key) == ERR) return key;
    if (is_key) return function_key(c);
    if (c == 27) return after_escape();
    key.kind = CK_KEY_CHAR;
    key.character = (unsigned int)c;
    for (unsigned i = 0; i < sizeof control_characters / sizeof *control_characters; i++)
        if (control_characters[i].character == c) key.kind = control_characters[i].kind;
    return key;
}
