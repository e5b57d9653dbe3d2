#include <config.h>
#include "text/corpus.h"

#include <yajl/yajl_parse.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/csvrec.h"
#include "base/lineio.h"
#include "base/utf8.h"

const corpus_fields CORPUS_FIELDS_DEFAULT = {
    "pairID", "gold_label", "sentence1", "sentence2"
};

enum { COL_ID, COL_LABEL, COL_PREMISE, COL_HYPOTHESIS, NCOLS };

struct corpus_reader {
    corpus_format fmt;
    line_reader lr;
    corpus_fields names;
    bool local_error;
    long records;
    /* JSONL */
    yajl_handle yajl;
    struct json_state *json;
    /* CSV/TSV */
    csv_rec_reader *csv;
    csv_rec rec;
    long col[NCOLS];         /* column index of each field, -1 if absent */
    size_t ncolumns;         /* from the header; 0 before it is read */
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

/* ---- JSONL ----
   yajl parses each line through one long-lived handle (a new handle per
   record costs more than the parse itself). The callbacks keep the
   top-level string values of the four fields and ignore the rest. */

enum { VAL_NONE, VAL_STRING, VAL_NUMBER, VAL_NULL, VAL_OTHER };

typedef struct json_field {
    char *buf;
    size_t len, cap;
    int kind;
} json_field;

typedef struct json_state {
    corpus_reader *r;
    json_field field[NCOLS];
    int depth;           /* of maps and arrays */
    int key;             /* field whose value comes next, -1 none */
    int values;          /* top-level values completed on this line */
    bool top_is_map;
    bool nomem;          /* a callback stopped the parse: out of memory */
    char problem[256];   /* why a callback stopped the parse otherwise */
} json_state;

static int set_value(json_state *js, int kind, const void *data, size_t len)
{
    if (js->depth == 0 && kind != VAL_OTHER) {
        snprintf(js->problem, sizeof js->problem, "expected a JSON object");
        return 0;
    }
    if (js->depth != 1 || js->key < 0)
        return 1;
    json_field *f = &js->field[js->key];
    js->key = -1;
    f->kind = kind;
    f->len = 0;
    if (!data)
        return 1;
    if (ARRAY_RESERVE_MIN(f->buf, f->cap, len + 1, 256) < 0) {
        js->nomem = true;
        return 0;
    }
    memcpy(f->buf, data, len);
    f->buf[len] = '\0';
    f->len = len;
    return 1;
}

static int on_null(void *ctx) { return set_value(ctx, VAL_NULL, NULL, 0); }
static int on_bool(void *ctx, int b) { (void)b; return set_value(ctx, VAL_OTHER, NULL, 0); }
static int on_number(void *ctx, const char *s, size_t len)
{
    return set_value(ctx, VAL_NUMBER, s, len);
}
static int on_string(void *ctx, const unsigned char *s, size_t len)
{
    return set_value(ctx, VAL_STRING, s, len);
}

static int open_nested(json_state *js, bool map)
{
    if (js->depth == 0) {
        if (!map) {
            snprintf(js->problem, sizeof js->problem, "expected a JSON object");
            return 0;
        }
        if (js->values > 0) {
            snprintf(js->problem, sizeof js->problem, "more than one JSON value on the line");
            return 0;
        }
        for (int k = 0; k < NCOLS; k++)
            js->field[k].kind = VAL_NONE;
    } else if (js->depth == 1 && js->key >= 0) {
        js->field[js->key].kind = VAL_OTHER;
        js->key = -1;
    }
    js->depth++;
    return 1;
}

static int close_nested(json_state *js)
{
    if (--js->depth == 0)
        js->values++;
    return 1;
}

static int on_start_map(void *ctx) { return open_nested(ctx, true); }
static int on_start_array(void *ctx) { return open_nested(ctx, false); }
static int on_end(void *ctx) { return close_nested(ctx); }

static int on_key(void *ctx, const unsigned char *s, size_t len)
{
    json_state *js = ctx;
    js->key = -1;
    if (js->depth != 1)
        return 1;
    const char *names[NCOLS] = {js->r->names.id, js->r->names.label,
                                js->r->names.premise, js->r->names.hypothesis};
    for (int k = 0; k < NCOLS; k++)
        if (strlen(names[k]) == len && memcmp(names[k], s, len) == 0) {
            if (js->field[k].kind != VAL_NONE) {
                snprintf(js->problem, sizeof js->problem, "duplicate key '%s'", names[k]);
                return 0;
            }
            js->key = k;
        }
    return 1;
}

static const yajl_callbacks json_callbacks = {
    on_null, on_bool, NULL, NULL, on_number, on_string,
    on_start_map, on_key, on_end, on_start_array, on_end
};

static int json_reset(corpus_reader *r)
{
    if (r->yajl)
        yajl_free(r->yajl);
    r->yajl = yajl_alloc(&json_callbacks, NULL, r->json);
    if (!r->yajl)
        return -1;
    yajl_config(r->yajl, yajl_allow_multiple_values, 1);
    return 0;
}

/* An error that concerns one record only: reading may go on. */
__attribute__((format(printf, 4, 5)))
static int local_error(corpus_reader *r, tells_error *err, long line,
                       const char *fmt, ...)
{
    r->local_error = true;
    va_list ap;
    va_start(ap, fmt);
    tells_error_setv(err, TELLS_ERR_DATA, r->csv ? csv_rec_name(r->csv) : r->lr.name, line,
                     fmt, ap);
    va_end(ap);
    return -1;
}

/* A new yajl handle after a failed parse; out of memory is no error of
   the record (reading cannot go on). */
static int json_restart(corpus_reader *r, long ln, tells_error *err)
{
    if (json_reset(r) == 0)
        return -1;
    r->local_error = false;
    return tells_error_nomem(err, r->lr.name, ln);
}

/* Why yajl stopped, as one line; the handle is replaced afterwards. */
static int json_failure(corpus_reader *r, yajl_status st, long ln, tells_error *err)
{
    json_state *js = r->json;
    if (st == yajl_status_client_canceled && js->nomem)
        return tells_error_nomem(err, r->lr.name, ln);
    if (st == yajl_status_client_canceled)
        local_error(r, err, ln, "%s", js->problem);
    else {
        unsigned char *msg = yajl_get_error(r->yajl, 0, NULL, 0);
        size_t at = yajl_get_bytes_consumed(r->yajl);
        char *text = (char *)msg;
        if (strncmp(text, "parse error: ", 13) == 0)
            text += 13;
        /* yajl ends its messages with a full stop and a newline. */
        size_t n = strlen(text);
        while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' ' || text[n - 1] == '.'))
            text[--n] = '\0';
        local_error(r, err, ln, "malformed JSON: %s (byte %zu)", text, at + 1);
        yajl_free_error(r->yajl, msg);
    }
    return json_restart(r, ln, err);
}

