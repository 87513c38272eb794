#ifndef CKEDIT_AHEAD_H
#define CKEDIT_AHEAD_H

#include <stddef.h>
#include <wchar.h>

/* What the terminal sent, read ahead of libedit: a paste's text goes into the line in runs,
   and libedit reads its keys (and everything typed) through ckedit_ahead_read_character. */

/// What a byte libedit would drop becomes in the line: this plus the byte (0x80–0xFF: U+10FF80
/// to U+10FFFF, a private-use plane's end), for bytes that are not UTF-8, C1 controls' bytes and
/// these characters' own (typed, they are escaped too): `EditorBytes` restores them.
#define CKEDIT_STRAY_BYTE 0x10FF00

/// Reads what the terminal holds beyond one byte (a paste, keys typed ahead) when nothing read
/// ahead is left (64 KiB at most); returns the bytes read ahead and not yet handed on.
size_t ckedit_ahead_read(void);
/// The bytes read ahead and not yet handed on.
size_t ckedit_ahead_pending(void);
/// Forgets what was read ahead (Ctrl-C drops a paste with the line).
void ckedit_ahead_drop(void);
/// libedit's character reader (EL_GETCFN): the bytes read ahead first, then the terminal.
int ckedit_ahead_read_character(void *editor, wchar_t *character);
/// Inserts the text at the front of the read-ahead with `insert`; then calls `redraw`, or,
/// when more of the paste waits on the terminal, returns 1: the line is drawn when it pauses.
int ckedit_ahead_insert_text(int (*insert)(const char *), void (*redraw)(void));

#endif
