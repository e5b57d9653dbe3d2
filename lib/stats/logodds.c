#include <config.h>
#include "stats/logodds.h"
#include "text/redact.h"

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
    const token_counts *tc = arg;
    return redact_token_cmp(tc->shown, tc->tokens, x->token, y->token);
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

/* logodds_compute's state: the totals, the priors and the kept tokens,
   the sparse pre-pass's risky tokens and absent tokens' order, and each
   class's rows. */
typedef struct lo_work {
    const token_counts *tc;
    const logodds_options *o;
    size_t nc, nt, nk;        /* classes, tokens, kept tokens */
    size_t *order;            /* the classes in byte order */
    size_t *rank;             /* each class's place in order */
    uint64_t *class_total, *token_total;
    double *prior;            /* a_w, scaled */
    size_t *kept;             /* [nk] the tokens ranked, in id order */
    size_t *mark;             /* rank + 1 of the last class a token was present in */
    const counts_cell **present;   /* a class's cell of each token, while its rows are made */
    counts_cell *cells;       /* by class: class c's from first[c] to first[c + 1] */
    size_t *first;
    bool sparse;              /* a top below the kept tokens */
    size_t *risky, nrisky;    /* kept tokens that may fail where absent */
    size_t *by_total;         /* the classes by token total (a background prior) */
    zero_order z;
    logodds_row **class_rows; /* [nc] each class's rows kept */
    size_t *class_n;
    lo_state st;
} lo_work;

/* y_w^c of a cell. */
static uint64_t lo_count(const lo_work *w, const counts_cell *p)
{
    return w->o->binary ? p->docs : p->count;
}

/* Whether token t is ranked. */
static bool lo_keeps(const lo_work *w, size_t t)
{
    return w->token_total[t] > 0 && w->token_total[t] >= w->o->min_count && w->prior[t] > 0;
}

/* w's arrays and the cells by class; -1 out of memory. */
static int lo_work_init(lo_work *w, const token_counts *tc, const logodds_options *o,
                        tells_error *err)
{
    memset(w, 0, sizeof *w);
    w->tc = tc;
    w->o = o;
    w->nc = vocab_size(tc->classes);
    w->nt = vocab_size(tc->tokens);
    w->order = vocab_sorted_ids(tc->classes);
    w->class_total = array_new(w->nc, sizeof *w->class_total);
    w->token_total = counts_token_totals(tc, o->binary);
    w->prior = array_new(w->nt, sizeof *w->prior);
    w->kept = array_new(w->nt, sizeof *w->kept);
    w->mark = array_new(w->nt, sizeof *w->mark);
    w->rank = array_new(w->nc, sizeof *w->rank);
    w->present = array_new(w->nt, sizeof *w->present);
    w->class_rows = array_new(w->nc, sizeof *w->class_rows);
    w->class_n = array_new(w->nc, sizeof *w->class_n);
    w->st = (lo_state){.tc = tc, .token_total = w->token_total,
                       .class_total = w->class_total, .prior = w->prior};
    return w->order && w->class_total && w->token_total && w->prior && w->kept && w->mark &&
                   w->rank && w->present && w->class_rows && w->class_n &&
                   counts_cells(tc, false, NULL, NULL, &w->cells, &w->first) == 0
               ? 0 : tells_error_nomem(err, NULL, 0);
}

static void lo_work_free(lo_work *w)
{
    for (size_t c = 0; w->class_rows && c < w->nc; c++)
        free(w->class_rows[c]);
    free(w->class_rows);
    free(w->class_n);
    free(w->st.buf);
    free(w->order);
    free(w->class_total);
    free(w->token_total);
    free(w->prior);
    free(w->kept);
    free(w->mark);
    free(w->rank);
    free(w->present);
    free(w->risky);
    free(w->by_total);
    free(w->cells);
    free(w->first);
    zero_order_free(&w->z);
}

/* The classes' token totals and the grand total (integers: exact,
   whatever the order of the tokens), and the classes' ranks. */
static void lo_totals(lo_work *w)
{
    for (size_t i = 0; i < w->tc->ncells; i++) {
        uint64_t y = lo_count(w, &w->cells[i]);
        w->class_total[w->cells[i].cls] += y;
        w->st.grand += y;
    }
    for (size_t i = 0; i < w->nc; i++)
        w->rank[w->order[i]] = i;
}

/* a_0, each token's prior count, the kept tokens, and room for a class's
   rows; -1 out of memory. */
