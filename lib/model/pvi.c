#include <config.h>
#include "model/pvi.h"
#include "text/redact.h"

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/idfile.h"
#include "base/outfile.h"
#include "base/tasks.h"
#include "stats/subsample.h"

void pvi_options_default(pvi_options *o)
{
    memset(o, 0, sizeof *o);
    o->folds = 5;
    o->input = INPUT_HYPOTHESIS;
    o->ft = ft_classifier_args();
    o->samples = PVI_BOOTSTRAP_SAMPLES;
    o->threads = 1;
    o->level = 0.95;
}

void pvi_result_free(pvi_result *r)
{
    free(r->pvi);
    free(r->p_gold);
    free(r->p_null);
    free(r->pred);
    free(r->fold);
    free(r->by_class);
    vocab_free(r->tokens);
    free(r->tok);
    memset(r, 0, sizeof *r);
}

static void progress(const pvi_options *o, const char *fmt, size_t a, size_t b)
{
    if (!o->progress)
        return;
    char msg[128];
    snprintf(msg, sizeof msg, fmt, a, b);
    o->progress(msg, o->progress_user);
}

/* Token drops summed per token and class while the folds run. */
typedef struct drop_sums {
    vocab *tokens;
    double *sum;          /* [token * classes + class] */
    size_t *n;
    size_t cap;           /* tokens with room */
    size_t classes;
    char *text;           /* the text with a token deleted */
    size_t text_cap;
    float *probs;
    long *map;            /* model label -> dataset label, -1 unknown */
} drop_sums;

static int drop_room(drop_sums *s, size_t token)
{
    if (token < s->cap)
        return 0;
    size_t cap = array_capacity(s->cap, token + 1, 1024);
    double *sum = array_resize_zeroed(s->sum, s->cap * s->classes, cap * s->classes,
                                      sizeof *sum);
    if (!sum)
        return -1;
    s->sum = sum;
    size_t *n = array_resize_zeroed(s->n, s->cap * s->classes, cap * s->classes, sizeof *n);
    if (!n)
        return -1;
    s->n = n;
    s->cap = cap;
    return 0;
}

/* log2 g_x(gold) for text. */
static int log2_gold(ft_model *m, drop_sums *s, const char *text, size_t gold, double *out,
                     tells_error *err)
{
    if (ft_predict(m, text, s->probs, err) < 0)
        return -1;
    double p = 0;
    for (int k = 0; k < ft_nlabels(m); k++)
        if (s->map[k] == (long)gold)
            p = s->probs[k];
    *out = log2(p);
    return 0;
}

/* The drops of one example: every distinct token of its hypothesis
   deleted in turn. */
static int example_drops(ft_model *m, drop_sums *s, const dataset *d, const example *e,
                         baseline_input in, double pvi, double log2_null, tells_error *err)
{
    const char *h = e->hypothesis;
    size_t hl = strlen(h), pl = strlen(e->premise);
    if (ARRAY_RESERVE(s->text, s->text_cap, pl + hl + 16) < 0)
        return tells_error_nomem(err, NULL, 0);
    for (const char *t = h; *t;) {
        const char *end = strchr(t, ' ');
        size_t tl = end ? (size_t)(end - t) : strlen(t);
        const char *next = end ? end + 1 : t + tl;
        if (tl == 0) {
            t = next;
            continue;
        }
        /* Only its first occurrence counts the token. */
        bool first = true;
        for (const char *u = h; u < t && first;) {
            const char *ue = strchr(u, ' ');
            size_t ul = ue ? (size_t)(ue - u) : strlen(u);
            first = !(ul == tl && memcmp(u, t, tl) == 0);
            u = ue ? ue + 1 : u + ul;
        }
        if (!first) {
            t = next;
            continue;
        }
        size_t used = 0;
        if (in == INPUT_PAIR)
            used = (size_t)sprintf(s->text, "%s " PAIR_SEPARATOR " ", e->premise);
        bool any = false;
        for (const char *u = h; *u;) {
            const char *ue = strchr(u, ' ');
            size_t ul = ue ? (size_t)(ue - u) : strlen(u);
            if (ul && !(ul == tl && memcmp(u, t, tl) == 0)) {
                if (any)
                    s->text[used++] = ' ';
                memcpy(s->text + used, u, ul);
                used += ul;
                any = true;
            }
            u = ue ? ue + 1 : u + ul;
        }
        s->text[used] = '\0';
        double lg;
        if (log2_gold(m, s, s->text, e->label, &lg, err) < 0) {
            if (!err->file[0]) {
                snprintf(err->file, sizeof err->file, "%s", d->source);
                err->line = e->line;
            }
            return -1;
        }
        long tok = vocab_intern(s->tokens, t, tl);
        if (tok < 0 || drop_room(s, (size_t)tok) < 0)
            return tells_error_nomem(err, NULL, 0);
        size_t at = (size_t)tok * s->classes + e->label;
        s->sum[at] += pvi - (lg - log2_null);
        s->n[at]++;
        t = next;
    }
    return 0;
}

