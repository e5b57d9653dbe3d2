#include <config.h>
#include "base/csvrec.h"

#include <csv.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fields.h"
#include "base/utf8.h"

typedef struct record_buf {
    char **field;
    size_t *len;
    size_t n, cap;
    bool done, oom;
} record_buf;

struct csv_rec_reader {
    line_reader lr;
    struct csv_parser csv;
    bool tsv, eof;
    bool header_read;      /* the first record, the header, was checked */
    record_buf rec;
    long rec_start;
};

static void record_clear(record_buf *rec)
{
    for (size_t i = 0; i < rec->n; i++)
        free(rec->field[i]);
    rec->n = 0;
    rec->done = false;
}

static void on_field(void *data, size_t len, void *user)
{
    record_buf *rec = user;
    /* field and len share cap: len grows first, on a copy of it, so that
       cap only counts once both have grown. */
    size_t len_cap = rec->cap;
    if (ARRAY_RESERVE_MIN(rec->len, len_cap, rec->n + 1, 8) < 0 ||
        ARRAY_RESERVE_MIN(rec->field, rec->cap, rec->n + 1, 8) < 0) {
        rec->oom = true;
        return;
    }
    char *copy = malloc(len + 1);
    if (!copy) {
        rec->oom = true;
        return;
    }
    memcpy(copy, data ? data : "", len);
    copy[len] = '\0';
    rec->field[rec->n] = copy;
    rec->len[rec->n] = len;
    rec->n++;
}

static void on_record(int c, void *user)
{
    (void)c;
    ((record_buf *)user)->done = true;
}

int csv_rec_open(csv_rec_reader **out, const char *path, bool tsv, size_t max_line,
                 tells_error *err)
{
    csv_rec_reader *r = calloc(1, sizeof *r);
    if (!r)
        return tells_error_nomem(err, display_name(path), 0);
    if (line_reader_open(&r->lr, path, max_line, err) < 0) {
        free(r);
        return -1;
    }
    if (csv_init(&r->csv, CSV_STRICT | CSV_STRICT_FINI) != 0) {
        line_reader_close(&r->lr);
        free(r);
        return tells_error_nomem(err, display_name(path), 0);
    }
    r->tsv = tsv;
    if (tsv) {
        /* TSV has no quoting: a quote is an ordinary character. NUL never
           reaches the parser (it is refused below). */
        csv_set_delim(&r->csv, '\t');
        csv_set_quote(&r->csv, '\0');
    }
    *out = r;
    return 0;
}

static int failure(csv_rec_reader *r, long line, tells_error *err)
{
    if (r->rec.oom || csv_error(&r->csv) == CSV_ENOMEM)
        return tells_error_nomem(err, r->lr.name, line);
    if (csv_error(&r->csv) == CSV_EPARSE)
        return tells_error_set(err, r->lr.name, line,
                               "malformed %s: a quote inside an unquoted field, "
                               "or a quoted field that does not end",
                               r->tsv ? "TSV" : "CSV");
    return tells_error_set(err, r->lr.name, line, "%s",
                           csv_strerror(csv_error(&r->csv)));
}

int csv_rec_next(csv_rec_reader *r, csv_rec *rec, tells_error *err)
{
    record_clear(&r->rec);
    r->rec_start = 0;
    while (!r->rec.done) {
        if (r->eof)
            return 0;
        char *line;
        size_t len;
        int rc = line_reader_next(&r->lr, &line, &len, err);
        if (rc < 0)
            return -1;
        if (rc == 0) {
            r->eof = true;
            if (csv_fini(&r->csv, on_field, on_record, &r->rec) != 0 || r->rec.oom)
                return failure(r, r->rec_start ? r->rec_start : r->lr.lineno, err);
            if (!r->rec.done)
                return 0;
            break;
        }
        if (strlen(line) != len)
            return tells_error_set(err, r->lr.name, r->lr.lineno, "NUL byte in input");
        if (r->rec_start == 0 && len > 0)
            r->rec_start = r->lr.lineno;
        /* Line ends were stripped (CRLF too); give libcsv a plain LF. */
        if (csv_parse(&r->csv, line, len, on_field, on_record, &r->rec) != len ||
            csv_parse(&r->csv, "\n", 1, on_field, on_record, &r->rec) != 1 || r->rec.oom)
            return failure(r, r->lr.lineno, err);
    }
    rec->field = r->rec.field;
    rec->len = r->rec.len;
    rec->n = r->rec.n;
    rec->line = r->rec_start;
    if (!r->header_read) {
        r->header_read = true;
        if (header_names_check(rec->field, rec->len, rec->n, r->lr.name, rec->line, err) < 0)
            return -1;
    }
    return 1;
}

int csv_rec_next_row(csv_rec_reader *r, csv_rec *rec, size_t ncol, tells_error *err)
{
    int rc = csv_rec_next(r, rec, err);
    if (rc <= 0)
        return rc;
    if (rec->n != ncol)
        return tells_error_set(err, r->lr.name, rec->line, "expected %zu columns, found %zu",
                               ncol, rec->n);
    for (size_t i = 0; i < rec->n; i++)
        if (text_invalid_offset(rec->field[i], rec->len[i]) != (size_t)-1)
            return tells_error_set(err, r->lr.name, rec->line, "invalid UTF-8");
    return 1;
}

long csv_rec_column(const csv_rec *header, const char *name)
{
    for (size_t i = 0; *name && i < header->n; i++)
        if (strcmp(header->field[i], name) == 0)
            return (long)i;
    return -1;
}

const char *csv_rec_name(const csv_rec_reader *r) { return r->lr.name; }

void csv_rec_close(csv_rec_reader *r)
{
    if (!r)
        return;
    csv_free(&r->csv);
    record_clear(&r->rec);
    free(r->rec.field);
    free(r->rec.len);
    line_reader_close(&r->lr);
    free(r);
}

int csv_write_field(FILE *fp, const char *s)
{
    return csv_fwrite(fp, s, strlen(s)) == 0 ? 0 : -1;
}
