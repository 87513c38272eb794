#ifndef CKEDIT_H
#define CKEDIT_H

#include <stddef.h>

/* libedit, loaded when the REPL first reads from a terminal (dlopen), so that a script that
   never does skips loading it and the libraries it needs at start-up. */

/// 1 once libedit is loaded and started (or already was); 0 if it cannot be, or its line
/// buffer cannot be guarded (`el_line` below): the REPL reads plain lines.
int ckedit_load(void);

/// libedit's LineInfo (histedit.h): the line being edited, encoded, and the cursor and end in it.
typedef struct {
    const char *buffer;
    const char *cursor;
    const char *lastchar;
} ckedit_line_info;

/// libedit's own el_line, interposed: the executable exports it, so libedit's calls to it (from
/// its PLT) arrive here; it keeps rl_line_buffer on the buffer the real one returned.
const ckedit_line_info *el_line(void *editor);

char *ckedit_readline(const char *prompt);
void ckedit_add_history(const char *line);
int ckedit_read_history(const char *path);
/// Appends the last `count` entries to the history file (another session's lines kept).
void ckedit_stifle_history(int max);

/// Completion: the generator, and the characters that break words (both kept by the caller).
void ckedit_set_completion(char *(*generator)(const char *, int), char *word_breaks);
/// The bytes of the line being edited before the cursor (for completion): `*length` of them,
/// valid until the next call into libedit.
const char *ckedit_line_before_cursor(size_t *length);
/// The length of the line being edited, in bytes.
int ckedit_line_end(void);

void ckedit_callback_handler_install(const char *prompt, void (*handler)(char *));
void ckedit_callback_handler_remove(void);
void ckedit_callback_read_char(void);
void ckedit_forced_update_display(void);
/// libedit learns the terminal's new size (after SIGWINCH).
void ckedit_resize_terminal(void);
/// After SIGCONT (`fg`): libedit's terminal modes set again, the prompt and line redrawn.
void ckedit_continued(void);
/// Whether C's stdin has a byte or its end to give without waiting: one it read ahead (a poll of
/// descriptor 0 does not see those), or one descriptor 0 has now.
int ckedit_stdin_ready(void);
/// Inserts the text at the front of the read-ahead into the line at once, and queues a key
/// that redraws the line (`ckedit_callback_read_char` reads it next); 1 instead when more of
/// the paste waits on the terminal: libedit has nothing to read yet, the line is drawn later.
int ckedit_insert_text_ahead(void);
/// The terminal's width in columns (80 when it cannot be asked).
int ckedit_terminal_columns(int fd);

#endif
