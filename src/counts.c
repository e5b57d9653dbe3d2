#include <config.h>
#include "counts.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lineio.h"
#include "prepared.h"

#define COUNTS_MAGIC "tells-counts\t1"

static const char *field_names[] = {"hypothesis", "premise", "both"};

int text_field_parse(const char *name, text_field *f)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, field_names[i]) == 0) {
            *f = (text_field)i;
            return 0;
        }
    return -1;
}

const char *text_field_name(text_field f) { return field_names[f]; }

int counts_init(token_counts *tc, text_field field)
{
    memset(tc, 0, sizeof *tc);
    tc->field = field;
    tc->tokens = vocab_new();
    tc->classes = vocab_new();
    if (!tc->tokens || !tc->classes) {
        counts_free(tc);
        return -1;
    }
    return 0;
}

void counts_free(token_counts *tc)
{
    for (size_t c = 0; tc->classes && c < vocab_size(tc->classes); c++) {
        free(tc->count[c]);
        free(tc->docs[c]);
    }
    free(tc->count);
    free(tc->docs);
    free(tc->examples);
    free(tc->stamp);
    vocab_free(tc->tokens);
    vocab_free(tc->classes);
    memset(tc, 0, sizeof *tc);
}

static int grow_array(uint64_t **a, size_t old, size_t cap)
{
    uint64_t *p = realloc(*a, cap * sizeof *p);
    if (!p)
        return -1;
    memset(p + old, 0, (cap - old) * sizeof *p);
    *a = p;
    return 0;
}

/* Makes room for token id tok in every class's arrays. */
static int ensure_token(token_counts *tc, size_t tok)
{
    if (tok < tc->token_cap)
        return 0;
    size_t cap = tc->token_cap ? tc->token_cap * 2 : 4096;
    while (cap <= tok)
        cap *= 2;
    for (size_t c = 0; c < vocab_size(tc->classes); c++)
        if (grow_array(&tc->count[c], tc->token_cap, cap) < 0 ||
            grow_array(&tc->docs[c], tc->token_cap, cap) < 0)
            return -1;
    if (grow_array(&tc->stamp, tc->token_cap, cap) < 0)
        return -1;
    tc->token_cap = cap;
    return 0;
}

static long class_id(token_counts *tc, const char *label, size_t len)
{
    size_t before = vocab_size(tc->classes);
    long c = vocab_intern(tc->classes, label, len);
    if (c < 0 || (size_t)c < before)
        return c;
    if ((size_t)c >= tc->class_cap) {
        size_t cap = tc->class_cap ? tc->class_cap * 2 : 8;
        uint64_t **count = realloc(tc->count, cap * sizeof *count);
        if (!count)
            return -1;
        tc->count = count;
        uint64_t **docs = realloc(tc->docs, cap * sizeof *docs);
        if (!docs)
            return -1;
        tc->docs = docs;
        if (grow_array(&tc->examples, tc->class_cap, cap) < 0)
            return -1;
        tc->class_cap = cap;
    }
    tc->count[c] = calloc(tc->token_cap ? tc->token_cap : 1, sizeof **tc->count);
    tc->docs[c] = calloc(tc->token_cap ? tc->token_cap : 1, sizeof **tc->docs);
    if (!tc->count[c] || !tc->docs[c])
        return -1;
    return c;
}

static int count_text(token_counts *tc, size_t c, const char *s, size_t len)
{
    const char *end = s + len;
    uint64_t *count = tc->count[c];
    uint64_t *docs = tc->docs[c];
    while (s < end) {
        const char *sp = memchr(s, ' ', (size_t)(end - s));
        const char *stop = sp ? sp : end;
        if (stop > s) {
            long t = vocab_intern(tc->tokens, s, (size_t)(stop - s));
            if (t < 0)
                return -1;
            if ((size_t)t >= tc->token_cap) {
                if (ensure_token(tc, (size_t)t) < 0)
                    return -1;
                count = tc->count[c];
                docs = tc->docs[c];
            }
            count[t]++;
            if (tc->stamp[t] != tc->rows) {
                tc->stamp[t] = tc->rows;
                docs[t]++;
            }
        }
        s = stop + 1;
    }
    return 0;
}

int counts_add(token_counts *tc, const char *label, size_t label_len,
               const char *text, size_t len, const char *text2, size_t len2)
{
    long c = class_id(tc, label, label_len);
    if (c < 0)
        return -1;
    tc->rows++;  /* stamps are row numbers from 1, so 0 means never */
    tc->examples[c]++;
    if (count_text(tc, (size_t)c, text, len) < 0)
        return -1;
    if (tc->field == FIELD_BOTH && count_text(tc, (size_t)c, text2, len2) < 0)
        return -1;
    return 0;
}

int counts_add_prepared(token_counts *tc, const char *path, bool no_header,
                        tells_error *err)
{
    prepared_reader r;
    if (prepared_open(&r, path, no_header, err) < 0)
        return -1;
    prepared_row row;
    int rc;
    int f = tc->field == FIELD_PREMISE ? PREP_PREMISE : PREP_HYPOTHESIS;
    while ((rc = prepared_next(&r, &row, err)) == 1) {
        if (counts_add(tc, row.field[PREP_LABEL], row.len[PREP_LABEL],
                       row.field[f], row.len[f], row.field[PREP_PREMISE],
                       row.len[PREP_PREMISE]) < 0) {
            rc = tells_error_set(err, r.lr.name, row.lineno, "out of memory");
            break;
        }
    }
    prepared_close(&r);
    return rc < 0 ? -1 : 0;
}

