#ifndef CKEDIT_H
#define CKEDIT_H

/* libedit, loaded when the REPL first reads from a terminal (dlopen), so that a script that
   never does skips loading it and the libraries it needs at start-up. */

/// 1 once libedit is loaded (or already was); 0 if it cannot be (the REPL reads plain lines).
int ck_edit_load(void);

char *ck_readline(const char *prompt);
void ck_add_history(const char *line);
int ck_read_history(const char *path);
int ck_write_history(const char *path);
int ck_history_truncate_file(const char *path, int lines);
void ck_stifle_history(int max);

/// Completion: the generator, and the characters that break words (both kept by the caller).
void ck_set_completion(char *(*generator)(const char *, int), char *word_breaks);
/// The line being edited and the cursor's offset in it (for completion).
const char *ck_line_buffer(void);
int ck_point(void);
/// The length of the line being edited, in bytes.
int ck_line_end(void);

void ck_callback_handler_install(const char *prompt, void (*handler)(char *));
void ck_callback_handler_remove(void);
void ck_callback_read_char(void);
void ck_forced_update_display(void);
/// libedit learns the terminal's new size (after SIGWINCH).
void ck_resize_terminal(void);
/// Whether C's stdin holds bytes it read ahead (a poll of descriptor 0 does not see them).
int ck_stdin_buffered(void);
/// The terminal's width in columns (80 when it cannot be asked).
int ck_terminal_columns(int fd);

#endif
