#include <config.h>
#include "analysis/testtree.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/csvrec.h"
#include "base/lineio.h"
#include "stats/metrics.h"
#include "stats/stattest.h"
#include "base/vocab.h"

void tree_free(test_tree *tr)
{
    for (size_t i = 0; i < tr->n; i++) {
        free(tr->t[i].topic);
        free(tr->t[i].input);
        free(tr->t[i].output);
    }
    free(tr->t);
    free(tr->source);
    memset(tr, 0, sizeof *tr);
}

int tree_load(test_tree *tr, const char *path, tells_error *err)
{
    memset(tr, 0, sizeof *tr);
    size_t len = strlen(path);
    bool tsv = len > 4 && strcmp(path + len - 4, ".tsv") == 0;
    csv_rec_reader *r;
    if (csv_rec_open(&r, path, tsv, LINE_MAX_DEFAULT, err) < 0)
        return -1;
    const char *file = csv_rec_name(r);
    tr->source = strdup(file);
    static const char *const want[4] = {"topic", "input", "output", "label"};
    long col[4];
    size_t ncol = 0, cap = 0;
    csv_rec rec;
    int rc = tr->source ? csv_rec_next(r, &rec, err) : tells_error_nomem(err, file, 0);
    if (rc == 0)
        rc = tells_error_set(err, file, 0, "empty input: expected a header row");
    if (rc < 0)
        goto fail;
    for (int k = 0; k < 4; k++) {
        col[k] = csv_rec_column(&rec, want[k]);
        if (col[k] < 0) {
            rc = tells_error_set(err, file, rec.line, "no column named '%s' in the header",
                                 want[k]);
            goto fail;
        }
    }
    ncol = rec.n;
    while ((rc = csv_rec_next_row(r, &rec, ncol, err)) > 0) {
        const char *label = rec.field[col[3]];
        bool pass = strcmp(label, "pass") == 0;
        if ((!pass && strcmp(label, "fail") != 0) || !rec.field[col[1]][0]) {
            tr->skipped++;
            continue;
        }
        if (!rec.field[col[2]][0]) {
            rc = tells_error_set(err, file, rec.line, "empty output");
            goto fail;
        }
        if (ARRAY_RESERVE(tr->t, cap, tr->n + 1) < 0) {
            rc = tells_error_nomem(err, file, rec.line);
            goto fail;
        }
        tree_test *t = &tr->t[tr->n++];
        t->topic = strdup(rec.field[col[0]][0] ? rec.field[col[0]] : "/");
        t->input = strdup(rec.field[col[1]]);
        t->output = strdup(rec.field[col[2]]);
        t->expect_pass = pass;
        t->line = rec.line;
        if (!t->topic || !t->input || !t->output) {
            rc = tells_error_nomem(err, file, rec.line);
            goto fail;
        }
    }
    if (rc < 0)
        goto fail;
    if (tr->n == 0) {
        rc = tells_error_set(err, file, 0, "no tests labelled pass or fail");
        goto fail;
    }
    csv_rec_close(r);
    return 0;
fail:
    csv_rec_close(r);
    tree_free(tr);
    return -1;
}

void tree_outcomes(const test_tree *tr, const char *const *pred, bool *failed)
{
    for (size_t i = 0; i < tr->n; i++) {
        bool same = strcmp(pred[i], tr->t[i].output) == 0;
        failed[i] = tr->t[i].expect_pass ? !same : same;
    }
}

int tree_failures(const test_tree *tr, classifier *c, char *const *lines, size_t batch,
                  bool **failed, tells_error *err)
{
    size_t *label = array_new(tr->n, sizeof *label);
    const char **names = array_new(tr->n, sizeof *names);
    bool *f = array_new(tr->n, sizeof *f);
    int rc = label && names && f ? 0 : tells_error_nomem(err, NULL, 0);
    if (rc == 0)
        rc = classifier_predict_all(c, (const char *const *)lines, tr->n, batch, label, NULL,
                                    err);
    if (rc == 0) {
        for (size_t i = 0; i < tr->n; i++)
            names[i] = classifier_class(c, label[i]);
        tree_outcomes(tr, names, f);
        *failed = f;
        f = NULL;
    }
    free(label);
    free(names);
    free(f);
    return rc;
}

/* Topics in order of first appearance; topic_of[i] per test. */
static vocab *topics_of(const test_tree *tr, size_t *topic_of)
{
    vocab *v = vocab_new();
    for (size_t i = 0; v && i < tr->n; i++) {
        long k = vocab_intern(v, tr->t[i].topic, strlen(tr->t[i].topic));
        if (k < 0) {
            vocab_free(v);
            return NULL;
        }
        topic_of[i] = (size_t)k;
    }
    return v;
}

int tree_report(FILE *fp, const test_tree *tr, const bool *failed, tells_error *err)
{
    size_t *topic_of = malloc(tr->n * sizeof *topic_of);
    vocab *v = topic_of ? topics_of(tr, topic_of) : NULL;
    size_t T = v ? vocab_size(v) : 0;
    size_t *n = calloc(T + 1, sizeof *n), *f = calloc(T + 1, sizeof *f);
    int rc = -1;
    if (!v || !n || !f) {
        tells_error_nomem(err, NULL, 0);
        goto done;
    }
    for (size_t i = 0; i < tr->n; i++) {
        n[topic_of[i]]++;
        f[topic_of[i]] += failed[i];
        n[T]++;
        f[T] += failed[i];
    }
    fputs("topic\ttests\tfailures\tfailure_rate\n", fp);
    for (size_t k = 0; k <= T; k++)
        fprintf(fp, "%s\t%zu\t%zu\t%.6f\n", k < T ? vocab_str(v, k) : "(all)", n[k], f[k],
                (double)f[k] / (double)n[k]);
    rc = 0;
done:
    free(topic_of);
    vocab_free(v);
    free(n);
    free(f);
    return rc;
}

