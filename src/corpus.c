#include <config.h>
#include "corpus.h"

#include <csv.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "lineio.h"
#include "utf8.h"

const corpus_fields CORPUS_FIELDS_DEFAULT = {
    "pairID", "gold_label", "sentence1", "sentence2"
};

enum { COL_ID, COL_LABEL, COL_PREMISE, COL_HYPOTHESIS, NCOLS };

typedef struct csv_record {
    char **field;
    size_t *len;
    size_t n, cap;
    bool done;
} csv_record;

struct corpus_reader {
    corpus_format fmt;
    line_reader lr;
    corpus_fields names;
    bool local_error;
    long records;
    /* JSONL */
    json_t *doc;
    /* CSV/TSV */
    struct csv_parser csv;
    bool csv_ready;
    csv_record rec;
    long rec_start;
    long col[NCOLS];         /* column index of each field, -1 if absent */
    size_t ncolumns;         /* from the header; 0 before it is read */
    bool eof;
};

int corpus_format_parse(const char *name, corpus_format *fmt)
{
    static const struct { const char *name; corpus_format fmt; } names[] = {
        {"auto", FORMAT_AUTO}, {"jsonl", FORMAT_JSONL},
        {"csv", FORMAT_CSV}, {"tsv", FORMAT_TSV},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0) {
            *fmt = names[i].fmt;
            return 0;
        }
    return -1;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

corpus_format corpus_format_guess(const char *path)
{
    if (ends_with(path, ".csv"))
        return FORMAT_CSV;
    if (ends_with(path, ".tsv") || ends_with(path, ".tab"))
        return FORMAT_TSV;
    return FORMAT_JSONL;
}

bool corpus_error_is_local(const corpus_reader *r) { return r->local_error; }
long corpus_records(const corpus_reader *r) { return r->records; }

/* ---- JSONL ---- */

static bool blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return false;
    return true;
}

static int local_error(corpus_reader *r, tells_error *err, long line,
                       const char *fmt, const char *a, const char *b)
{
    r->local_error = true;
    return tells_error_set(err, r->lr.name, line, fmt, a, b);
}

/* A required string field of a JSON object. */
static int json_text(corpus_reader *r, json_t *obj, const char *key, long line,
                     const char **out, size_t *len, tells_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return local_error(r, err, line, "missing field '%s'%s", key, "");
    if (!json_is_string(v))
        return local_error(r, err, line, "field '%s' is not a string%s", key, "");
    *out = json_string_value(v);
    *len = json_string_length(v);
    return 0;
}

/* The id may be absent or null (then positional ids are used), a string
   or an integer. */
static int json_id(corpus_reader *r, json_t *obj, long line, raw_example *ex,
                   tells_error *err)
{
    static char numbuf[32];
    json_t *v = json_object_get(obj, r->names.id);
    ex->id = NULL;
    ex->id_len = 0;
    if (!v || json_is_null(v))
        return 0;
    if (json_is_string(v)) {
        ex->id = json_string_value(v);
        ex->id_len = json_string_length(v);
    } else if (json_is_integer(v)) {
        snprintf(numbuf, sizeof numbuf, "%" JSON_INTEGER_FORMAT,
                 json_integer_value(v));
        ex->id = numbuf;
        ex->id_len = strlen(numbuf);
    } else
        return local_error(r, err, line, "field '%s' is not a string or integer%s",
                           r->names.id, "");
    return 0;
}

static int jsonl_next(corpus_reader *r, raw_example *ex, tells_error *err)
{
    char *line;
    size_t len;
    int rc;
    do {
        rc = line_reader_next(&r->lr, &line, &len, err);
        if (rc <= 0)
            return rc;
    } while (blank(line, len));
    r->records++;
    long ln = r->lr.lineno;
    if (r->doc) {
        json_decref(r->doc);
        r->doc = NULL;
    }
    json_error_t jerr;
    r->doc = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!r->doc) {
        r->local_error = true;
        return tells_error_set(err, r->lr.name, ln, "malformed JSON: %s (column %d)",
                               jerr.text, jerr.column);
    }
    if (!json_is_object(r->doc))
        return local_error(r, err, ln, "expected a JSON object%s%s", "", "");
    ex->lineno = ln;
    if (json_text(r, r->doc, r->names.label, ln, &ex->label, &ex->label_len, err) < 0 ||
        json_text(r, r->doc, r->names.premise, ln, &ex->premise, &ex->premise_len, err) < 0 ||
        json_text(r, r->doc, r->names.hypothesis, ln, &ex->hypothesis,
                  &ex->hypothesis_len, err) < 0 ||
        json_id(r, r->doc, ln, ex, err) < 0)
        return -1;
    return 1;
}

/* ---- CSV/TSV ---- */

static void record_clear(csv_record *rec)
{
    for (size_t i = 0; i < rec->n; i++)
        free(rec->field[i]);
    rec->n = 0;
    rec->done = false;
}

