/* Pair-level artifacts (analysis/pairs.h). */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pairs.h"
#include "base/alloc.h"
#include "base/number.h"
#include "model/logreg.h"
#include "stats/interval.h"
#include "stats/ranktest.h"

double *pairs_compute(const dataset *d, pair_shaper *ps, tells_error *err)
{
    double *x = array_new(d->n ? d->n * PAIR_NFEATURES : 1, sizeof *x);
    if (!x) {
        tells_error_nomem(err, NULL, 0);
        return NULL;
    }
    for (size_t i = 0; i < d->n; i++)
        if (pair_shape(ps, d->ex[i].premise, d->ex[i].hypothesis, x + i * PAIR_NFEATURES) < 0) {
            free(x);
            tells_error_nomem(err, d->source, d->ex[i].line);
            return NULL;
        }
    return x;
}

void pairs_assoc_free(pair_assoc *a)
{
    free(a->n);
    free(a->flagged);
    free(a->mean);
    free(a->median);
    memset(a, 0, sizeof *a);
}

/* The k-th smallest of v[0 .. n) (Hoare's selection; v is reordered). */
static double select_kth(double *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        double pivot = v[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                double t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return v[k];
    }
    return v[k];
}

/* The median of v[0 .. n) (the mean of the middle two for even n); v is
   reordered. */
static double median_of(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    double upper = select_kth(v, n, n / 2);
    if (n % 2)
        return upper;
    /* The lower middle: the largest of the values before n / 2. */
    double lower = v[0];
    for (size_t i = 1; i < n / 2; i++)
        if (v[i] > lower)
            lower = v[i];
    return (lower + upper) / 2;
}

/* The rows' classes, computed once for every feature: group[j] the
   class of the j-th row, start[k] where class k's values begin when they
   are laid out class by class (rows in order within a class). */
typedef struct assoc_rows {
    const size_t *rows;
    size_t n, nclasses;
    size_t *group, *start, *next;
} assoc_rows;

/* Feature f's association; col[j] its value on the j-th row. */
static int associate_one(const double *col, const assoc_rows *ar, unsigned long seed,
                         pair_feature f, pair_assoc *a, double *vals, tells_error *err)
{
    size_t n = ar->n, nclasses = ar->nclasses;
    a->feature = f;
    a->nclasses = nclasses;
    a->n = array_new(nclasses, sizeof *a->n);
    a->flagged = array_new(nclasses, sizeof *a->flagged);
    a->mean = array_new(nclasses, sizeof *a->mean);
    a->median = array_new(nclasses, sizeof *a->median);
    if (!a->n || !a->flagged || !a->mean || !a->median)
        return tells_error_nomem(err, NULL, 0);
    bool flag = pair_feature_at(f)->kind == PAIR_FLAG;
    /* One pass: the counts and sums (rows in order within a class, so the
       sums add as before) and, but for a flag (whose median is not
       shown), the values class by class for the medians. */
    double *sum = a->mean;      /* the sums first, divided below */
    for (size_t k = 0; k < nclasses; k++)
        ar->next[k] = ar->start[k];
    for (size_t j = 0; j < n; j++) {
        size_t k = ar->group[j];
        double v = col[j];
        if (!flag)
            vals[ar->next[k]] = v;
        ar->next[k]++;
        sum[k] += v;
        a->flagged[k] += v != 0;
    }
    size_t with = 0;
    for (size_t k = 0; k < nclasses; k++) {
        size_t m = ar->next[k] - ar->start[k];
        a->n[k] = m;
        with += m > 0;
        a->mean[k] = m ? sum[k] / (double)m : NAN;
        a->median[k] = flag ? NAN : median_of(vals + ar->start[k], m);
    }
    /* A feature that does not vary over the examples tests nothing. */
    bool varies = false;
    for (size_t j = 1; j < n && !varies; j++)
        varies = col[j] != col[0];
    a->tested = with >= 2 && varies;
    a->method = GOF_CHI2;
    if (!a->tested)
        return 0;
    if (flag) {
        gof_result g;
        if (flag_class_test(a->flagged, a->n, nclasses, seed, &g, err) < 0)
            return -1;
        a->test = g.test;
        a->method = g.method;
        return 0;
    }
    return kruskal_wallis(col, ar->group, n, nclasses, &a->test, err);
}

