/* libedit through dlopen: the functions and variables the REPL uses, resolved once. */
#include "ckedit.h"
#include "ckedit_ahead.h"
#include <dlfcn.h>
#include <fcntl.h>
#include <locale.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

typedef char *compentry(const char *, int);
typedef char **attempt(const char *, int, int);

static struct {
    int tried, loaded;
    char *(*readline)(const char *);
    int (*add_history)(const char *);
    int (*read_history)(const char *);
    void (*stifle_history)(int);
    void (*handler_install)(const char *, void (*)(char *));
    void (*handler_remove)(void);
    void (*read_char)(void);
    int (*forced_update_display)(void);
    void (*resize_terminal)(void);
    int (*prep_terminal)(int);
    void (*deprep_terminal)(void);
    compentry **entry_function;
    attempt **attempted_function;
    const char **basic_word_breaks;
    char **completer_word_breaks;
    int *append_character;
    char **line_buffer;
    char *(*copy_text)(int, int);
    int *point;
    int *end;
    int *catch_signals, *catch_sigwinch;
    const ckedit_line_info *(*line)(void *);
    int (*set)(void *, int, ...);
    int (*insert_string)(void *, const char *);
    void (*push)(void *, const char *);
    void *editor;
    unsigned long lines_guarded;
} ed;

/* libedit's readline layer points rl_line_buffer into its wide-to-multibyte conversion buffer
   and moves the pointer only when the wide line buffer doubles; each el_gets or el_line that
   needs more room reallocs that buffer (1,024 bytes at a time), and rl_callback_read_char then
   ends the line through the old pointer (readline.c, _rl_update_pos: `li = el_line(e); ...
   rl_line_buffer[rl_end] = '\0'`): a write into freed memory, past its end once the line
   outgrew it, from a line of about 1,020 bytes on (3.1-20221030). libedit makes that call, and
   every other of its own to el_line, through its PLT, and the executable exports this el_line
   (Package.swift), so they come here: the real one runs and rl_line_buffer is set to the buffer
   it returned, which holds the whole line and its NUL. `ckedit_load` refuses libedit if its
   calls do not arrive here. */
__attribute__((visibility("default"))) const ckedit_line_info *el_line(void *editor) {
    const ckedit_line_info *info = ed.line(editor);
    if (info != NULL) *ed.line_buffer = (char *)info->buffer;
    ed.editor = editor;
    ed.lines_guarded++;
    return info;
}

/* A key bound to ed-redisplay (ckedit_load): pushed after a run of text, libedit redraws the
   prompt and line from their first row (its ^R, which the readline layer binds to search). */
#define REDRAW_KEY_BOUND "\\e[9999~"
#define REDRAW_KEY "\033[9999~"
#define EL_GETCFN 13
#define EL_BIND 4

static void push_redraw(void) { ed.push(ed.editor, REDRAW_KEY); }
static int insert_string(const char *text) { return ed.insert_string(ed.editor, text); }

int ckedit_insert_text_ahead(void) { return ckedit_ahead_insert_text(insert_string, push_redraw); }

#define RESOLVE(field, name) (*(void **)&ed.field = dlsym(lib, name)) != NULL

int ckedit_load(void) {
    if (ed.tried) return ed.loaded;
    ed.tried = 1;
    void *lib = dlopen("libedit.so.2", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) lib = dlopen("libedit.so", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) return 0;
    ed.loaded = RESOLVE(readline, "readline") && RESOLVE(add_history, "add_history")
        && RESOLVE(read_history, "read_history") && RESOLVE(stifle_history, "stifle_history")
        && RESOLVE(handler_install, "rl_callback_handler_install")
        && RESOLVE(handler_remove, "rl_callback_handler_remove")
        && RESOLVE(read_char, "rl_callback_read_char") && RESOLVE(forced_update_display, "rl_forced_update_display")
        && RESOLVE(entry_function, "rl_completion_entry_function")
        && RESOLVE(attempted_function, "rl_attempted_completion_function")
        && RESOLVE(basic_word_breaks, "rl_basic_word_break_characters")
        && RESOLVE(completer_word_breaks, "rl_completer_word_break_characters")
        && RESOLVE(append_character, "rl_completion_append_character")
        && RESOLVE(line_buffer, "rl_line_buffer") && RESOLVE(point, "rl_point") && RESOLVE(end, "rl_end")
        && RESOLVE(resize_terminal, "rl_resize_terminal")
        && RESOLVE(prep_terminal, "rl_prep_terminal") && RESOLVE(deprep_terminal, "rl_deprep_terminal")
        && RESOLVE(catch_signals, "rl_catch_signals") && RESOLVE(catch_sigwinch, "rl_catch_sigwinch");
    /* The run handles signals itself (its event loop's self-pipe). libedit's own handlers, left
       installed between the characters of the callback interface, send a signal on to the whole
       process group (kill(0, sig)): a SIGTERM to ckrun ended the shell that started it. */
    if (ed.loaded) *ed.catch_signals = *ed.catch_sigwinch = 0;
    ed.loaded = ed.loaded && RESOLVE(line, "el_line") && RESOLVE(copy_text, "rl_copy_text")
        && RESOLVE(set, "el_set") && RESOLVE(insert_string, "el_insertstr") && RESOLVE(push, "el_push");
    if (!ed.loaded) return 0;
    /* libedit reads multibyte (UTF-8) input only under a locale, chosen when it starts: here. */
    setlocale(LC_CTYPE, "");
    /* Started (rl_initialize), libedit has asked el_line for its line: through the guard above,
       or the guard is not in place (an executable that does not export it, a libedit that
       binds its own calls) and a long line would corrupt the heap: plain lines then. */
    free(ed.copy_text(0, 0));
    ed.loaded = ed.lines_guarded > 0 && ed.editor != NULL && ed.set(ed.editor, EL_GETCFN, ckedit_ahead_read_character) == 0
        && ed.set(ed.editor, EL_BIND, REDRAW_KEY_BOUND, "ed-redisplay", NULL) == 0;
    return ed.loaded;
}