static void on_field(void *data, size_t len, void *user)
{
    csv_record *rec = user;
    if (rec->n == rec->cap) {
        size_t cap = rec->cap ? rec->cap * 2 : 8;
        char **f = realloc(rec->field, cap * sizeof *f);
        size_t *l = f ? realloc(rec->len, cap * sizeof *l) : NULL;
        if (f)
            rec->field = f;
        if (!f || !l)
            return;  /* reported as out of memory by the count check */
        rec->len = l;
        rec->cap = cap;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return;
    memcpy(copy, data ? data : "", len);
    copy[len] = '\0';
    rec->field[rec->n] = copy;
    rec->len[rec->n] = len;
    rec->n++;
}

static void on_record(int c, void *user)
{
    (void)c;
    ((csv_record *)user)->done = true;
}

/* Feeds lines to libcsv until one record is complete; 0 at end. */
static int csv_read_record(corpus_reader *r, tells_error *err)
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
            if (csv_fini(&r->csv, on_field, on_record, &r->rec) != 0)
                return tells_error_set(err, r->lr.name, r->lr.lineno,
                                       "malformed CSV: %s",
                                       csv_strerror(csv_error(&r->csv)));
            if (!r->rec.done)
                return 0;
            break;
        }
        if (r->lr.lineno == 1 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
            line += 3;
            len -= 3;
        }
        if (strlen(line) != len)
            return tells_error_set(err, r->lr.name, r->lr.lineno, "NUL byte in input");
        if (r->rec_start == 0 && len > 0)
            r->rec_start = r->lr.lineno;
        /* Line ends were stripped (CRLF too); give libcsv a plain LF. */
        if (csv_parse(&r->csv, line, len, on_field, on_record, &r->rec) != len ||
            csv_parse(&r->csv, "\n", 1, on_field, on_record, &r->rec) != 1)
            return tells_error_set(err, r->lr.name, r->lr.lineno,
                                   "malformed CSV: %s",
                                   csv_strerror(csv_error(&r->csv)));
    }
    r->records++;
    return 1;
}

static int csv_header(corpus_reader *r, tells_error *err)
{
    int rc = csv_read_record(r, err);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return tells_error_set(err, r->lr.name, 0, "empty input: expected a header row");
    r->records = 0;
    const char *want[NCOLS] = {r->names.id, r->names.label, r->names.premise,
                               r->names.hypothesis};
    for (int k = 0; k < NCOLS; k++) {
        r->col[k] = -1;
        for (size_t i = 0; i < r->rec.n; i++)
            if (strcmp(r->rec.field[i], want[k]) == 0)
                r->col[k] = (long)i;
        if (r->col[k] < 0 && k != COL_ID)
            return tells_error_set(err, r->lr.name, r->rec_start,
                                   "no column named '%s' in the header", want[k]);
    }
    r->ncolumns = r->rec.n;
    return 0;
}

static int csv_next(corpus_reader *r, raw_example *ex, tells_error *err)
{
    if (r->ncolumns == 0 && csv_header(r, err) < 0)
        return -1;
    int rc = csv_read_record(r, err);
    if (rc <= 0)
        return rc;
    long ln = r->rec_start;
    if (r->rec.n != r->ncolumns) {
        r->local_error = true;
        return tells_error_set(err, r->lr.name, ln, "expected %zu columns, found %zu",
                               r->ncolumns, r->rec.n);
    }
    for (size_t i = 0; i < r->rec.n; i++)
        if (utf8_invalid_offset(r->rec.field[i], r->rec.len[i]) != (size_t)-1) {
            r->local_error = true;
            return tells_error_set(err, r->lr.name, ln, "invalid UTF-8");
        }
    const char **dst[NCOLS] = {&ex->id, &ex->label, &ex->premise, &ex->hypothesis};
    size_t *dlen[NCOLS] = {&ex->id_len, &ex->label_len, &ex->premise_len,
                           &ex->hypothesis_len};
    for (int k = 0; k < NCOLS; k++) {
        *dst[k] = r->col[k] >= 0 ? r->rec.field[r->col[k]] : NULL;
        *dlen[k] = r->col[k] >= 0 ? r->rec.len[r->col[k]] : 0;
    }
    if (ex->id && ex->id_len == 0)
        ex->id = NULL;
    ex->lineno = ln;
    return 1;
}

/* ---- common ---- */

int corpus_open(corpus_reader **out, const char *path, corpus_format fmt,
                const corpus_fields *fields, size_t max_line, tells_error *err)
{
    corpus_reader *r = calloc(1, sizeof *r);
    if (!r)
        return tells_error_set(err, display_name(path), 0, "out of memory");
    r->names = fields ? *fields : CORPUS_FIELDS_DEFAULT;
    r->fmt = fmt == FORMAT_AUTO ? corpus_format_guess(path) : fmt;
    if (line_reader_open(&r->lr, path, max_line, err) < 0) {
        free(r);
        return -1;
    }
    if (r->fmt != FORMAT_JSONL) {
        if (csv_init(&r->csv, CSV_STRICT | CSV_STRICT_FINI) != 0) {
            corpus_close(r);
            return tells_error_set(err, display_name(path), 0, "out of memory");
        }
        r->csv_ready = true;
        if (r->fmt == FORMAT_TSV) {
            /* TSV has no quoting: a quote is an ordinary character. NUL
               never reaches the parser (it is refused above). */
            csv_set_delim(&r->csv, '\t');
            csv_set_quote(&r->csv, '\0');
        }
    }
    *out = r;
    return 0;
}

int corpus_next(corpus_reader *r, raw_example *ex, tells_error *err)
{
    r->local_error = false;
    return r->fmt == FORMAT_JSONL ? jsonl_next(r, ex, err) : csv_next(r, ex, err);
}

void corpus_close(corpus_reader *r)
{
    if (!r)
        return;
    if (r->doc)
        json_decref(r->doc);
    if (r->csv_ready)
        csv_free(&r->csv);
    record_clear(&r->rec);
    free(r->rec.field);
    free(r->rec.len);
    line_reader_close(&r->lr);
    free(r);
}
