#include <config.h>
#include "stats/logodds.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fields.h"
#include "base/lineio.h"

void logodds_prior_free(logodds_prior *p)
{
    vocab_free(p->tokens);
    free(p->count);
    memset(p, 0, sizeof *p);
}

/* The prior from a counts file: every class's counts summed. */
static int prior_from_counts(logodds_prior *p, const char *path, text_field field,
                             bool binary, tells_error *err)
{
    token_counts tc;
    if (counts_init(&tc, field) < 0)
        return tells_error_nomem(err, NULL, 0);
    int rc = counts_merge_file(&tc, path, err);
    size_t nt = vocab_size(tc.tokens), nc = vocab_size(tc.classes);
    if (rc == 0 && !(p->count = array_new(nt, sizeof *p->count)))
        rc = tells_error_nomem(err, NULL, 0);
    for (size_t t = 0; rc == 0 && t < nt; t++) {
        uint64_t sum = 0;
        for (size_t c = 0; c < nc; c++)
            sum += binary ? tc.docs[c][t] : tc.count[c][t];
        if (vocab_intern(p->tokens, vocab_str(tc.tokens, t), vocab_len(tc.tokens, t)) < 0)
            rc = tells_error_nomem(err, NULL, 0);
        else
            p->count[t] = (double)sum;
    }
    counts_free(&tc);
    return rc;
}

/* The prior from a token<TAB>count table whose first line (line, len)
   has been read. */
static int prior_from_table(logodds_prior *p, line_reader *r, char *line, size_t len,
                            tells_error *err)
{
    size_t cap = 0;
    long *first = NULL;    /* line of each token, for the message */
    size_t first_cap = 0;
    char *f[3];
    int rc = 1;
    for (; rc == 1; rc = line_reader_next(r, &line, &len, err)) {
        rc = -1;
        if (text_line_check(line, len, r->name, r->lineno, err) < 0)
            break;
        if (len == 0) {
            rc = 0;
            continue;
        }
        size_t n = tab_split(line, len, f, NULL, 3);
        if (n != 2) {
            tab_columns_error(err, r->name, r->lineno, 2, n, "token, count");
            break;
        }
        if (r->lineno == 1 && strcmp(f[0], "token") == 0 && strcmp(f[1], "count") == 0) {
            rc = 0;
            continue;
        }
        char *end;
        errno = 0;
        double v = strtod(f[1], &end);
        if (f[0][0] == '\0') {
            tells_error_set(err, r->name, r->lineno, "empty token");
            break;
        }
        if (end == f[1] || *end || errno == ERANGE || !isfinite(v)) {
            tells_error_set(err, r->name, r->lineno, "invalid count '%s'", f[1]);
            break;
        }
        if (v < 0) {
            tells_error_set(err, r->name, r->lineno, "negative count '%s'", f[1]);
            break;
        }
        size_t before = vocab_size(p->tokens);
        long t = vocab_intern(p->tokens, f[0], strlen(f[0]));
        if (t < 0 || ARRAY_RESERVE(p->count, cap, (size_t)t + 1) < 0 ||
            ARRAY_RESERVE(first, first_cap, (size_t)t + 1) < 0) {
            tells_error_nomem(err, r->name, r->lineno);
            break;
        }
        if ((size_t)t < before) {
            tells_error_set(err, r->name, r->lineno, "token '%s' listed twice (first on "
                            "line %ld)", f[0], first[t]);
            break;
        }
        p->count[t] = v;
        first[t] = r->lineno;
        rc = 0;
    }
    free(first);
    return rc < 0 ? -1 : 0;
}

int logodds_prior_load(logodds_prior *p, const char *path, text_field field, bool binary,
                       tells_error *err)
{
    memset(p, 0, sizeof *p);
    if (!(p->tokens = vocab_new()))
        return tells_error_nomem(err, NULL, 0);
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0) {
        logodds_prior_free(p);
        return -1;
    }
    /* A counts file names itself on its first line. */
    char *line;
    size_t len;
    int rc = line_reader_next(&r, &line, &len, err);
    bool counts = rc == 1 && strcmp(line, "tells-counts\t1") == 0;
    if (rc >= 0 && counts) {
        line_reader_close(&r);
        rc = prior_from_counts(p, path, field, binary, err);
    } else {
        if (rc == 1)
            rc = prior_from_table(p, &r, line, len, err);
        line_reader_close(&r);
    }
    if (rc == 0 && vocab_size(p->tokens) == 0)
        rc = tells_error_set(err, path, 0, "no prior counts");
    /* Summed in token order: the same bits for the same file. */
    for (size_t t = 0; rc == 0 && t < vocab_size(p->tokens); t++)
        p->total += p->count[t];
    if (rc == 0 && !(p->total > 0))
        rc = tells_error_set(err, path, 0, "the prior counts sum to 0");
    if (rc < 0)
        logodds_prior_free(p);
    return rc < 0 ? -1 : 0;
}

void logodds_free(logodds_table *t)
{
    free(t->rows);
    memset(t, 0, sizeof *t);
}