int pairs_associate(const dataset *d, const size_t *rows, size_t n, const double *x,
                    const size_t *class_order, size_t nclasses, unsigned long seed,
                    pair_assoc *out, tells_error *err)
{
    memset(out, 0, PAIR_NFEATURES * sizeof *out);
    size_t nl = vocab_size(d->labels);
    size_t *klass = array_new(nl ? nl : 1, sizeof *klass);
    double *vals = array_new(n ? n : 1, sizeof *vals);
    /* The features as columns over the rows, made in one pass over x:
       a pass per feature over its rows of PAIR_NFEATURES values each
       took as long as the tests. */
    double *cols = array_new((n ? n : 1) * PAIR_NFEATURES, sizeof *cols);
    assoc_rows ar = {rows, n, nclasses, array_new(n ? n : 1, sizeof *ar.group),
                     array_new(nclasses, sizeof *ar.start),
                     array_new(nclasses, sizeof *ar.next)};
    int rc = 0;
    if (!klass || !vals || !cols || !ar.group || !ar.start || !ar.next)
        rc = tells_error_nomem(err, NULL, 0);
    for (size_t k = 0; rc == 0 && k < nclasses; k++)
        klass[class_order[k]] = k;
    for (size_t j = 0; rc == 0 && j < n; j++) {
        size_t k = klass[d->ex[rows ? rows[j] : j].label];
        ar.group[j] = k;
        ar.next[k]++;
    }
    for (size_t k = 0, at = 0; rc == 0 && k < nclasses; k++) {
        ar.start[k] = at;
        at += ar.next[k];
    }
    for (size_t j = 0; rc == 0 && j < n; j++) {
        const double *row = x + (rows ? rows[j] : j) * PAIR_NFEATURES;
        for (size_t f = 0; f < PAIR_NFEATURES; f++)
            cols[f * n + j] = row[f];
    }
    for (size_t f = 0; rc == 0 && f < PAIR_NFEATURES; f++)
        rc = associate_one(cols + f * n, &ar, seed, (pair_feature)f, &out[f], vals, err);
    free(klass);
    free(vals);
    free(cols);
    free(ar.group);
    free(ar.start);
    free(ar.next);
    if (rc < 0)
        for (size_t f = 0; f < PAIR_NFEATURES; f++)
            pairs_assoc_free(&out[f]);
    return rc;
}

/* "%.6f", or "-" for NAN. */
static void put_number(FILE *fp, double v, const char *fmt)
{
    if (isnan(v))
        fputs("\t-", fp);
    else {
        putc('\t', fp);
        fprintf(fp, fmt, v);
    }
}

int pairs_write_assoc(FILE *fp, const pair_assoc *a, const dataset *d,
                      const size_t *class_order, tells_error *err)
{
    (void)err;
    size_t k = a[0].nclasses;
    fputs("feature\tkind\ttest\tstatistic\tdf\tp", fp);
    for (size_t c = 0; c < k; c++) {
        const char *name = vocab_str(d->labels, class_order[c]);
        fprintf(fp, "\t%s_mean\t%s_median\t%s_n", name, name, name);
    }
    putc('\n', fp);
    for (size_t f = 0; f < PAIR_NFEATURES; f++) {
        const pair_feature_info *info = pair_feature_at((pair_feature)f);
        bool flag = info->kind == PAIR_FLAG;
        fprintf(fp, "%s\t%s\t%s", info->name, pair_kind_name(info->kind),
                !a[f].tested ? "-" : flag ? gof_method_name(a[f].method) : "kruskal_wallis");
        if (a[f].tested) {
            char p[32];
            pvalue_format(a[f].test.p, 3, p, sizeof p);
            fprintf(fp, "\t%.6f\t%g\t%s", a[f].test.statistic, a[f].test.df, p);
        } else {
            fputs("\t-\t-\t-", fp);
        }
        for (size_t c = 0; c < k; c++) {
            put_number(fp, a[f].mean[c], "%.6f");
            if (flag)
                fputs("\t-", fp);
            else
                put_number(fp, a[f].median[c], "%.6f");
            fprintf(fp, "\t%llu", (unsigned long long)(flag ? a[f].flagged[c] : a[f].n[c]));
        }
        putc('\n', fp);
    }
    return 0;
}

/* "\t" and an integer at p, without printf's floating-point path; the
   end of what was written. */
