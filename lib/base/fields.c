#include <config.h>
#include "base/fields.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/utf8.h"
#include "base/vocab.h"

size_t tab_split(char *line, size_t len, char **field, size_t *flen, size_t max)
{
    char *p = line, *end = line + len;
    size_t n = 0;
    for (;;) {
        char *tab = n + 1 < max ? memchr(p, '\t', (size_t)(end - p)) : NULL;
        char *stop = tab ? tab : end;
        field[n] = p;
        if (flen)
            flen[n] = (size_t)(stop - p);
        n++;
        if (!tab)
            return n;
        *tab = '\0';
        p = tab + 1;
    }
}

void tab_row_free(tab_row *row)
{
    free(row->field);
    free(row->len);
    row->field = NULL;
    row->len = NULL;
    row->n = row->cap = 0;
}

int tab_row_split(tab_row *row, char *line, size_t len, const char *file, long lineno,
                  tells_error *err)
{
    size_t n = 1;
    for (const char *p = line; (p = memchr(p, '\t', len - (size_t)(p - line))); p++)
        n++;
    if (n > row->cap) {
        size_t cap = row->cap, cap2 = row->cap;
        char **f = array_grow(row->field, &cap, n, sizeof *f, 16);
        if (f)
            row->field = f;
        size_t *l = f ? array_grow(row->len, &cap2, n, sizeof *l, 16) : NULL;
        if (!l)
            return tells_error_nomem(err, file, lineno);
        row->len = l;
        row->cap = cap;
    }
    row->n = tab_split(line, len, row->field, row->len, n);
    return 0;
}

const char *tab_field_at(const char *s, size_t k, size_t *len)
{
    for (size_t i = 0; i < k && s; i++) {
        s = strchr(s, '\t');
        if (s)
            s++;
    }
    if (!s)
        return NULL;
    const char *tab = strchr(s, '\t');
    *len = tab ? (size_t)(tab - s) : strlen(s);
    return s;
}

int text_line_check(const char *line, size_t len, const char *file, long lineno,
                    tells_error *err)
{
    size_t bad = text_invalid_offset(line, len);
    if (bad == (size_t)-1)
        return 0;
    return tells_error_set(err, file, lineno,
                           line[bad] ? "invalid UTF-8" : "NUL byte in input");
}

int header_names_check(char *const *name, const size_t *len, size_t n, const char *file,
                       long lineno, tells_error *err)
{
    for (size_t i = 0; i < n; i++) {
        if (text_line_check(name[i], len[i], file, lineno, err) < 0)
            return -1;
        /* A carriage return or other control character in a name would
           not survive being written back (a CR before the line end is
           dropped on reading). */
        for (size_t k = 0; k < len[i]; k++)
            if ((unsigned char)name[i][k] < 0x20 || name[i][k] == 0x7f)
                return tells_error_set(err, file, lineno, "a control character in the "
                                       "name of column %zu", i + 1);
    }
    /* A vocab, not pairwise comparisons: a hostile header may have half
       a million columns. first[id] is where each name first stood. */
    vocab *seen = vocab_new();
    size_t *first = array_new(n, sizeof *first);
    int rc = seen && first ? 0 : tells_error_nomem(err, file, lineno);
    for (size_t j = 0; rc == 0 && j < n; j++) {
        if (len[j] == 0)
            continue;
        size_t before = vocab_size(seen);
        long k = vocab_intern(seen, name[j], len[j]);
        if (k < 0)
            rc = tells_error_nomem(err, file, lineno);
        else if ((size_t)k < before)
            rc = tells_error_set(err, file, lineno, "duplicate column '%s' (columns %zu "
                                 "and %zu)", name[j], first[k] + 1, j + 1);
        else
            first[k] = j;
    }
    vocab_free(seen);
    free(first);
    return rc;
}

int header_line_check(const char *line, size_t len, const char *file, long lineno,
                      tells_error *err)
{
    char *copy = malloc(len + 1);
    if (!copy)
        return tells_error_nomem(err, file, lineno);
    memcpy(copy, line, len);
    copy[len] = '\0';
    tab_row names = {0};
    int rc = tab_row_split(&names, copy, len, file, lineno, err);
    if (rc == 0)
        rc = header_names_check(names.field, names.len, names.n, file, lineno, err);
    tab_row_free(&names);
    free(copy);
    return rc;
}

int tab_columns_error(tells_error *err, const char *file, long lineno, size_t want,
                      size_t found, const char *names)
{
    if (!names)
        return tells_error_set(err, file, lineno,
                               "expected %zu tab-separated columns, found %zu", want, found);
    if (want == 1)
        return tells_error_set(err, file, lineno, "expected one column (%s), found a tab",
                               names);
    return tells_error_set(err, file, lineno, "expected %zu tab-separated columns (%s)",
                           want, names);
}