static int lo_priors(lo_work *w, tells_error *err)
{
    const logodds_options *o = w->o;
    double scale = o->prior_scale > 0 ? o->prior_scale : 1.0;
    w->st.a0 = scale * (o->prior ? o->prior->total : (double)w->st.grand);
    for (size_t t = 0; t < w->nt; t++) {
        if (o->prior) {
            long p = vocab_find(o->prior->tokens, vocab_str(w->tc->tokens, t),
                                vocab_len(w->tc->tokens, t));
            w->prior[t] = p < 0 ? 0.0 : scale * o->prior->count[p];
        } else {
            w->prior[t] = scale * (double)w->token_total[t];
        }
        if (lo_keeps(w, t))
            w->kept[w->nk++] = t;
    }
    w->sparse = o->top && o->top < w->nk;
    if (!(w->st.buf = array_new(w->nk, sizeof *w->st.buf)))
        return tells_error_nomem(err, NULL, 0);
    return 0;
}

/* Class c's present tokens and the risky ones, in id order: the first
   whose row overflows is named. */
static int lo_try_class(lo_work *w, size_t c, tells_error *err)
{
    const counts_cell *p = w->cells + w->first[c], *pend = w->cells + w->first[c + 1];
    size_t r = 0;
    while (p < pend || r < w->nrisky) {
        size_t t;
        uint64_t y = 0;
        if (p < pend && (r == w->nrisky || p->token <= w->risky[r])) {
            t = p->token;
            y = lo_count(w, p);
            r += r < w->nrisky && w->risky[r] == t;
            p++;
        } else {
            t = w->risky[r++];
        }
        logodds_row row;
        if (lo_keeps(w, t) && lo_row(&w->st, c, w->class_total[c], t, y, &row) < 0)
            return overflow(err, w->tc, t);
    }
    return 0;
}

/* Which tokens may fail where they are absent: those are tried in every
   class, so that the same token is named as when every row was made. */
static int lo_risky_tokens(lo_work *w, tells_error *err)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t c = 0; c < w->nc; c++) {
        lo = w->class_total[c] < lo ? w->class_total[c] : lo;
        hi = w->class_total[c] > hi ? w->class_total[c] : hi;
    }
    if (!(w->risky = array_new(w->nk, sizeof *w->risky)))
        return tells_error_nomem(err, NULL, 0);
    for (size_t j = 0; j < w->nk; j++)
        if (lo_risky(&w->st, w->kept[j], lo, hi))
            w->risky[w->nrisky++] = w->kept[j];
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < w->nc; i++)
        rc = lo_try_class(w, w->order[i], err);
    return rc;
}

/* With the corpus as prior, an absent token's z falls as its count
   grows; with a background prior, classes of one token total share an
   order, made for each total in turn (lo_total_order). */
static int lo_zero_orders(lo_work *w, tells_error *err)
{
    if (!w->o->prior)
        return zero_order_make(&w->z, w->tc->tokens, w->kept, w->nk, w->token_total) < 0
                   ? tells_error_nomem(err, NULL, 0) : 0;
    w->by_total = array_new(w->nc, sizeof *w->by_total);
    w->z.tok = array_new(w->nk, sizeof *w->z.tok);
    w->z.group_end = array_new(w->nk, sizeof *w->z.group_end);
    if (!w->by_total || !w->z.tok || !w->z.group_end)
        return tells_error_nomem(err, NULL, 0);
    memcpy(w->by_total, w->order, w->nc * sizeof *w->by_total);
    by_total_ctx bt = {w->class_total, w->rank};
    qsort_r(w->by_total, w->nc, sizeof *w->by_total, cmp_class_total, &bt);
    return 0;
}

/* The absent tokens' order for class c's token total. */
static void lo_total_order(lo_work *w, size_t c)
{
    lo_state *st = &w->st;
    size_t n = 0;
    for (size_t j = 0; j < w->nk; j++)
        if (lo_row(st, c, st->class_tokens, w->kept[j], 0, &st->buf[n]) == 1)
            n++;
    qsort_r(st->buf, n, sizeof *st->buf, cmp_rows, (void *)w->tc);
    for (size_t j = 0; j < n; j++) {
        w->z.tok[j] = st->buf[j].token;
        w->z.group_end[j] = n;
    }
    w->z.n = n;
}

/* With a top, the rows of class c (the i-th in turn): its present
   tokens', then the absent tokens' that may be among the first, walking
   their order. zero_order_walk's result. */