/* The one-sided one-sample t-test of mean > 0 of x[0..n), whose mean
   out has. */
static void mean_test(const double *x, size_t n, pvi_mean *out)
{
    out->sd = out->t = NAN;
    out->tested = false;
    out->p = pvalue_from_p(1.0);
    if (n < 2)
        return;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - out->mean) * (x[i] - out->mean);
    out->sd = sqrt(ss / (double)(n - 1));
    if (!(out->sd > 0))
        return;
    out->t = out->mean / (out->sd / sqrt((double)n));
    out->tested = true;
    out->p = stat_t_sf(out->t, (double)(n - 1));
}

/* One set's bootstrap (all examples, or one class's): resample b draws
   its n indices from a generator of its own, GSL's MT19937 seeded with
   subsample_stream(seed, set, b) (gsl_rng_set keeps its low 32 bits), so
   that the resamples can be drawn side by side and give the same
   statistics whatever the threads. */
typedef struct boot_work {
    const double *x;
    size_t n;
    unsigned long seed;
    uint64_t set;
    double *stat;              /* [B] */
    gsl_rng **rng;             /* one per thread */
} boot_work;

static void boot_task(void *ctx, size_t b, size_t thread)
{
    const boot_work *w = ctx;
    gsl_rng *rng = w->rng[thread];
    gsl_rng_set(rng, (unsigned long)subsample_stream(w->seed, w->set, b));
    /* The draws a block at a time, then their values summed in the same
       order: the loads of x do not wait on the generator one by one. */
    enum { BLOCK = 1024 };
    size_t pick[BLOCK], n = w->n;
    double t = 0;
    for (size_t i = 0; i < n; i += BLOCK) {
        size_t m = n - i < BLOCK ? n - i : BLOCK;
        for (size_t j = 0; j < m; j++)
            pick[j] = gsl_rng_uniform_int(rng, n);
        for (size_t j = 0; j < m; j++)
            t += w->x[pick[j]];
    }
    w->stat[b] = t / (double)n;
}

/* The mean of x[0..n), its bootstrap percentile interval (set: which
   set's streams) and its test. */
static int mean_interval(const double *x, size_t n, const pvi_options *o, uint64_t set,
                         gsl_rng **rng, size_t threads, pvi_mean *out, tells_error *err)
{
    out->n = n;
    out->mean = out->low = out->high = NAN;
    if (n == 0) {
        mean_test(x, 0, out);
        return 0;
    }
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    out->mean = s / (double)n;
    mean_test(x, n, out);
    size_t B = o->samples;
    double *stat = array_new(B, sizeof *stat);
    if (!stat)
        return tells_error_nomem(err, NULL, 0);
    boot_work w = {x, n, o->seed, set, stat, rng};
    tasks_run(threads, B, boot_task, &w);
    gsl_sort(stat, 1, B);
    double tail = (1.0 - o->level) / 2;
    out->low = gsl_stats_quantile_from_sorted_data(stat, 1, B, tail);
    out->high = gsl_stats_quantile_from_sorted_data(stat, 1, B, 1.0 - tail);
    free(stat);
    return 0;
}