static char *put_int(char *p, double v)
{
    char buf[32], *e = buf + sizeof buf, *q = e;
    long long x = (long long)v;
    unsigned long long u = x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;
    do {
        *--q = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (x < 0)
        *--q = '-';
    *p++ = '\t';
    memcpy(p, q, (size_t)(e - q));
    return p + (e - q);
}

static char *put_str(char *p, const char *s, size_t len)
{
    memcpy(p, s, len);
    return p + len;
}

int pairs_write_features(FILE *fp, const dataset *d, const double *x, tells_error *err)
{
    fputs("id\tsplit\tlabel", fp);
    for (size_t f = 0; f < PAIR_NFEATURES; f++)
        fprintf(fp, "\t%s", pair_feature_at((pair_feature)f)->name);
    putc('\n', fp);
    /* Each row is made in buf and written with one call: a call per
       field took a third of the time of tells-pairs -f. */
    char *buf = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < d->n; i++) {
        const example *e = &d->ex[i];
        size_t lid = strlen(e->id), ls = vocab_len(d->splits, e->split),
               ll = vocab_len(d->labels, e->label);
        if (ARRAY_RESERVE(buf, cap, lid + ls + ll + 3 + PAIR_NFEATURES * (FIXED6_MAX + 1)) < 0) {
            free(buf);
            return tells_error_nomem(err, NULL, 0);
        }
        char *p = put_str(buf, e->id, lid);
        *p++ = '\t';
        p = put_str(p, vocab_str(d->splits, e->split), ls);
        *p++ = '\t';
        p = put_str(p, vocab_str(d->labels, e->label), ll);
        for (size_t f = 0; f < PAIR_NFEATURES; f++) {
            double v = x[i * PAIR_NFEATURES + f];
            if (pair_feature_at((pair_feature)f)->kind == PAIR_SHARE) {
                *p++ = '\t';
                p += fixed6_format(p, v);
            } else
                p = put_int(p, v);
        }
        *p++ = '\n';
        fwrite(buf, 1, (size_t)(p - buf), fp);
    }
    free(buf);
    return 0;
}

/* ---- the classifier ---- */

void pair_model_free(pair_model *m)
{
    free(m->model_ok);
    free(m->majority_ok);
    memset(m, 0, sizeof *m);
}

static int by_id(const void *a, const void *b, void *ctx)
{
    const dataset *d = ctx;
    return strcmp(d->ex[*(const size_t *)a].id, d->ex[*(const size_t *)b].id);
}

static int by_name(const void *a, const void *b, void *ctx)
{
    const dataset *d = ctx;
    return strcmp(vocab_str(d->labels, *(const size_t *)a),
                  vocab_str(d->labels, *(const size_t *)b));
}