static long lo_class_sparse(lo_work *w, size_t i, size_t c)
{
    lo_state *st = &w->st;
    if (w->by_total && (i == 0 || w->class_total[c] != w->class_total[w->by_total[i - 1]]))
        lo_total_order(w, c);
    const counts_cell *cend = w->cells + w->first[c + 1];
    for (const counts_cell *p = w->cells + w->first[c]; p < cend; p++) {
        size_t t = p->token;
        if (lo_keeps(w, t)) {
            uint64_t y = lo_count(w, p);
            st->nbuf += lo_row(st, c, st->class_tokens, t, y, &st->buf[st->nbuf]) == 1;
            w->mark[t] = w->rank[c] + 1;
        }
    }
    return zero_order_walk(&w->z, w->o->top, w->mark, w->rank[c] + 1, lo_take, lo_drop, st);
}

/* Every kept token's row in class c, in id order, as the dense table had
   them. */
static int lo_class_dense(lo_work *w, size_t c, tells_error *err)
{
    lo_state *st = &w->st;
    const counts_cell *cc = w->cells + w->first[c], *cend = w->cells + w->first[c + 1];
    for (const counts_cell *p = cc; p < cend; p++)
        w->present[p->token] = p;
    st->nbuf = 0;
    int rc = 0;
    for (size_t j = 0; rc == 0 && j < w->nk; j++) {
        size_t t = w->kept[j];
        const counts_cell *p = w->present[t];
        uint64_t y = !p ? 0 : lo_count(w, p);
        int r = lo_row(st, c, st->class_tokens, t, y, &st->buf[st->nbuf]);
        if (r < 0)
            rc = overflow(err, w->tc, t);
        st->nbuf += r == 1;
    }
    for (const counts_cell *p = cc; p < cend; p++)
        w->present[p->token] = NULL;
    return rc;
}

/* The rows kept of the i-th class in turn (by token total with a
   background prior and a top, else in byte order): z descending, the
   first top or all. */
static int lo_class(lo_work *w, size_t i, tells_error *err)
{
    size_t c = w->by_total ? w->by_total[i] : w->order[i];
    lo_state *st = &w->st;
    st->c = c;
    st->class_tokens = w->class_total[c];
    st->nbuf = 0;
    long walked = -2;
    int rc = 0;
    if (w->sparse) {
        walked = lo_class_sparse(w, i, c);
        if (walked == -1)   /* tried above: cannot happen */
            rc = tells_error_set(err, NULL, 0, "log-odds: an absent token overflows");
    }
    if (rc == 0 && walked == -2)
        rc = lo_class_dense(w, c, err);
    if (rc < 0)
        return rc;
    qsort_r(st->buf, st->nbuf, sizeof *st->buf, cmp_rows, (void *)w->tc);
    size_t top = w->o->top;
    w->class_n[c] = top && top < st->nbuf ? top : st->nbuf;
    if (!(w->class_rows[c] = array_new(w->class_n[c], sizeof **w->class_rows)))
        return tells_error_nomem(err, NULL, 0);
    if (w->class_n[c])
        memcpy(w->class_rows[c], st->buf, w->class_n[c] * sizeof *st->buf);
    return 0;
}

/* out's rows: each class's, the classes in byte order. */
static int lo_assemble(const lo_work *w, logodds_table *out, tells_error *err)
{
    size_t total_rows = 0;
    for (size_t c = 0; c < w->nc; c++)
        total_rows += w->class_n[c];
    if (!(out->rows = array_new(total_rows, sizeof *out->rows)))
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < w->nc; i++) {
        size_t c = w->order[i];
        if (w->class_n[c])
            memcpy(out->rows + out->n, w->class_rows[c], w->class_n[c] * sizeof *out->rows);
        out->n += w->class_n[c];
    }
    return 0;
}

int logodds_compute(const token_counts *tc, const logodds_options *o, logodds_table *out,
                    tells_error *err)
{
    memset(out, 0, sizeof *out);
    lo_work w;
    int rc = lo_work_init(&w, tc, o, err);
    if (rc == 0) {
        lo_totals(&w);
        rc = lo_priors(&w, err);
    }
    if (rc == 0 && w.sparse && (rc = lo_risky_tokens(&w, err)) == 0)
        rc = lo_zero_orders(&w, err);
    for (size_t i = 0; rc == 0 && i < w.nc; i++)
        rc = lo_class(&w, i, err);
    if (rc == 0)
        rc = lo_assemble(&w, out, err);
    lo_work_free(&w);
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
                vocab_str(tc->classes, r->class_id), counts_token_shown(tc, r->token),
                r->count, no_negative_zero(r->delta), r->var, no_negative_zero(r->z));
    }
    return ferror(fp) ? -1 : 0;
}
