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

static ssize_t next_byte(unsigned char *byte) {
    if (ahead.start < ahead.end) {
        *byte = ahead.bytes[ahead.start++];
        return 1;
    }
    return read(0, byte, 1);
}

/* libedit's own reader (read.c, read_char) over next_byte: an invalid sequence is dropped but
   its last byte, an invalid byte dropped; 1 for a character, 0 at the end of input, -1 on an
   error. */
int ckedit_ahead_read_character(void *editor, wchar_t *character) {
    (void)editor;
    char sequence[MB_LEN_MAX];
    size_t length = 0;
    for (;;) {
        unsigned char byte;
        ssize_t got = next_byte(&byte);
        if (got <= 0) {
            *character = L'\0';
            return got == 0 ? 0 : -1;
        }
        sequence[length++] = (char)byte;
        mbstate_t state;
        memset(&state, 0, sizeof state);
        size_t used = mbrtowc(character, sequence, length, &state);
        if (used == (size_t)-2 && length < MB_LEN_MAX) continue;
        if (used == (size_t)-1 || used == (size_t)-2) {
            if (length > 1 && used == (size_t)-1) {
                sequence[0] = sequence[length - 1];
                length = 1;
                memset(&state, 0, sizeof state);
                used = mbrtowc(character, sequence, 1, &state);
                if (used != (size_t)-1 && used != (size_t)-2) return 1;
                if (used == (size_t)-2) continue;
            }
            length = 0;
            continue;
        }
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

size_t ckedit_ahead_pending(void) { return ahead.end - ahead.start; }
void ckedit_ahead_drop(void) { ahead.start = ahead.end = 0, ahead.undrawn = 0; }

/* The characters at the front of the read-ahead that only insert themselves (printable, whole:
   a sequence the read cut is left for the next read): how many bytes. */
static size_t text_run(void) {
    size_t at = ahead.start;
    mbstate_t state;
    memset(&state, 0, sizeof state);
    while (at < ahead.end) {
        wchar_t c;
        size_t used = mbrtowc(&c, (const char *)ahead.bytes + at, ahead.end - at, &state);
        if (used == 0 || used == (size_t)-1 || used == (size_t)-2 || !iswprint((wint_t)c)) break;
        at += used;
    }
    return at - ahead.start;
}

int ckedit_ahead_insert_text(int (*insert)(const char *), void (*redraw)(void)) {
    size_t run = text_run();
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