char *ckedit_readline(const char *prompt) { return ed.readline(prompt); }
void ckedit_add_history(const char *line) { ed.add_history(line); }
int ckedit_read_history(const char *path) { return ed.read_history(path); }
void ckedit_stifle_history(int max) { ed.stifle_history(max); }

/* Attempts nothing, so the generator's candidates are used; its presence makes libedit insert
   them as they are: without one it escapes them as file names (`Row#7` became `Row\#7`). */
static char **attempt_nothing(const char *text, int start, int end) {
    (void)text, (void)start, (void)end;
    return NULL;
}

void ckedit_set_completion(char *(*generator)(const char *, int), char *word_breaks) {
    *ed.entry_function = generator;
    *ed.attempted_function = attempt_nothing;
    /* libedit reads the basic set; readline the completer's. No space after a completion. */
    *ed.basic_word_breaks = word_breaks;
    *ed.completer_word_breaks = word_breaks;
    *ed.append_character = 0;
}

const char *ckedit_line_before_cursor(size_t *length) {
    const ckedit_line_info *info = el_line(ed.editor);
    if (info == NULL || info->cursor < info->buffer) return *length = 0, "";
    *length = (size_t)(info->cursor - info->buffer);
    return info->buffer;
}
int ckedit_line_end(void) { return *ed.end; }

void ckedit_callback_handler_install(const char *prompt, void (*handler)(char *)) { ed.handler_install(prompt, handler); }
void ckedit_callback_handler_remove(void) { ed.handler_remove(); }
void ckedit_callback_read_char(void) { ed.read_char(); }
void ckedit_forced_update_display(void) { (void)ed.forced_update_display(); }
void ckedit_resize_terminal(void) { ed.resize_terminal(); }

/* After a stop (Ctrl-Z) and `fg` the shell left the terminal in its own (cooked) modes, while
   libedit believes it still has its own set: left, then taken again (libedit takes them only
   when it thinks it has not), and the prompt and line drawn again. */
void ckedit_continued(void) {
    ed.deprep_terminal();
    (void)ed.prep_terminal(1);
    (void)ed.forced_update_display();
}

int ckedit_terminal_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0) return 80;
    return size.ws_col;
}

/* A byte taken with descriptor 0 non-blocking and put back (ungetc): from what the stream read
   ahead if it holds any, else from the descriptor if it has one now. No C library's FILE
   internals are read (glibc's read pointers were, on Linux alone). A byte read from the
   descriptor stays in the stream, read ahead as the next line's read would have. */
int ckedit_stdin_ready(void) {
    int flags = fcntl(0, F_GETFL);
    if (flags < 0) return 0;
    int blocking = (flags & O_NONBLOCK) == 0;
    if (blocking && fcntl(0, F_SETFL, flags | O_NONBLOCK) != 0) return 0;
    int c = getc(stdin);
    /* The end of input is there to be read too: a terminal's Ctrl-D is read once, so the probe
       keeps it (the stream's end-of-file indicator, which the next read returns at once). */
    int ended = c == EOF && feof(stdin);
    if (c != EOF) ungetc(c, stdin);
    else if (!ended) clearerr(stdin);   /* EAGAIN: nothing now; the next read waits as it did */
    if (blocking) fcntl(0, F_SETFL, flags);
    return c != EOF || ended;
}
