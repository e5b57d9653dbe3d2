#include <config.h>
#include "text/collocations.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/outfile.h"
#include "base/prepared.h"
#include "base/u64map.h"
#include "base/vocab.h"

/* The corpus as token ids; a text ends where a boundary mark stands. */
typedef struct id_text {
    uint32_t *ids;
    size_t n, cap;
} id_text;

static const uint32_t BOUNDARY = UINT32_MAX;

static int push_id(id_text *t, uint32_t id)
{
    if (ARRAY_RESERVE_MIN(t->ids, t->cap, t->n + 1, 1 << 16) < 0)
        return -1;
    t->ids[t->n++] = id;
    return 0;
}

static int push_text(id_text *t, vocab *v, const char *s, size_t len)
{
    const char *end = s + len;
    while (s < end) {
        const char *sp = memchr(s, ' ', (size_t)(end - s));
        const char *stop = sp ? sp : end;
        if (stop > s) {
            long id = vocab_intern(v, s, (size_t)(stop - s));
            if (id < 0 || push_id(t, (uint32_t)id) < 0)
                return -1;
        }
        s = stop + 1;
    }
    return push_id(t, BOUNDARY);
}

static int load_texts(const char *path, bool no_header, text_field field,
                      vocab *v, id_text *t, tells_error *err)
{
    prepared_reader r;
    if (prepared_open(&r, path, no_header, err) < 0)
        return -1;
    prepared_row row;
    int rc;
    size_t rows = 0;
    while ((rc = prepared_next(&r, &row, err)) == 1) {
        rows++;
        bool bad = false;
        if (field != FIELD_HYPOTHESIS)
            bad |= push_text(t, v, row.field[PREP_PREMISE], row.len[PREP_PREMISE]) < 0;
        if (field != FIELD_PREMISE)
            bad |= push_text(t, v, row.field[PREP_HYPOTHESIS],
                             row.len[PREP_HYPOTHESIS]) < 0;
        if (bad) {
            rc = tells_error_nomem(err, r.lr.name, row.lineno);
            break;
        }
    }
    if (rc == 0 && rows == 0)
        rc = tells_error_set(err, r.lr.name, 0, "no examples in the input");
    prepared_close(&r);
    return rc < 0 ? -1 : 0;
}

typedef struct pass_counts {
    uint64_t *uni;
    u64map bi;
    uint64_t tokens;
} pass_counts;

static int count_pass(const id_text *t, size_t nvocab, pass_counts *pc)
{
    pc->uni = calloc(nvocab ? nvocab : 1, sizeof *pc->uni);
    pc->tokens = 0;
    if (!pc->uni || u64map_init(&pc->bi) < 0)
        return -1;
    const uint32_t *ids = t->ids;  /* read once: the stores below may alias */
    for (size_t i = 0; i < t->n; i++) {
        uint32_t a = ids[i];
        if (a == BOUNDARY)
            continue;
        pc->uni[a]++;
        pc->tokens++;
        uint32_t b = ids[i + 1];  /* a text always ends in a boundary */
        if (b != BOUNDARY && u64map_add(&pc->bi, pair_key(a, b), 1) < 0)
            return -1;
    }
    return 0;
}

static void free_pass(pass_counts *pc)
{
    free(pc->uni);
    u64map_free(&pc->bi);
}

static double score_of(const colloc_options *opt, const pass_counts *pc,
                       uint32_t a, uint32_t b, uint64_t nab)
{
    if (pc->uni[a] < opt->min_count || pc->uni[b] < opt->min_count ||
        nab < opt->min_count)
        return -1.0;
    return ((double)nab - opt->delta) / ((double)pc->uni[a] * (double)pc->uni[b]) *
           (double)pc->tokens;
}

static int add_phrase(colloc_result *out, size_t *cap, const char *text,
                      uint64_t count, double score, int pass)
{
    if (ARRAY_RESERVE_MIN(out->v, *cap, out->n + 1, 64) < 0)
        return -1;
    char *copy = strdup(text);
    if (!copy)
        return -1;
    for (char *p = copy; *p; p++)
        if (*p == '_')
            *p = ' ';
    out->v[out->n++] = (colloc_phrase){copy, count, score, pass};
    return 0;
}

/* "a_b" for the tokens a and b, in a buffer that grows as needed. */
static const char *joined(const vocab *v, uint32_t a, uint32_t b, char **buf,
                          size_t *cap, size_t *len)
{
    size_t la = vocab_len(v, a), lb = vocab_len(v, b);
    if (ARRAY_RESERVE(*buf, *cap, la + lb + 2) < 0)
        return NULL;
    memcpy(*buf, vocab_str(v, a), la);
    (*buf)[la] = '_';
    memcpy(*buf + la + 1, vocab_str(v, b), lb + 1);
    *len = la + lb + 1;
    return *buf;
}

/* Rewrites t merging every bigram in `merge` (greedy, left to right)
   into a new token "a_b". */