static int summarise(const dataset *d, const pvi_options *o, pvi_result *r, tells_error *err)
{
    size_t L = r->nclasses;
    size_t threads = tasks_threads(o->threads > INT_MAX ? INT_MAX : (int)o->threads);
    if (threads > o->samples)
        threads = o->samples ? o->samples : 1;
    double *x = array_new(d->n, sizeof *x);
    gsl_rng **rng = array_new(threads, sizeof *rng);
    int rc = x && rng && (r->by_class = array_new(L, sizeof *r->by_class))
                 ? 0 : tells_error_nomem(err, NULL, 0);
    for (size_t t = 0; rc == 0 && t < threads; t++)
        if (!(rng[t] = gsl_rng_alloc(gsl_rng_mt19937)))
            rc = tells_error_nomem(err, NULL, 0);
    /* The values in the order of the rows' ids, and the sets' streams:
       all examples 0, a class 1 + its rank by first appearance in that
       order (its label id when the rows are so ordered and numbered, as
       the study's are): the same intervals for any order of the rows. */
    size_t *rows = rc == 0 ? dataset_rows_by_id(d, NULL, d->n) : NULL;
    size_t *rank = rc == 0 ? array_new(L, sizeof *rank) : NULL;
    if (rc == 0 && (!rows || !rank))
        rc = tells_error_nomem(err, NULL, 0);
    size_t ranked = 0;
    for (size_t c = 0; rc == 0 && c < L; c++)
        rank[c] = SIZE_MAX;
    for (size_t q = 0; rc == 0 && q < d->n; q++) {
        size_t i = rows[q];
        x[q] = r->pvi[i];
        if (rank[d->ex[i].label] == SIZE_MAX)
            rank[d->ex[i].label] = ranked++;
    }
    if (rc == 0)
        rc = mean_interval(x, d->n, o, 0, rng, threads, &r->all, err);
    for (size_t c = 0; rc == 0 && c < L; c++) {
        size_t n = 0;
        for (size_t q = 0; q < d->n; q++)
            if (d->ex[rows[q]].label == c)
                x[n++] = r->pvi[rows[q]];
        rc = mean_interval(x, n, o, 1 + (uint64_t)rank[c], rng, threads, &r->by_class[c],
                           err);
    }
    free(rows);
    free(rank);
    for (size_t t = 0; rng && t < threads; t++)
        if (rng[t])
            gsl_rng_free(rng[t]);
    free(rng);
    free(x);
    return rc;
}

static int collect_tokens(drop_sums *s, pvi_result *r, tells_error *err)
{
    size_t nt = vocab_size(s->tokens), n = 0;
    for (size_t i = 0; i < nt * s->classes; i++)
        n += s->n[i] > 0;
    if (!(r->tok = array_new(n, sizeof *r->tok)))
        return tells_error_nomem(err, NULL, 0);
    for (size_t t = 0; t < nt; t++)
        for (size_t c = 0; c < s->classes; c++) {
            size_t at = t * s->classes + c;
            if (s->n[at])
                r->tok[r->ntok++] = (pvi_token){c, t, s->n[at], s->sum[at] / (double)s->n[at]};
        }
    r->tokens = s->tokens;
    s->tokens = NULL;
    return 0;
}

/* Fold k's label counts of the other folds, and whether each of its
   examples' gold labels is among them. */
static int fold_labels(const dataset *d, const size_t *fold, size_t K, size_t k,
                       size_t *label_n, size_t *ntr, tells_error *err)
{
    size_t n = d->n, L = vocab_size(d->labels);
    memset(label_n, 0, L * sizeof *label_n);
    *ntr = 0;
    for (size_t i = 0; i < n; i++)
        if (fold[i] != k) {
            label_n[d->ex[i].label]++;
            (*ntr)++;
        }
    for (size_t i = 0; i < n; i++) {
        const example *e = &d->ex[i];
        if (fold[i] == k && label_n[e->label] == 0)
            return tells_error_set(err, d->source, e->line, "label '%s' is not in the "
                                   "other folds of fold %zu (too few examples of it for "
                                   "%zu folds)", vocab_str(d->labels, e->label), k + 1, K);
    }
    return 0;
}

/* r->fold: the folds of every row of d, as baseline_cross_validate deals
   them for the same plan. */
static int deal_folds(const dataset *d, const pvi_options *o, pvi_result *r, tells_error *err)
{
    size_t *all = array_new(d->n, sizeof *all);
    if (!all)
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < d->n; i++)
        all[i] = i;
    cv_plan plan = {o->folds, o->seed, o->group};
    int rc = cv_assign(d, all, d->n, &plan, r->fold, err);
    free(all);
    return rc;
}

static int result_alloc(pvi_result *r, const dataset *d, size_t K, tells_error *err)
{
    size_t n = d->n;
    memset(r, 0, sizeof *r);
    if (K < 2)
        return tells_error_usage(err, "PVI needs at least 2 folds, not %zu", K);
    if (n < K)
        return tells_error_set(err, d->source, 0, "%zu examples cannot make %zu folds", n, K);
    r->n = n;
    r->nclasses = vocab_size(d->labels);
    r->pvi = array_new(n, sizeof *r->pvi);
    r->p_gold = array_new(n, sizeof *r->p_gold);
    r->p_null = array_new(n, sizeof *r->p_null);
    r->pred = array_new(n, sizeof *r->pred);
    r->fold = array_new(n, sizeof *r->fold);
    if (!r->pvi || !r->p_gold || !r->p_null || !r->pred || !r->fold) {
        pvi_result_free(r);
        return tells_error_nomem(err, NULL, 0);
    }
    return 0;
}