int counts_write(const token_counts *tc, FILE *fp)
{
    size_t *cls = vocab_sorted_ids(tc->classes);
    size_t *tok = vocab_sorted_ids(tc->tokens);
    if (!cls || !tok) {
        free(cls);
        free(tok);
        return -1;
    }
    size_t nc = vocab_size(tc->classes), nt = vocab_size(tc->tokens);
    fprintf(fp, COUNTS_MAGIC "\nfield\t%s\n", text_field_name(tc->field));
    for (size_t i = 0; i < nc; i++)
        fprintf(fp, "examples\t%s\t%" PRIu64 "\n", vocab_str(tc->classes, cls[i]),
                tc->examples[cls[i]]);
    fputs("token\tclass\tcount\tdocs\n", fp);
    uint64_t rows = 0;
    for (size_t j = 0; j < nt; j++)
        for (size_t i = 0; i < nc; i++) {
            size_t c = cls[i], t = tok[j];
            if (tc->count[c][t]) {
                fprintf(fp, "%s\t%s\t%" PRIu64 "\t%" PRIu64 "\n",
                        vocab_str(tc->tokens, t), vocab_str(tc->classes, c),
                        tc->count[c][t], tc->docs[c][t]);
                rows++;
            }
        }
    /* A trailer, so that a truncated shard is noticed when merging. */
    fprintf(fp, "end\t%" PRIu64 "\n", rows);
    free(cls);
    free(tok);
    return 0;
}

/* Splits line on tabs into at most max fields; returns the count. */
static size_t split_tabs(char *line, char **field, size_t max)
{
    size_t n = 0;
    field[n++] = line;
    for (char *p = line; *p; p++)
        if (*p == '\t') {
            if (n == max)
                return max + 1;
            *p = '\0';
            field[n++] = p + 1;
        }
    return n;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    *v = strtoull(s, &end, 10);
    return *end ? -1 : 0;
}

static int merge_row(token_counts *tc, char **f, const line_reader *r,
                     tells_error *err)
{
    uint64_t count, docs;
    if (parse_u64(f[2], &count) < 0 || parse_u64(f[3], &docs) < 0 ||
        docs > count || f[0][0] == '\0')
        return tells_error_set(err, r->name, r->lineno, "malformed counts row");
    long c = vocab_find(tc->classes, f[1], strlen(f[1]));
    if (c < 0)
        return tells_error_set(err, r->name, r->lineno,
                               "class '%s' has no examples line", f[1]);
    long t = vocab_intern(tc->tokens, f[0], strlen(f[0]));
    if (t < 0 || ensure_token(tc, (size_t)t) < 0)
        return tells_error_set(err, r->name, r->lineno, "out of memory");
    tc->count[c][t] += count;
    tc->docs[c][t] += docs;
    return 0;
}

int counts_merge_file(token_counts *tc, const char *path, tells_error *err)
{
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0)
        return -1;
    char *line, *f[5];
    size_t len;
    int rc;
    bool in_rows = false, have_field = false, ended = false;
    uint64_t rows = 0;
    while ((rc = line_reader_next(&r, &line, &len, err)) == 1) {
        rc = -1;
        size_t n = split_tabs(line, f, 4);
        if (ended) {
            tells_error_set(err, r.name, r.lineno, "data after the end line");
            break;
        } else if (r.lineno == 1) {
            if (n != 2 || strcmp(f[0], "tells-counts") != 0 || strcmp(f[1], "1") != 0) {
                tells_error_set(err, r.name, 1, "not a tells counts file "
                                "(made by tells-pmi --emit-counts)");
                break;
            }
        } else if (!in_rows && n == 2 && strcmp(f[0], "field") == 0) {
            text_field fld;
            if (text_field_parse(f[1], &fld) < 0 || fld != tc->field) {
                tells_error_set(err, r.name, r.lineno,
                                "counts are for field '%s', not '%s'", f[1],
                                text_field_name(tc->field));
                break;
            }
            have_field = true;
        } else if (!in_rows && n == 3 && strcmp(f[0], "examples") == 0) {
            uint64_t ex;
            long c = class_id(tc, f[1], strlen(f[1]));
            if (parse_u64(f[2], &ex) < 0 || f[1][0] == '\0') {
                tells_error_set(err, r.name, r.lineno, "malformed examples line");
                break;
            }
            if (c < 0 || ensure_token(tc, vocab_size(tc->tokens)) < 0) {
                tells_error_set(err, r.name, r.lineno, "out of memory");
                break;
            }
            tc->examples[c] += ex;
        } else if (!in_rows && n == 4 && strcmp(f[0], "token") == 0) {
            if (!have_field) {
                tells_error_set(err, r.name, r.lineno, "no field line before the rows");
                break;
            }
            in_rows = true;
        } else if (in_rows && n == 4) {
            if (merge_row(tc, f, &r, err) < 0)
                break;
            rows++;
        } else if (in_rows && n == 2 && strcmp(f[0], "end") == 0) {
            uint64_t want;
            if (parse_u64(f[1], &want) < 0 || want != rows) {
                tells_error_set(err, r.name, r.lineno,
                                "end line does not match the %" PRIu64 " rows read",
                                rows);
                break;
            }
            ended = true;
        } else {
            tells_error_set(err, r.name, r.lineno, "malformed counts line");
            break;
        }
        rc = 0;
    }
    if (rc == 0 && !ended)
        rc = tells_error_set(err, r.name, r.lineno, "truncated counts file");
    line_reader_close(&r);
    return rc < 0 ? -1 : 0;
}