int pairs_classify(const dataset *d, const double *x, const int *part, size_t models,
                   int threads, pair_model *out, tells_error *err)
{
    memset(out, 0, sizeof *out);
    size_t nl = vocab_size(d->labels);
    size_t *order = array_new(d->n ? d->n : 1, sizeof *order);
    size_t *cls = array_new(nl ? nl : 1, sizeof *cls), *klass = array_new(nl ? nl : 1, sizeof *klass);
    unsigned long *counts = array_new((nl ? nl : 1) * models, sizeof *counts);
    out->model_ok = array_new(d->n ? d->n : 1, 1);
    out->majority_ok = array_new(d->n ? d->n : 1, 1);
    float *xs = NULL;
    int *y = NULL;
    unsigned char *in_train = NULL;
    logreg_fit *fit = NULL;
    int rc = 0;
    if (!order || !cls || !klass || !counts || !out->model_ok || !out->majority_ok) {
        rc = tells_error_nomem(err, NULL, 0);
        goto done;
    }
    /* The rows used, by id; the classes by name. */
    size_t n = 0;
    for (size_t i = 0; i < d->n; i++)
        if (part[i] != -1)
            order[n++] = i;
    qsort_r(order, n, sizeof *order, by_id, (void *)d);
    for (size_t c = 0; c < nl; c++)
        cls[c] = c;
    qsort_r(cls, nl, sizeof *cls, by_name, (void *)d);
    for (size_t c = 0; c < nl; c++)
        klass[cls[c]] = c;
    xs = array_new(n ? n * PAIR_NFEATURES : 1, sizeof *xs);
    y = array_new(n ? n : 1, sizeof *y);
    in_train = array_new(n ? n * models : 1, 1);
    if (!xs || !y || !in_train) {
        rc = tells_error_nomem(err, NULL, 0);
        goto done;
    }
    for (size_t r = 0; r < n; r++) {
        size_t i = order[r];
        for (size_t f = 0; f < PAIR_NFEATURES; f++)
            xs[r * PAIR_NFEATURES + f] = (float)x[i * PAIR_NFEATURES + f];
        y[r] = (int)klass[d->ex[i].label];
        for (size_t j = 0; j < models; j++) {
            bool t = models == 1 ? part[i] == PAIRS_TRAIN : part[i] != (int)j;
            in_train[r * models + j] = t;
            counts[j * nl + (size_t)y[r]] += t;
        }
    }
    /* Each model's training rows need two classes. */
    size_t *majority = array_new(models, sizeof *majority);
    if (!majority) {
        rc = tells_error_nomem(err, NULL, 0);
        goto done;
    }
    size_t pooled_best = 0;
    for (size_t j = 0; j < models; j++) {
        size_t present = 0, best = 0;
        for (size_t c = 0; c < nl; c++) {
            present += counts[j * nl + c] > 0;
            if (counts[j * nl + c] > counts[j * nl + best])
                best = c;
        }
        majority[j] = best;
        if (present < 2) {
            free(majority);
            rc = tells_error_set(err, d->source, 0, "the pair-feature classifier's training "
                                 "rows%s have only one class",
                                 models > 1 ? " of a fold" : "");
            goto done;
        }
    }
    /* The majority class named in the output: of every training row
       (pooled over the folds). */
    for (size_t c = 0; c < nl; c++) {
        unsigned long a = 0, b = 0;
        for (size_t j = 0; j < models; j++) {
            a += counts[j * nl + c];
            b += counts[j * nl + pooled_best];
        }
        if (a > b)
            pooled_best = c;
    }
    out->majority_label = cls[pooled_best];
    logreg_options o;
    logreg_options_default(&o);
    o.threads = threads > 0 ? threads : 1;
    logreg_data ld = {.x = xs, .rows = n, .dim = PAIR_NFEATURES, .ld = PAIR_NFEATURES,
                      .y = y, .classes = nl};
    if (!(fit = logreg_train(&ld, in_train, models, NULL, &o, NULL, err))) {
        free(majority);
        rc = -1;
        goto done;
    }
    double train_right = 0, train_n = 0;
    for (size_t r = 0; r < n; r++) {
        size_t i = order[r];
        const float *row = xs + r * PAIR_NFEATURES;
        for (size_t j = 0; j < models; j++) {
            int pred = logreg_predict(fit, j, row);
            if (in_train[r * models + j]) {
                train_right += pred == y[r];
                train_n++;
                continue;
            }
            bool scored = models == 1 ? part[i] == PAIRS_EVAL : part[i] == (int)j;
            if (!scored)
                continue;
            bool ok = pred == y[r], mok = (size_t)y[r] == majority[j];
            out->model_ok[i] = ok;
            out->majority_ok[i] = mok;
            out->n++;
            out->right += ok;
            out->majority_right += mok;
            out->only_model += ok && !mok;
            out->only_majority += mok && !ok;
        }
    }
    free(majority);
    if (out->n == 0) {
        rc = tells_error_set(err, d->source, 0, "the pair-feature classifier has no row to "
                             "score");
        goto done;
    }
    out->train_accuracy = train_n ? train_right / train_n : NAN;
    out->p = mcnemar_exact_greater(out->only_model, out->only_majority);
    double psi = out->n ? (double)(out->only_model + out->only_majority) / (double)out->n : 0;
    out->mde = mcnemar_mde(psi > 0 ? psi : 0.5, out->n, 0.05, 0.8);
done:
    logreg_free(fit);
    free(order);
    free(cls);
    free(klass);
    free(counts);
    free(xs);
    free(y);
    free(in_train);
    if (rc < 0)
        pair_model_free(out);
    return rc;
}

int pairs_plan(const dataset *d, const char *train, const char *eval, size_t folds,
               fold_grouping g, unsigned long seed, int *part, size_t *models, char *design,
               size_t size, tells_error *err)
{
    const vocab *sp = d->splits;
    int kind = split_design(sp, train, eval, &train, &eval, err);
    if (kind < 0)
        return -1;
    if (kind == 1) {
        long t = vocab_find(sp, train, strlen(train)), e = vocab_find(sp, eval, strlen(eval));
        for (size_t i = 0; i < d->n; i++)
            part[i] = (long)d->ex[i].split == t ? PAIRS_TRAIN
                      : (long)d->ex[i].split == e ? PAIRS_EVAL : -1;
        *models = 1;
        snprintf(design, size, "train on %s, scored on %s", train, eval);
        return 0;
    }
    size_t *rows = array_new(d->n ? d->n : 1, sizeof *rows);
    size_t *fold = array_new(d->n ? d->n : 1, sizeof *fold);
    if (!rows || !fold) {
        free(rows);
        free(fold);
        return tells_error_nomem(err, NULL, 0);
    }
    for (size_t i = 0; i < d->n; i++)
        rows[i] = i;
    cv_plan plan = {.folds = folds, .seed = seed, .group = g};
    int rc = cv_assign(d, rows, d->n, &plan, fold, err);
    for (size_t i = 0; rc == 0 && i < d->n; i++)
        part[i] = (int)fold[i];
    free(rows);
    free(fold);
    *models = folds;
    snprintf(design, size, "%zu-fold cross-validation", folds);
    return rc;
}