static int json_text(corpus_reader *r, int k, const char **out, size_t *len,
                     long ln, tells_error *err)
{
    const char *names[NCOLS] = {r->names.id, r->names.label, r->names.premise,
                                r->names.hypothesis};
    if (!*names[k]) {
        *out = CORPUS_NO_PREMISE;
        *len = strlen(CORPUS_NO_PREMISE);
        return 0;
    }
    json_field *f = &r->json->field[k];
    if (f->kind == VAL_NONE)
        return local_error(r, err, ln, "missing field '%s'", names[k]);
    if (f->kind != VAL_STRING)
        return local_error(r, err, ln, "field '%s' is not a string", names[k]);
    if (strlen(f->buf) != f->len)
        return local_error(r, err, ln, "field '%s' contains a NUL character", names[k]);
    *out = f->buf;
    *len = f->len;
    return 0;
}

/* The id may be absent or null (positional ids are used then), a string,
   or an integer. */
static int json_id(corpus_reader *r, long ln, raw_example *ex, tells_error *err)
{
    json_field *f = &r->json->field[COL_ID];
    ex->id = NULL;
    ex->id_len = 0;
    if (f->kind == VAL_NONE || f->kind == VAL_NULL)
        return 0;
    if (f->kind == VAL_NUMBER && strspn(f->buf, "-0123456789") == f->len) {
        ex->id = f->buf;
        ex->id_len = f->len;
        return 0;
    }
    if (f->kind == VAL_STRING)
        return json_text(r, COL_ID, &ex->id, &ex->id_len, ln, err);
    return local_error(r, err, ln, "field '%s' is not a string or integer",
                       r->names.id);
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)(c | 0x20);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The value of the u-escape (a backslash, 'u' and four hex digits) at s,
   which has 6 bytes; -1 when s holds none. */
