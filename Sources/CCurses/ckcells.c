/* Character widths in terminal cells, as ncursesw counts them (the C library's wcwidth under
   a UTF-8 locale); no ncurses needed. */
#include "ckcurses.h"
#include <langinfo.h>
#include <locale.h>
#include <string.h>
#include <wchar.h>

void ckcells_use_utf8_locale(void) {
    if (setlocale(LC_CTYPE, "") != NULL && strcmp(nl_langinfo(CODESET), "UTF-8") == 0) return;
    setlocale(LC_CTYPE, "C.UTF-8");
}

int ckcells_width(unsigned int code_point) { return wcwidth((wchar_t)code_point); }