static int apply_merges(id_text *t, vocab *v, const u64map *merge)
{
    size_t w = 0, cap = 0, len;
    char *buf = NULL;
    for (size_t i = 0; i < t->n; i++) {
        uint32_t a = t->ids[i], b = i + 1 < t->n ? t->ids[i + 1] : BOUNDARY;
        uint64_t dummy;
        if (a != BOUNDARY && b != BOUNDARY &&
            u64map_get(merge, pair_key(a, b), &dummy)) {
            const char *s = joined(v, a, b, &buf, &cap, &len);
            long id = s ? vocab_intern(v, s, len) : -1;
            if (id < 0) {
                free(buf);
                return -1;
            }
            t->ids[w++] = (uint32_t)id;
            i++;
        } else
            t->ids[w++] = a;
    }
    t->n = w;
    free(buf);
    return 0;
}

static int run_pass(id_text *t, vocab *v, const colloc_options *opt, int pass,
                    colloc_result *out, size_t *cap)
{
    pass_counts pc;
    memset(&pc, 0, sizeof pc);
    u64map merge;
    char *buf = NULL;
    size_t bufcap = 0;
    int rc = u64map_init(&merge);
    if (rc == 0)
        rc = count_pass(t, vocab_size(v), &pc);
    for (size_t s = 0; rc == 0 && s < pc.bi.nslots; s++) {
        if (!u64map_used(&pc.bi, s))
            continue;
        uint64_t key = u64map_key(&pc.bi, s);
        uint32_t a = (uint32_t)(key >> 32), b = (uint32_t)key;
        double score = score_of(opt, &pc, a, b, pc.bi.vals[s]);
        if (score <= opt->threshold)
            continue;
        size_t len;
        const char *text = joined(v, a, b, &buf, &bufcap, &len);
        rc = text ? u64map_put(&merge, key, 1) : -1;
        if (rc == 0)
            rc = add_phrase(out, cap, text, pc.bi.vals[s], score, pass);
    }
    if (rc == 0)
        rc = apply_merges(t, v, &merge);
    free_pass(&pc);
    u64map_free(&merge);
    free(buf);
    return rc;
}

static int cmp_phrase(const void *a, const void *b)
{
    const colloc_phrase *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return strcmp(x->text, y->text);
}

/* A phrase found again in a later pass (where an overlapping merge hid it
   before) is kept once, with its best score. */
static int dedupe(colloc_result *r)
{
    vocab *seen = vocab_new();
    if (!seen)
        return -1;
    size_t w = 0;
    for (size_t i = 0; i < r->n; i++) {
        size_t before = vocab_size(seen);
        if (vocab_intern(seen, r->v[i].text, strlen(r->v[i].text)) < 0) {
            vocab_free(seen);
            return -1;
        }
        if (vocab_size(seen) > before)
            r->v[w++] = r->v[i];
        else
            free(r->v[i].text);
    }
    r->n = w;
    vocab_free(seen);
    return 0;
}

int colloc_learn_prepared(const char *path, bool no_header,
                          const colloc_options *opt, colloc_result *out,
                          tells_error *err)
{
    memset(out, 0, sizeof *out);
    vocab *v = vocab_new();
    id_text t = {0};
    if (!v)
        return tells_error_nomem(err, NULL, 0);
    int rc = load_texts(path, no_header, opt->field, v, &t, err);
    size_t cap = 0;
    for (int pass = 1; rc == 0 && pass <= opt->passes; pass++)
        if (run_pass(&t, v, opt, pass, out, &cap) < 0)
            rc = tells_error_nomem(err, NULL, 0);
    if (rc == 0) {
        if (out->n > 0)  /* qsort must not get NULL, even for no items */
            qsort(out->v, out->n, sizeof *out->v, cmp_phrase);
        if (dedupe(out) < 0)
            rc = tells_error_nomem(err, NULL, 0);
    }
    free(t.ids);
    vocab_free(v);
    if (rc < 0)
        colloc_free(out);
    return rc;
}

void colloc_free(colloc_result *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->v[i].text);
    free(r->v);
    r->v = NULL;
    r->n = 0;
}

int colloc_write(const colloc_result *r, bool scores, FILE *fp)
{
    if (scores)
        fputs("# phrase\tcount\tscore\n", fp);
    for (size_t i = 0; i < r->n; i++) {
        if (scores)
            fprintf(fp, "%s\t%" PRIu64 "\t%.6f\n", r->v[i].text, r->v[i].count,
                    r->v[i].score);
        else
            fprintf(fp, "%s\n", r->v[i].text);
    }
    return ferror(fp) ? -1 : 0;
}

typedef struct colloc_output {
    const colloc_result *r;
    bool scores;
} colloc_output;

static int write_output(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    const colloc_output *o = ctx;
    return colloc_write(o->r, o->scores, fp);
}

int colloc_run(const char *path, bool no_header, const colloc_options *opt, bool scores,
               const char *output, tells_error *err)
{
    colloc_result res;
    int rc = colloc_learn_prepared(path, no_header, opt, &res, err);
    if (rc == 0)
        rc = out_write(output, write_output, &(colloc_output){&res, scores}, err);
    colloc_free(&res);
    return rc;
}
