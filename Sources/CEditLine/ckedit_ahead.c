/* Input read ahead of libedit: a paste's text inserted in runs, its keys handed to libedit. */
#include "ckedit_ahead.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

/* A paste reaches libedit one character a call, and each call redraws and re-encodes the whole
   line: a 10,000-byte paste took 20 s, 100,000 bytes half an hour. What the terminal holds is
   read ahead instead: its text goes in whole (el_insertstr, which draws nothing; then a key
   that redraws the line once), and libedit reads the other keys (Enter, Tab, arrows) through
   read_character, the read-ahead first, in order. */
enum { read_ahead_capacity = 1 << 16 };
static struct {
    unsigned char bytes[read_ahead_capacity];
    size_t start, end;
    int undrawn;   /* text went in that the screen does not show yet */
} ahead;

static int pushed_back = -1;   /* a byte read that starts the next character */

static ssize_t next_byte(unsigned char *byte) {
    if (pushed_back >= 0) {
        *byte = (unsigned char)pushed_back;
        pushed_back = -1;
        return 1;
    }
    if (ahead.start < ahead.end) {
        *byte = ahead.bytes[ahead.start++];
        return 1;
    }
    return read(0, byte, 1);
}

/* Bytes libedit would drop, handed on one escaped character each (CKEDIT_STRAY_BYTE). */
static struct {
    unsigned char bytes[MB_LEN_MAX];
    size_t at, count;
} stray;

static int next_stray(wchar_t *character) {
    *character = (wchar_t)(CKEDIT_STRAY_BYTE + stray.bytes[stray.at++]);
    return 1;
}

static int hold_stray(const char *bytes, size_t count, wchar_t *character) {
    memcpy(stray.bytes, bytes, count);
    stray.at = 0;
    stray.count = count;
    return next_stray(character);
}

/* A character libedit drops (a C1 control: unassigned in its key map), or one that stands
   for a stray byte: handed on as its bytes, escaped, so the line keeps them. */
static int needs_escape(wchar_t c) {
    return (c >= 0x80 && c <= 0x9F) || (c >= (wchar_t)(CKEDIT_STRAY_BYTE + 0x80) && c <= (wchar_t)(CKEDIT_STRAY_BYTE + 0xFF));
}

/* libedit's own reader (read.c, read_char) over next_byte, except that nothing is dropped: a
   byte that starts no character (not UTF-8), and each byte of a character libedit would drop,
   is handed on as CKEDIT_STRAY_BYTE plus the byte (as lua5.4 -i keeps what is typed; the REPL
   puts the bytes back, `EditorBytes`). 1 for a character, 0 at the end of input, -1 on an
   error. */
int ckedit_ahead_read_character(void *editor, wchar_t *character) {
    (void)editor;
    if (stray.at < stray.count) return next_stray(character);
    char sequence[MB_LEN_MAX];
    size_t length = 0;
    for (;;) {
        unsigned char byte;
        ssize_t got = next_byte(&byte);
        if (got <= 0) {
            if (length > 0) return hold_stray(sequence, length, character);   /* cut short by the end */
            *character = L'\0';
            return got == 0 ? 0 : -1;
        }
        sequence[length++] = (char)byte;
        mbstate_t state;
        memset(&state, 0, sizeof state);
        size_t used = mbrtowc(character, sequence, length, &state);
        if (used == (size_t)-2 && length < MB_LEN_MAX) continue;
        if (used == (size_t)-1 || used == (size_t)-2) {
            /* The bytes before the last start no character; the last may start the next. */
            if (length == 1) return hold_stray(sequence, 1, character);
            pushed_back = byte;
            return hold_stray(sequence, length - 1, character);
        }
        if (needs_escape(*character)) return hold_stray(sequence, length, character);
        return 1;
    }
}

size_t ckedit_ahead_read(void) {
    if (ahead.start == ahead.end) ahead.start = ahead.end = 0;
    int waiting = 0;
    if (ahead.end == 0 && ioctl(0, FIONREAD, &waiting) == 0 && waiting > 1) {
        ssize_t got = read(0, ahead.bytes, read_ahead_capacity - 1);
        if (got > 0) ahead.end = (size_t)got;
    }
    return ahead.end - ahead.start;
}

/* Escaped bytes and a byte pushed back come before the read-ahead: libedit reads them next. */
static size_t held_before(void) { return (stray.count - stray.at) + (pushed_back >= 0); }

size_t ckedit_ahead_pending(void) { return ahead.end - ahead.start + held_before(); }
void ckedit_ahead_drop(void) {
    ahead.start = ahead.end = 0, ahead.undrawn = 0;
    stray.at = stray.count = 0;
    pushed_back = -1;
}

/* The characters at the front of the read-ahead that only insert themselves (printable, whole:
   a sequence the read cut is left for the next read): how many bytes. */
static size_t text_run(void) {
    size_t at = ahead.start;
    mbstate_t state;
    memset(&state, 0, sizeof state);
    while (at < ahead.end) {
        wchar_t c;
        size_t used = mbrtowc(&c, (const char *)ahead.bytes + at, ahead.end - at, &state);
        if (used == 0 || used == (size_t)-1 || used == (size_t)-2 || !iswprint((wint_t)c) || needs_escape(c)) break;
        at += used;
    }
    return at - ahead.start;
}

int ckedit_ahead_insert_text(int (*insert)(const char *), void (*redraw)(void)) {
    size_t run = held_before() > 0 ? 0 : text_run();
    if (run > 0) {
        unsigned char *text = ahead.bytes + ahead.start, after = text[run];
        text[run] = 0;   /* the read left a byte free past its end for this */
        int inserted = insert((const char *)text) == 0;
        text[run] = after;
        if (inserted) {
            ahead.start += run;
            ahead.undrawn = 1;
        }
    }
    if (!ahead.undrawn) return 0;
    /* More of the paste on its way: drawn once it pauses (each redraw lays out the whole line). */
    int waiting = 0;
    if (ahead.start == ahead.end && ioctl(0, FIONREAD, &waiting) == 0 && waiting > 0) return 1;
    redraw();
    ahead.undrawn = 0;
    return 0;
}

