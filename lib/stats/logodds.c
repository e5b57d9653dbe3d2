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
    size_t nt = vocab_size(tc.tokens);
    uint64_t *sum = NULL;
    if (rc == 0 && (!(p->count = array_new(nt, sizeof *p->count)) ||
                    !(sum = counts_token_totals(&tc, binary))))
        rc = tells_error_nomem(err, NULL, 0);
    for (size_t t = 0; rc == 0 && t < nt; t++) {
        if (vocab_intern(p->tokens, vocab_str(tc.tokens, t), vocab_len(tc.tokens, t)) < 0)
            rc = tells_error_nomem(err, NULL, 0);
        else
            p->count[t] = (double)sum[t];
    }
    free(sum);
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

/* What every class's rows are computed from. */
typedef struct lo_state {
    const token_counts *tc;
    const uint64_t *token_total, *class_total;
    const double *prior;
    uint64_t grand;
    double a0;
    size_t c;                 /* the class at hand */
    uint64_t class_tokens;    /* its token total (the class's only part in an
                                 absent token's row) */
    logodds_row *buf;         /* its rows so far */
    size_t nbuf;
} lo_state;

/* Token t's row in a class of class_tokens tokens, with y_w^c = y: 1, or
   0 when it has no odds, or -1 when they overflow. The arithmetic of
   before, to the bit. */
static int lo_row(const lo_state *st, size_t c, uint64_t class_tokens, size_t t, uint64_t y,
                  logodds_row *row)
{
    double a = st->prior[t];
    double yc = (double)y, yr = (double)(st->token_total[t] - y);
    double nc_tok = (double)class_tokens, nr_tok = (double)(st->grand - class_tokens);
    double rest_c = nc_tok + st->a0 - yc - a, rest_r = nr_tok + st->a0 - yr - a;
    /* Only a token that is the whole corpus and the whole prior has no
       odds. */
    if (!(rest_c > 0 && rest_r > 0))
        return 0;
    row->class_id = c;
    row->token = t;
    row->count = y;
    row->delta = log((yc + a) / rest_c) - log((yr + a) / rest_r);
    row->var = 1.0 / (yc + a) + 1.0 / (yr + a);
    row->z = row->delta / sqrt(row->var);
    /* Prior counts far below one (or near the largest double) overflow
       the odds or their variance. */
    if (!isfinite(row->delta) || !isfinite(row->var) || !isfinite(row->z))
        return -1;
    return 1;
}

static int overflow(tells_error *err, const token_counts *tc, size_t t)
{
    return tells_error_set(err, NULL, 0, "the log-odds of token '%s' overflow: prior "
                           "counts too small or too large", vocab_str(tc->tokens, t));
}

/* Whether token t's row where it is absent may have no odds or overflow
   in a class of between lo and hi tokens. Its rest_c grows with the
   class's tokens and its rest_r falls, so each quotient in delta is
   monotone in them: finite at both ends, finite between. */
static bool lo_risky(const lo_state *st, size_t t, uint64_t lo, uint64_t hi)
{
    logodds_row row;
    return lo_row(st, 0, lo, t, 0, &row) != 1 || lo_row(st, 0, hi, t, 0, &row) != 1;
}

static int lo_take(size_t t, void *ctx, double *value)
{
    lo_state *st = ctx;
    logodds_row *row = &st->buf[st->nbuf];
    int r = lo_row(st, st->c, st->class_tokens, t, 0, row);
    if (r == 1) {
        st->nbuf++;
        *value = row->z;
    }
    return r;
}

static void lo_drop(void *ctx)
{
    ((lo_state *)ctx)->nbuf--;
}

typedef struct by_total_ctx {
    const uint64_t *class_total;
    const size_t *rank;
} by_total_ctx;

static int cmp_class_total(const void *a, const void *b, void *arg)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    const by_total_ctx *s = arg;
    if (s->class_total[x] != s->class_total[y])
        return s->class_total[x] < s->class_total[y] ? -1 : 1;
    return s->rank[x] < s->rank[y] ? -1 : s->rank[x] > s->rank[y];
}