static int cmp_rows(const void *a, const void *b, void *arg)
{
    const logodds_row *x = a, *y = b;
    if (x->z != y->z)
        return x->z > y->z ? -1 : 1;
    const vocab *tokens = arg;
    return strcmp(vocab_str(tokens, x->token), vocab_str(tokens, y->token));
}

int logodds_compute(const token_counts *tc, const logodds_options *o, logodds_table *out,
                    tells_error *err)
{
    memset(out, 0, sizeof *out);
    size_t nc = vocab_size(tc->classes), nt = vocab_size(tc->tokens);
    uint64_t *const *cnt = o->binary ? tc->docs : tc->count;
    double scale = o->prior_scale > 0 ? o->prior_scale : 1.0;
    size_t *order = vocab_sorted_ids(tc->classes);
    uint64_t *class_total = array_new(nc, sizeof *class_total);
    uint64_t *token_total = array_new(nt, sizeof *token_total);
    double *prior = array_new(nt, sizeof *prior);
    size_t *kept = array_new(nt, sizeof *kept);
    int rc = order && class_total && token_total && prior && kept
                 ? 0 : tells_error_nomem(err, NULL, 0);
    /* Integer totals: exact, whatever the order of the tokens. */
    uint64_t grand = 0;
    for (size_t t = 0; rc == 0 && t < nt; t++)
        for (size_t c = 0; c < nc; c++) {
            token_total[t] += cnt[c][t];
            class_total[c] += cnt[c][t];
            grand += cnt[c][t];
        }
    double a0 = 0;
    size_t nk = 0;
    if (rc == 0) {
        a0 = scale * (o->prior ? o->prior->total : (double)grand);
        for (size_t t = 0; t < nt; t++) {
            if (o->prior) {
                long p = vocab_find(o->prior->tokens, vocab_str(tc->tokens, t),
                                    vocab_len(tc->tokens, t));
                prior[t] = p < 0 ? 0.0 : scale * o->prior->count[p];
            } else {
                prior[t] = scale * (double)token_total[t];
            }
            if (token_total[t] > 0 && token_total[t] >= o->min_count && prior[t] > 0)
                kept[nk++] = t;
        }
    }
    if (rc == 0 && nc && nk > SIZE_MAX / nc)
        rc = tells_error_nomem(err, NULL, 0);
    if (rc == 0 && !(out->rows = array_new(nk * nc, sizeof *out->rows)))
        rc = tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; rc == 0 && i < nc; i++) {
        size_t c = order[i];
        logodds_row *rows = out->rows + out->n;
        size_t n = 0;
        double nc_tok = (double)class_total[c], nr_tok = (double)(grand - class_total[c]);
        for (size_t j = 0; j < nk; j++) {
            size_t t = kept[j];
            double a = prior[t];
            double yc = (double)cnt[c][t], yr = (double)(token_total[t] - cnt[c][t]);
            double rest_c = nc_tok + a0 - yc - a, rest_r = nr_tok + a0 - yr - a;
            /* Only a token that is the whole corpus and the whole prior
               has no odds. */
            if (!(rest_c > 0 && rest_r > 0))
                continue;
            logodds_row *row = &rows[n++];
            row->class_id = c;
            row->token = t;
            row->count = cnt[c][t];
            row->delta = log((yc + a) / rest_c) - log((yr + a) / rest_r);
            row->var = 1.0 / (yc + a) + 1.0 / (yr + a);
            row->z = row->delta / sqrt(row->var);
            /* Prior counts far below one (or near the largest double)
               overflow the odds or their variance. */
            if (!isfinite(row->delta) || !isfinite(row->var) || !isfinite(row->z)) {
                rc = tells_error_set(err, NULL, 0, "the log-odds of token '%s' overflow: "
                                     "prior counts too small or too large",
                                     vocab_str(tc->tokens, t));
                break;
            }
        }
        if (rc < 0)
            break;
        qsort_r(rows, n, sizeof *rows, cmp_rows, (void *)tc->tokens);
        out->n += n;
    }
    free(order);
    free(class_total);
    free(token_total);
    free(prior);
    free(kept);
    if (rc < 0)
        logodds_free(out);
    return rc;
}

static double no_negative_zero(double x)
{
    return fabs(x) < 5e-7 ? 0.0 : x;
}

int logodds_write(FILE *fp, const logodds_table *t, const token_counts *tc, size_t top)
{
    fputs("class\ttoken\tcount\tdelta\tvar\tz\n", fp);
    size_t in_class = 0;
    for (size_t i = 0; i < t->n; i++) {
        const logodds_row *r = &t->rows[i];
        in_class = i && t->rows[i - 1].class_id == r->class_id ? in_class + 1 : 0;
        if (top && in_class >= top)
            continue;
        fprintf(fp, "%s\t%s\t%" PRIu64 "\t%.6f\t%.6f\t%.6f\n",
                vocab_str(tc->classes, r->class_id), vocab_str(tc->tokens, r->token),
                r->count, no_negative_zero(r->delta), r->var, no_negative_zero(r->z));
    }
    return ferror(fp) ? -1 : 0;
}
