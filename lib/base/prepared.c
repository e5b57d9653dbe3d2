#include <config.h>
#include "base/prepared.h"

#include <stdlib.h>
#include <string.h>

#include "base/fields.h"

static const char *field_names[PREP_NFIELDS] = {
    "id", "split", "label", "premise", "hypothesis"
};

static const char *text_field_names[] = {"hypothesis", "premise", "both"};

int text_field_parse(const char *name, text_field *f)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, text_field_names[i]) == 0) {
            *f = (text_field)i;
            return 0;
        }
    return -1;
}

const char *text_field_name(text_field f) { return text_field_names[f]; }

static size_t count_tabs(const char *s, size_t len)
{
    size_t n = 0;
    for (const char *p = s; (p = memchr(p, '\t', len - (size_t)(p - s))); p++)
        n++;
    return n;
}

static int read_header(prepared_reader *r, tells_error *err)
{
    char *line;
    size_t len;
    int rc = line_reader_header(&r->lr, &line, &len, err);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return tells_error_set(err, r->lr.name, 0,
                               "empty input: expected a prepared TSV header");
    size_t hl = strlen(PREPARED_HEADER);
    if (len < hl || memcmp(line, PREPARED_HEADER, hl) != 0 ||
        (len > hl && line[hl] != '\t')) {
        tells_error_set(err, r->lr.name, 1,
                        "not a prepared TSV: the header must start with "
                        "'id<TAB>split<TAB>label<TAB>premise<TAB>hypothesis'");
        tells_error_tag(err, TELLS_E_NOT_PREPARED, NULL);
        return -1;
    }
    /* Names valid UTF-8, none twice (an extra column named like one of
       the five, or two alike, could not be told apart). */
    if (header_line_check(line, len, r->lr.name, 1, err) < 0)
        return -1;
    if (len > hl) {
        r->extra_header = strdup(line + hl + 1);
        if (!r->extra_header)
            return tells_error_nomem(err, r->lr.name, 1);
        r->extra_columns = count_tabs(line + hl, len - hl);
    }
    return 0;
}

bool prepared_file_is(const char *path)
{
    prepared_reader pr;
    tells_error ignored;
    if (strcmp(path, "-") == 0 || prepared_open(&pr, path, false, &ignored) < 0)
        return false;
    prepared_close(&pr);
    return true;
}

int prepared_open(prepared_reader *r, const char *path, bool no_header,
                  tells_error *err)
{
    memset(r, 0, sizeof *r);
    if (line_reader_open(&r->lr, path, 0, err) < 0)
        return -1;
    r->header = !no_header;
    if (r->header && read_header(r, err) < 0) {
        prepared_close(r);
        return -1;
    }
    return 0;
}

int prepared_open_range(prepared_reader *r, const char *path,
                        const prepared_reader *first, uint64_t start,
                        uint64_t end, tells_error *err)
{
    memset(r, 0, sizeof *r);
    if (line_reader_open_at(&r->lr, path, 0, start - 1, err) < 0)
        return -1;
    r->header = first->header;
    r->extra_columns = first->extra_columns;
    r->range_end = end;
    /* The line under start - 1 belongs to the range before (or is the
       line end just before start): skip it. */
    char *line;
    size_t len;
    if (line_reader_next(&r->lr, &line, &len, err) < 0) {
        prepared_close(r);
        return -1;
    }
    r->lr.lineno = 0;
    return 0;
}

void prepared_close(prepared_reader *r)
{
    line_reader_close(&r->lr);
    free(r->extra_header);
    r->extra_header = NULL;
}

int prepared_next(prepared_reader *r, prepared_row *row, tells_error *err)
{
    char *line;
    size_t len;
    if (r->range_end && r->lr.pos >= r->range_end)
        return 0;
    int rc = line_reader_next(&r->lr, &line, &len, err);
    if (rc <= 0)
        return rc;
    long ln = r->lr.lineno;
    if (text_line_check(line, len, r->lr.name, ln, err) < 0)
        return -1;
    /* CRLF is read as LF; a CR left inside the row would be lost when
       the row is written and read again. */
    if (memchr(line, '\r', len))
        return tells_error_set(err, r->lr.name, ln, "a carriage return inside the row");
    /* The file's byte-order mark is dropped; another one at a row's
       start would be dropped when the row is written first. */
    if (len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0)
        return tells_error_set(err, r->lr.name, ln, "a byte-order mark at the start of the row");
    char *field[PREP_NFIELDS + 1];
    size_t flen[PREP_NFIELDS + 1];
    size_t n = tab_split(line, len, field, flen, PREP_NFIELDS + 1);
    for (size_t f = 0; f < PREP_NFIELDS; f++) {
        if (f + 1 == n && f + 1 < PREP_NFIELDS)
            return tab_columns_error(err, r->lr.name, ln, PREP_NFIELDS + r->extra_columns,
                                     n, NULL);
        row->field[f] = field[f];
        row->len[f] = flen[f];
        /* Text fields are tokens joined by single spaces: one that starts
           with a space may hold nothing else. */
        if (flen[f] == 0 || (field[f][0] == ' ' && strspn(field[f], " ") == flen[f]))
            return tells_error_set(err, r->lr.name, ln, "empty %s", field_names[f]);
    }
    row->extra = n > PREP_NFIELDS ? field[PREP_NFIELDS] : NULL;
    row->extra_len = n > PREP_NFIELDS ? flen[PREP_NFIELDS] : 0;
    size_t extra = row->extra ? count_tabs(row->extra, row->extra_len) + 1 : 0;
    if (r->header && extra != r->extra_columns)
        return tab_columns_error(err, r->lr.name, ln, PREP_NFIELDS + r->extra_columns,
                                 PREP_NFIELDS + extra, NULL);
    row->lineno = ln;
    return 1;
}

int prepared_write_header(FILE *fp, const prepared_reader *r)
{
    if (fputs(PREPARED_HEADER, fp) == EOF ||
        (r->extra_header && fprintf(fp, "\t%s", r->extra_header) < 0))
        return -1;
    return putc('\n', fp) == EOF ? -1 : 0;
}

int prepared_empty_error(tells_error *err, char *const *paths, size_t npaths)
{
    return tells_error_set(err, npaths == 1 ? display_name(paths[0]) : NULL, 0,
                           "no examples in the input");
}

int prepared_write_row(FILE *fp, const prepared_row *row)
{
    for (int f = 0; f < PREP_NFIELDS; f++) {
        if (f && putc('\t', fp) == EOF)
            return -1;
        if (fwrite(row->field[f], 1, row->len[f], fp) != row->len[f])
            return -1;
    }
    if (row->extra) {
        if (putc('\t', fp) == EOF ||
            fwrite(row->extra, 1, row->extra_len, fp) != row->extra_len)
            return -1;
    }
    return putc('\n', fp) == EOF ? -1 : 0;
}