int logodds_compute(const token_counts *tc, const logodds_options *o, logodds_table *out,
                    tells_error *err)
{
    memset(out, 0, sizeof *out);
    size_t nc = vocab_size(tc->classes), nt = vocab_size(tc->tokens);
    double scale = o->prior_scale > 0 ? o->prior_scale : 1.0;
    size_t *order = vocab_sorted_ids(tc->classes);
    uint64_t *class_total = array_new(nc, sizeof *class_total);
    uint64_t *token_total = counts_token_totals(tc, o->binary);
    double *prior = array_new(nt, sizeof *prior);
    size_t *kept = array_new(nt, sizeof *kept);
    size_t *mark = array_new(nt, sizeof *mark);
    size_t *rank = array_new(nc, sizeof *rank);
    const counts_cell **present = array_new(nt, sizeof *present);
    logodds_row **class_rows = array_new(nc, sizeof *class_rows);
    size_t *class_n = array_new(nc, sizeof *class_n);
    size_t *risky = NULL, *by_total = NULL;
    counts_cell *cells = NULL;
    size_t *first = NULL;
    zero_order z = {0};
    lo_state st = {.tc = tc, .token_total = token_total, .class_total = class_total,
                   .prior = prior};
    int rc = order && class_total && token_total && prior && kept && mark && rank &&
             present && class_rows && class_n &&
             counts_cells(tc, false, NULL, NULL, &cells, &first) == 0
                 ? 0 : tells_error_nomem(err, NULL, 0);
    /* Integer totals: exact, whatever the order of the tokens. */
    for (size_t i = 0; rc == 0 && i < tc->ncells; i++) {
        uint64_t y = o->binary ? cells[i].docs : cells[i].count;
        class_total[cells[i].cls] += y;
        st.grand += y;
    }
    size_t nk = 0;
    if (rc == 0) {
        st.a0 = scale * (o->prior ? o->prior->total : (double)st.grand);
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
        for (size_t i = 0; i < nc; i++)
            rank[order[i]] = i;
    }
    if (rc == 0 && !(st.buf = array_new(nk, sizeof *st.buf)))
        rc = tells_error_nomem(err, NULL, 0);
    bool sparse = o->top && o->top < nk;
    size_t nrisky = 0;
    if (rc == 0 && sparse) {
        /* Which tokens may fail where they are absent: those are tried in
           every class, so that the same token is named as when every row
           was made. */
        uint64_t lo = UINT64_MAX, hi = 0;
        for (size_t c = 0; c < nc; c++) {
            lo = class_total[c] < lo ? class_total[c] : lo;
            hi = class_total[c] > hi ? class_total[c] : hi;
        }
        if (!(risky = array_new(nk, sizeof *risky)))
            rc = tells_error_nomem(err, NULL, 0);
        for (size_t j = 0; rc == 0 && j < nk; j++)
            if (lo_risky(&st, kept[j], lo, hi))
                risky[nrisky++] = kept[j];
        for (size_t i = 0; rc == 0 && i < nc; i++) {
            size_t c = order[i];
            const counts_cell *p = cells + first[c], *pend = cells + first[c + 1];
            size_t r = 0;
            while (rc == 0 && (p < pend || r < nrisky)) {
                size_t t;
                uint64_t y = 0;
                if (p < pend && (r == nrisky || p->token <= risky[r])) {
                    t = p->token;
                    y = o->binary ? p->docs : p->count;
                    r += r < nrisky && risky[r] == t;
                    p++;
                } else {
                    t = risky[r++];
                }
                logodds_row row;
                if (token_total[t] > 0 && token_total[t] >= o->min_count && prior[t] > 0 &&
                    lo_row(&st, c, class_total[c], t, y, &row) < 0)
                    rc = overflow(err, tc, t);
            }
        }
        /* With the corpus as prior, an absent token's z falls as its count
           grows; with a background prior, classes of one token total
           share an order, made for each total in turn. */
        if (rc == 0 && !o->prior &&
            zero_order_make(&z, tc->tokens, kept, nk, token_total) < 0)
            rc = tells_error_nomem(err, NULL, 0);
        if (rc == 0 && o->prior) {
            by_total = array_new(nc, sizeof *by_total);
            z.tok = array_new(nk, sizeof *z.tok);
            z.group_end = array_new(nk, sizeof *z.group_end);
            if (!by_total || !z.tok || !z.group_end)
                rc = tells_error_nomem(err, NULL, 0);
            else {
                memcpy(by_total, order, nc * sizeof *by_total);
                by_total_ctx bt = {class_total, rank};
                qsort_r(by_total, nc, sizeof *by_total, cmp_class_total, &bt);
            }
        }
    }
    for (size_t i = 0; rc == 0 && i < nc; i++) {
        size_t c = by_total ? by_total[i] : order[i];
        st.c = c;
        st.class_tokens = class_total[c];
        st.nbuf = 0;
        const counts_cell *cc = cells + first[c], *cend = cells + first[c + 1];
        long walked = -2;
        if (sparse) {
            if (by_total && (i == 0 || class_total[c] != class_total[by_total[i - 1]])) {
                /* The absent tokens' order for this class total. */
                size_t n = 0;
                for (size_t j = 0; j < nk; j++)
                    if (lo_row(&st, c, st.class_tokens, kept[j], 0, &st.buf[n]) == 1)
                        n++;
                qsort_r(st.buf, n, sizeof *st.buf, cmp_rows, (void *)tc->tokens);
                for (size_t j = 0; j < n; j++) {
                    z.tok[j] = st.buf[j].token;
                    z.group_end[j] = n;
                }
                z.n = n;
            }
            for (const counts_cell *p = cc; p < cend; p++) {
                size_t t = p->token;
                if (token_total[t] > 0 && token_total[t] >= o->min_count && prior[t] > 0) {
                    uint64_t y = o->binary ? p->docs : p->count;
                    st.nbuf += lo_row(&st, c, st.class_tokens, t, y, &st.buf[st.nbuf]) == 1;
                    mark[t] = rank[c] + 1;
                }
            }
            walked = zero_order_walk(&z, o->top, mark, rank[c] + 1, lo_take, lo_drop, &st);
            if (walked == -1)   /* tried above: cannot happen */
                rc = tells_error_set(err, NULL, 0, "log-odds: an absent token overflows");
        }
        if (rc == 0 && walked == -2) {
            /* Every kept token, in id order, as the dense table had them. */
            for (const counts_cell *p = cc; p < cend; p++)
                present[p->token] = p;
            st.nbuf = 0;
            for (size_t j = 0; rc == 0 && j < nk; j++) {
                size_t t = kept[j];
                const counts_cell *p = present[t];
                uint64_t y = !p ? 0 : o->binary ? p->docs : p->count;
                int r = lo_row(&st, c, st.class_tokens, t, y, &st.buf[st.nbuf]);
                if (r < 0)
                    rc = overflow(err, tc, t);
                st.nbuf += r == 1;
            }
            for (const counts_cell *p = cc; p < cend; p++)
                present[p->token] = NULL;
        }
        if (rc < 0)
            break;
        qsort_r(st.buf, st.nbuf, sizeof *st.buf, cmp_rows, (void *)tc->tokens);
        class_n[c] = o->top && o->top < st.nbuf ? o->top : st.nbuf;
        if (!(class_rows[c] = array_new(class_n[c], sizeof **class_rows)))
            rc = tells_error_nomem(err, NULL, 0);
        else if (class_n[c])
            memcpy(class_rows[c], st.buf, class_n[c] * sizeof *st.buf);
    }
    size_t total_rows = 0;
    for (size_t c = 0; rc == 0 && c < nc; c++)
        total_rows += class_n[c];
    if (rc == 0 && !(out->rows = array_new(total_rows, sizeof *out->rows)))
        rc = tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; rc == 0 && i < nc; i++) {
        size_t c = order[i];
        if (class_n[c])
            memcpy(out->rows + out->n, class_rows[c], class_n[c] * sizeof *out->rows);
        out->n += class_n[c];
    }
    for (size_t c = 0; class_rows && c < nc; c++)
        free(class_rows[c]);
    free(class_rows);
    free(class_n);
    free(st.buf);
    free(order);
    free(class_total);
    free(token_total);
    free(prior);
    free(kept);
    free(mark);
    free(rank);
    free(present);
    free(risky);
    free(by_total);
    free(cells);
    free(first);
    zero_order_free(&z);
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