static long u_escape(const char *s)
{
    if (s[0] != '\\' || s[1] != 'u')
        return -1;
    long v = 0;
    for (int i = 2; i < 6; i++) {
        int d = hex_digit(s[i]);
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Offset of a u-escape of a surrogate that is not the first half of a
   pair followed by the second, or (size_t)-1. yajl would turn a lone
   high surrogate into '?', a lone low one into bytes that are no UTF-8,
   and two high ones into a character neither stands for. Other
   escapes, and malformed ones, are yajl's to judge. */
static size_t lone_surrogate(const char *s, size_t len)
{
    for (size_t i = 0; i + 1 < len; i++) {
        /* memchr: most lines have no backslash, and it skips them fast */
        const char *b = memchr(s + i, '\\', len - 1 - i);
        if (!b)
            break;
        i = (size_t)(b - s);
        long v = i + 6 <= len ? u_escape(s + i) : -1;
        if (v < 0xD800 || v > 0xDFFF) {
            i++;  /* the escaped character, which may be a backslash */
            continue;
        }
        long low = v <= 0xDBFF && i + 12 <= len ? u_escape(s + i + 6) : -1;
        if (low < 0xDC00 || low > 0xDFFF)
            return i;
        i += 11;
    }
    return (size_t)-1;
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
    } while (line_is_blank(line, len));
    r->records++;
    long ln = r->lr.lineno;
    /* yajl's own check lets overlong forms and surrogates through. */
    size_t bad = text_invalid_offset(line, len);
    if (bad != (size_t)-1)
        return local_error(r, err, ln, "%s (byte %zu)",
                           line[bad] ? "invalid UTF-8" : "NUL byte in input", bad + 1);
    if ((bad = lone_surrogate(line, len)) != (size_t)-1)
        return local_error(r, err, ln, "unpaired surrogate escape '%.6s' (byte %zu)",
                           line + bad, bad + 1);
    json_state *js = r->json;
    js->depth = 0;
    js->key = -1;
    js->values = 0;
    js->nomem = false;
    js->problem[0] = '\0';
    yajl_status st = yajl_parse(r->yajl, (const unsigned char *)line, len);
    if (st != yajl_status_ok)
        return json_failure(r, st, ln, err);
    if (js->depth != 0 || js->values != 1) {
        local_error(r, err, ln, js->depth
                    ? "malformed JSON: the record does not end on its line"
                    : "expected a JSON object");
        return json_restart(r, ln, err);
    }
    ex->lineno = ln;
    ex->no_premise = !*r->names.premise;
    if (json_text(r, COL_LABEL, &ex->label, &ex->label_len, ln, err) < 0 ||
        json_text(r, COL_PREMISE, &ex->premise, &ex->premise_len, ln, err) < 0 ||
        json_text(r, COL_HYPOTHESIS, &ex->hypothesis, &ex->hypothesis_len, ln, err) < 0 ||
        json_id(r, ln, ex, err) < 0)
        return -1;
    return 1;
}

/* ---- CSV/TSV ---- */

/* Reads one record into r->rec; 0 at end. */
static int csv_read_record(corpus_reader *r, tells_error *err)
{
    int rc = csv_rec_next(r->csv, &r->rec, err);
    if (rc > 0)
        r->records++;
    return rc;
}

static int csv_header(corpus_reader *r, tells_error *err)
{
    int rc = csv_read_record(r, err);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return tells_error_set(err, csv_rec_name(r->csv), 0,
                               "empty input: expected a header row");
    r->records = 0;
    const char *want[NCOLS] = {r->names.id, r->names.label, r->names.premise,
                               r->names.hypothesis};
    for (int k = 0; k < NCOLS; k++) {
        r->col[k] = csv_rec_column(&r->rec, want[k]);
        if (r->col[k] < 0 && k != COL_ID && *want[k])
            return tells_error_set(err, csv_rec_name(r->csv), r->rec.line,
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
    long ln = r->rec.line;
    if (r->rec.n != r->ncolumns)
        return local_error(r, err, ln, "expected %zu columns, found %zu",
                           r->ncolumns, r->rec.n);
    for (size_t i = 0; i < r->rec.n; i++)
        if (utf8_invalid_offset(r->rec.field[i], r->rec.len[i]) != (size_t)-1)
            return local_error(r, err, ln, "invalid UTF-8");
    const char **dst[NCOLS] = {&ex->id, &ex->label, &ex->premise, &ex->hypothesis};
    size_t *dlen[NCOLS] = {&ex->id_len, &ex->label_len, &ex->premise_len,
                           &ex->hypothesis_len};
    for (int k = 0; k < NCOLS; k++) {
        *dst[k] = r->col[k] >= 0 ? r->rec.field[r->col[k]] : NULL;
        *dlen[k] = r->col[k] >= 0 ? r->rec.len[r->col[k]] : 0;
    }
    if (ex->id && ex->id_len == 0)
        ex->id = NULL;
    ex->no_premise = !ex->premise;
    if (!ex->premise) {
        ex->premise = CORPUS_NO_PREMISE;
        ex->premise_len = strlen(CORPUS_NO_PREMISE);
    }
    ex->lineno = ln;
    return 1;
}

/* ---- common ---- */

int corpus_open(corpus_reader **out, const char *path, corpus_format fmt,
                const corpus_fields *fields, size_t max_line, tells_error *err)
{
    corpus_reader *r = calloc(1, sizeof *r);
    if (!r)
        return tells_error_nomem(err, display_name(path), 0);
    r->names = fields ? *fields : CORPUS_FIELDS_DEFAULT;
    r->fmt = fmt == FORMAT_AUTO ? corpus_format_guess(path) : fmt;
    if (r->fmt != FORMAT_JSONL) {
        if (csv_rec_open(&r->csv, path, r->fmt == FORMAT_TSV, max_line, err) < 0) {
            free(r);
            return -1;
        }
    } else {
        if (line_reader_open(&r->lr, path, max_line, err) < 0) {
            free(r);
            return -1;
        }
        r->json = calloc(1, sizeof *r->json);
        if (!r->json || (r->json->r = r, json_reset(r) < 0)) {
            corpus_close(r);
            return tells_error_nomem(err, display_name(path), 0);
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
    if (r->yajl)
        yajl_free(r->yajl);
    if (r->json)
        for (int k = 0; k < NCOLS; k++)
            free(r->json->field[k].buf);
    free(r->json);
    if (r->csv)
        csv_rec_close(r->csv);
    else
        line_reader_close(&r->lr);
    free(r);
}