int pvi_from_probabilities(const dataset *d, const double *prob, const size_t *pred,
                           const pvi_options *o, pvi_result *r, tells_error *err)
{
    size_t n = d->n, K = o->folds, L = vocab_size(d->labels);
    if (result_alloc(r, d, K, err) < 0)
        return -1;
    size_t *label_n = array_new(L, sizeof *label_n);
    int rc = label_n ? deal_folds(d, o, r, err) : tells_error_nomem(err, NULL, 0);
    for (size_t k = 0; rc == 0 && k < K; k++) {
        size_t ntr = 0;
        if (!o->null_prob)
            rc = fold_labels(d, r->fold, K, k, label_n, &ntr, err);
        for (size_t i = 0; rc == 0 && i < n; i++) {
            if (r->fold[i] != k)
                continue;
            size_t y = d->ex[i].label;
            r->p_gold[i] = prob[i * L + y];
            r->p_null[i] = o->null_prob ? o->null_prob[i * L + y]
                                        : (double)label_n[y] / (double)ntr;
            r->pvi[i] = -log2(r->p_null[i]) + log2(r->p_gold[i]);
            r->pred[i] = pred[i];
        }
    }
    if (rc == 0)
        rc = summarise(d, o, r, err);
    free(label_n);
    if (rc < 0)
        pvi_result_free(r);
    return rc;
}

int pvi_run(const dataset *d, const pvi_options *o, pvi_result *r, tells_error *err)
{
    size_t n = d->n, K = o->folds, L = vocab_size(d->labels);
    if (result_alloc(r, d, K, err) < 0)
        return -1;
    size_t *tr = array_new(n, sizeof *tr);
    size_t *te = array_new(n, sizeof *te), *label_n = array_new(L, sizeof *label_n);
    drop_sums s = {.classes = L};
    int rc = tr && te && label_n ? 0 : tells_error_nomem(err, NULL, 0);
    if (rc == 0 && o->tokens && !(s.tokens = vocab_new()))
        rc = tells_error_nomem(err, NULL, 0);
    if (rc == 0)
        rc = deal_folds(d, o, r, err);
    for (size_t k = 0; rc == 0 && k < K; k++) {
        size_t ntr = 0, nte = 0;
        for (size_t i = 0; i < n; i++) {
            if (r->fold[i] == k)
                te[nte++] = i;
            else
                tr[ntr++] = i;
        }
        if (fold_labels(d, r->fold, K, k, label_n, &ntr, err) < 0) {
            rc = -1;
            break;
        }
        progress(o, "fold %zu of %zu: training fastText", k + 1, K);
        baseline_config bc = {.kind = MODEL_FASTTEXT, .input = o->input, .ft = o->ft,
                              .tune = o->tune, .group = o->group};
        ft_model *m = baseline_train(d, tr, ntr, &bc, NULL, err);
        if (!m) {
            rc = -1;
            break;
        }
        predictions p;
        rc = fasttext_predict_rows(m, d, te, nte, o->input, &p, err);
        for (size_t j = 0; rc == 0 && j < nte; j++) {
            size_t i = te[j], y = d->ex[i].label;
            r->p_gold[i] = p.prob[j * L + y];
            r->p_null[i] = (double)label_n[y] / (double)ntr;
            r->pvi[i] = -log2(r->p_null[i]) + log2(r->p_gold[i]);
            r->pred[i] = p.pred[j];
        }
        if (rc == 0)
            predictions_free(&p);
        if (rc == 0 && o->tokens) {
            progress(o, "fold %zu of %zu: token deletions", k + 1, K);
            int ml = ft_nlabels(m);
            free(s.probs);
            free(s.map);
            s.probs = array_new((size_t)(ml > 0 ? ml : 1), sizeof *s.probs);
            s.map = array_new((size_t)(ml > 0 ? ml : 1), sizeof *s.map);
            if (!s.probs || !s.map)
                rc = tells_error_nomem(err, NULL, 0);
            for (int q = 0; rc == 0 && q < ml; q++)
                s.map[q] = vocab_find(d->labels, ft_label(m, q), strlen(ft_label(m, q)));
            for (size_t j = 0; rc == 0 && j < nte; j++) {
                size_t i = te[j];
                rc = example_drops(m, &s, d, &d->ex[i], o->input, r->pvi[i],
                                   log2(r->p_null[i]), err);
            }
        }
        ft_free(m);
    }
    if (rc == 0)
        rc = summarise(d, o, r, err);
    if (rc == 0 && o->tokens)
        rc = collect_tokens(&s, r, err);
    free(tr);
    free(te);
    free(label_n);
    vocab_free(s.tokens);
    free(s.sum);
    free(s.n);
    free(s.text);
    free(s.probs);
    free(s.map);
    if (rc < 0)
        pvi_result_free(r);
    return rc;
}