/* The tests of one topic as tells-stat's prediction data: gold "pass"
   for every test, system 0 the model after, system 1 before, so that
   accuracy is the pass rate. */
static int topic_pred_data(pred_data *d, const size_t *members, size_t m, const bool *after,
                           const bool *before)
{
    memset(d, 0, sizeof *d);
    d->ids = vocab_new();
    d->labels = vocab_new();
    d->nsys = 2;
    d->names = calloc(2, sizeof *d->names);
    d->off = calloc(3, sizeof *d->off);
    d->lab = calloc(3, sizeof *d->lab);
    if (!d->ids || !d->labels || !d->names || !d->off || !d->lab ||
        !(d->names[0] = strdup("after")) || !(d->names[1] = strdup("before")) ||
        vocab_intern(d->labels, "pass", 4) < 0 || vocab_intern(d->labels, "fail", 4) < 0)
        return -1;
    for (size_t s = 0; s < 3; s++) {
        d->off[s] = malloc((m + 1) * sizeof **d->off);
        d->lab[s] = malloc((m ? m : 1) * sizeof **d->lab);
        if (!d->off[s] || !d->lab[s])
            return -1;
        for (size_t i = 0; i <= m; i++)
            d->off[s][i] = i;
    }
    for (size_t i = 0; i < m; i++) {
        char id[32];
        snprintf(id, sizeof id, "%zu", members[i]);
        if (vocab_intern(d->ids, id, strlen(id)) < 0)
            return -1;
        d->lab[0][i] = 0;
        d->lab[1][i] = after[members[i]] ? 1 : 0;
        d->lab[2][i] = before[members[i]] ? 1 : 0;
    }
    return 0;
}

int tree_compare(FILE *fp, const test_tree *tr, const bool *before, const bool *after,
                 const tree_compare_options *o, tells_error *err)
{
    size_t *topic_of = malloc(tr->n * sizeof *topic_of);
    size_t *members = malloc(tr->n * sizeof *members);
    vocab *v = topic_of ? topics_of(tr, topic_of) : NULL;
    size_t T = v ? vocab_size(v) : 0;
    size_t *n = calloc(T ? T : 1, sizeof *n), *fb = calloc(T ? T : 1, sizeof *fb),
           *fa = calloc(T ? T : 1, sizeof *fa);
    pvalue *p = calloc(T ? T : 1, sizeof *p), *q = calloc(T ? T : 1, sizeof *q);
    bool *reject = calloc(T ? T : 1, sizeof *reject);
    int rc = -1;
    if (!members || !v || !n || !fb || !fa || !p || !q || !reject) {
        tells_error_nomem(err, NULL, 0);
        goto done;
    }
    for (size_t i = 0; i < tr->n; i++) {
        n[topic_of[i]]++;
        fb[topic_of[i]] += before[i];
        fa[topic_of[i]] += after[i];
    }
    for (size_t k = 0; k < T; k++) {
        size_t m = 0;
        for (size_t i = 0; i < tr->n; i++)
            if (topic_of[i] == k)
                members[m++] = i;
        pred_data d;
        resample_result r;
        if (topic_pred_data(&d, members, m, after, before) < 0) {
            pred_free(&d);
            tells_error_nomem(err, NULL, 0);
            goto done;
        }
        if (paired_bootstrap(&d, 0, 1, METRIC_ACCURACY, o->samples, o->seed, ALT_TWO_SIDED,
                             &r, err) < 0) {
            pred_free(&d);
            goto done;
        }
        pred_free(&d);
        p[k] = r.p;
    }
    if (bh_adjust(p, T, o->alpha, q, reject, err) < 0)
        goto done;
    fputs("topic\ttests\tfailures_before\tfailure_rate_before\tfailures_after\t"
          "failure_rate_after\tchange\tp_value\tq_value\tstatus\n",
          fp);
    for (size_t k = 0; k < T; k++) {
        double rb = (double)fb[k] / (double)n[k], ra = (double)fa[k] / (double)n[k];
        const char *status = "-";
        if (q[k].p < o->alpha && rb >= o->threshold && ra < o->threshold)
            status = "fixed";
        else if (q[k].p < o->alpha && rb < o->threshold && ra >= o->threshold)
            status = "broken";
        char pb[64], qb[64];
        pvalue_format(p[k], 2, pb, sizeof pb);
        pvalue_format(q[k], 2, qb, sizeof qb);
        fprintf(fp, "%s\t%zu\t%zu\t%.6f\t%zu\t%.6f\t%.6f\t%s\t%s\t%s\n", vocab_str(v, k), n[k],
                fb[k], rb, fa[k], ra, ra - rb, pb, qb, status);
    }
    rc = 0;
done:
    free(topic_of);
    free(members);
    vocab_free(v);
    free(n);
    free(fb);
    free(fa);
    free(p);
    free(q);
    free(reject);
    return rc;
}
