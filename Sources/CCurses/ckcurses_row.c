/* A row of text as the cells ncurses stores, for wadd_wchnstr: one call copies the row's cells,
   where waddnstr takes it a byte at a time (each byte through the multibyte and control-character
   paths: a tenth of a 1,000-row redraw's instructions went there). */
#include "ckcurses_internal.h"
#include <string.h>
#include <wchar.h>

/* `utf8` (`length` bytes) as cells from column `x` of a window `columns` wide, as waddnstr would
   store them: each printable character in a cell of its own, one of no width (a combining mark)
   joined to the cell before it. Returns the number of cells, their width in `width`; 0 when the
   text is anything else (a control character, bytes the locale cannot read, a mark with no cell
   before it, more than `capacity` cells, or a row that reaches the window's last column: there
   waddnstr wraps the cursor), which waddnstr then draws itself. */
int ckcurses_row_cells(const char *utf8, int length, int x, int columns, cchar_t *cells, int capacity, int *width) {
    mbstate_t state;
    memset(&state, 0, sizeof state);
    int n = 0, used = 0;
    for (int i = 0; i < length;) {
        unsigned char b = (unsigned char)utf8[i];
        wchar_t wc = b;
        int w = 1;
        if (b < 0x20 || b >= 0x7F) {   /* printable ASCII is itself in every locale ncurses reads */
            size_t k = mbrtowc(&wc, utf8 + i, (size_t)(length - i), &state);
            if (k == 0 || k == (size_t)-1 || k == (size_t)-2 || (w = wcwidth(wc)) < 0) return 0;
            i += (int)k;
        } else {
            i++;
        }
        if (w == 0) {
            int j = 1;
            while (n > 0 && j < CCHARW_MAX && cells[n - 1].chars[j] != 0) j++;
            if (n == 0 || j == CCHARW_MAX) return 0;
            cells[n - 1].chars[j] = wc;
            continue;
        }
        if (n == capacity || x + used + w >= columns) return 0;
        memset(&cells[n], 0, sizeof cells[n]);
        cells[n++].chars[0] = wc;
        used += w;
    }
    *width = used;
    return n;
}