/* No "-0.000000". */
static double show(double x)
{
    return fabs(x) < 5e-7 ? 0.0 : x;
}

int pvi_write_examples(FILE *fp, const dataset *d, const pvi_result *r)
{
    fputs("id\tgold\tpvi\tp_gold\tp_null\tpredicted\tfold\n", fp);
    for (size_t i = 0; i < r->n; i++)
        fprintf(fp, "%s\t%s\t%.6f\t%.6f\t%.6f\t%s\t%zu\n", d->ex[i].id,
                vocab_str(d->labels, d->ex[i].label), show(r->pvi[i]), r->p_gold[i],
                r->p_null[i], vocab_str(d->labels, r->pred[i]), r->fold[i] + 1);
    return ferror(fp) ? -1 : 0;
}

static void write_mean(FILE *fp, const char *name, const pvi_mean *m)
{
    fprintf(fp, "%s\t%zu\t%.6f\t%.6f\t%.6f\n", name, m->n, show(m->mean), show(m->low),
            show(m->high));
}

int pvi_write_summary(FILE *fp, const dataset *d, const pvi_result *r)
{
    size_t *order = vocab_sorted_ids(d->labels);
    if (!order)
        return -1;
    fputs("class\tn\tv_info\tci_low\tci_high\n", fp);
    write_mean(fp, "all", &r->all);
    for (size_t j = 0; j < r->nclasses; j++)
        write_mean(fp, vocab_str(d->labels, order[j]), &r->by_class[order[j]]);
    free(order);
    return ferror(fp) ? -1 : 0;
}

typedef struct token_sort {
    const dataset *d;
    const vocab *tokens;
    const redact_gate *shown;
} token_sort;

static int cmp_tokens(const void *a, const void *b, void *arg)
{
    const pvi_token *x = a, *y = b;
    const token_sort *ts = arg;
    const vocab *labels = ts->d->labels;
    int c = strcmp(vocab_str(labels, x->class_id), vocab_str(labels, y->class_id));
    if (c)
        return c;
    if (x->drop != y->drop)
        return x->drop > y->drop ? -1 : 1;
    return redact_token_cmp(ts->shown, ts->tokens, x->token, y->token);
}

int pvi_write_tokens(FILE *fp, const dataset *d, const pvi_result *r, size_t min_count,
                     size_t top, const struct redact_gate *shown, tells_error *err)
{
    pvi_token *t = array_new(r->ntok, sizeof *t);
    if (!t)
        return tells_error_nomem(err, NULL, 0);
    size_t n = 0;
    for (size_t i = 0; i < r->ntok; i++)
        if (r->tok[i].n >= min_count)
            t[n++] = r->tok[i];
    token_sort ts = {d, r->tokens, shown};
    qsort_r(t, n, sizeof *t, cmp_tokens, &ts);
    fputs("class\ttoken\tn\tpvi_drop\n", fp);
    size_t in_class = 0;
    for (size_t i = 0; i < n; i++) {
        in_class = i && t[i - 1].class_id == t[i].class_id ? in_class + 1 : 0;
        if (top && in_class >= top)
            continue;
        fprintf(fp, "%s\t%s\t%zu\t%.6f\n", vocab_str(d->labels, t[i].class_id),
                redact_gate_name(shown, vocab_str(r->tokens, t[i].token),
                                 vocab_len(r->tokens, t[i].token)),
                t[i].n, show(t[i].drop));
    }
    free(t);
    return ferror(fp) ? -1 : 0;
}

int pvi_write_ids(const char *path, const dataset *d, const pvi_result *r, double threshold,
                  bool low, tells_error *err)
{
    const char **ids = array_new(r->n, sizeof *ids);
    if (!ids)
        return tells_error_nomem(err, NULL, 0);
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++)
        if ((r->pvi[i] < threshold) == low)
            ids[n++] = d->ex[i].id;
    int rc = idfile_write(path, ids, n, err);
    free(ids);
    return rc;
}
