#include <config.h>
#include "analysis/testtree.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/csvrec.h"
#include "base/lineio.h"
#include "stats/stattest.h"
#include "base/vocab.h"

void tree_free(test_tree *tr)
{
    for (size_t i = 0; i < tr->n; i++) {
        free(tr->t[i].topic);
        free(tr->t[i].input);
        free(tr->t[i].output);
        free(tr->t[i].input2);
    }
    free(tr->t);
    free(tr->inputs);
    free(tr->source);
    memset(tr, 0, sizeof *tr);
}

/* The paper-era test types tells runs. */
static const struct {
    const char *type;
    tree_kind kind;
} paper_types[] = {
    {"{} should output {}", TREE_SHOULD_OUTPUT},
    {"{} should not output {}", TREE_SHOULD_NOT},
    {"{} should have the same output as {}", TREE_SAME_OUTPUT},
};

/* The columns of either format: topic, input, output, label or topic,
   type, value1, value2. */
enum { COL_TOPIC, COL_INPUT, COL_OUTPUT, COL_LABEL, NCOLS };

static int find_columns(const csv_rec *rec, bool paper, long *col, const char *file,
                        tells_error *err)
{
    static const char *const current[NCOLS] = {"topic", "input", "output", "label"};
    static const char *const old[NCOLS] = {"topic", "value1", "value2", "type"};
    const char *const *want = paper ? old : current;
    for (int k = 0; k < NCOLS; k++) {
        col[k] = csv_rec_column(rec, want[k]);
        if (col[k] < 0)
            return tells_error_set(err, file, rec->line, "no column named '%s' in the "
                                   "header", want[k]);
    }
    return 0;
}

/* Reads one row into t; 1 when the row is a test, 0 when it is skipped. */
static int read_row(const test_tree *tr, const csv_rec *rec, const long *col, tree_test *t,
                    const char *file, tells_error *err)
{
    const char *input = rec->field[col[COL_INPUT]], *output = rec->field[col[COL_OUTPUT]];
    const char *label = rec->field[col[COL_LABEL]];
    memset(t, 0, sizeof *t);
    if (tr->paper_format) {
        size_t k = 0, nt = sizeof paper_types / sizeof *paper_types;
        while (k < nt && strcmp(label, paper_types[k].type) != 0)
            k++;
        if (k == nt || !input[0])
            return 0;
        t->kind = paper_types[k].kind;
        t->expect_pass = t->kind != TREE_SHOULD_NOT;
        if (!output[0])
            return tells_error_set(err, file, rec->line, "empty value2");
    } else {
        bool pass = strcmp(label, "pass") == 0;
        if ((!pass && strcmp(label, "fail") != 0) || !input[0])
            return 0;
        if (!output[0])
            return tells_error_set(err, file, rec->line, "empty output");
        t->kind = TREE_LABELLED;
        t->expect_pass = pass;
    }
    const char *topic = rec->field[col[COL_TOPIC]];
    t->topic = strdup(topic[0] ? topic : "/");
    t->input = strdup(input);
    if (t->kind == TREE_SAME_OUTPUT)
        t->input2 = strdup(output);
    else
        t->output = strdup(output);
    t->line = rec->line;
    if (!t->topic || !t->input || (!t->output && !t->input2)) {
        free(t->topic);
        free(t->input);
        free(t->output);
        free(t->input2);
        return tells_error_nomem(err, file, rec->line);
    }
    return 1;
}

/* Numbers the inputs: one per test, two per invariance test. */
static int index_inputs(test_tree *tr)
{
    size_t n = 0;
    for (size_t i = 0; i < tr->n; i++)
        n += tr->t[i].input2 ? 2 : 1;
    if (!(tr->inputs = array_new(n, sizeof *tr->inputs)))
        return -1;
    for (size_t i = 0; i < tr->n; i++) {
        tr->t[i].first = tr->ninputs;
        tr->inputs[tr->ninputs++] = tr->t[i].input;
        if (tr->t[i].input2)
            tr->inputs[tr->ninputs++] = tr->t[i].input2;
    }
    return 0;
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
    long col[NCOLS];
    size_t ncol = 0, cap = 0;
    csv_rec rec;
    int rc = tr->source ? csv_rec_next(r, &rec, err) : tells_error_nomem(err, file, 0);
    if (rc == 0)
        rc = tells_error_set(err, file, 0, "empty input: expected a header row");
    if (rc < 0)
        goto fail;
    /* The paper's format has a type column and no label. */
    tr->paper_format = csv_rec_column(&rec, "label") < 0 && csv_rec_column(&rec, "type") >= 0;
    if ((rc = find_columns(&rec, tr->paper_format, col, file, err)) < 0)
        goto fail;
    ncol = rec.n;
    while ((rc = csv_rec_next_row(r, &rec, ncol, err)) > 0) {
        if (ARRAY_RESERVE(tr->t, cap, tr->n + 1) < 0) {
            rc = tells_error_nomem(err, file, rec.line);
            goto fail;
        }
        int got = read_row(tr, &rec, col, &tr->t[tr->n], file, err);
        if (got < 0) {
            rc = -1;
            goto fail;
        }
        if (got)
            tr->n++;
        else
            tr->skipped++;
    }
    if (rc < 0)
        goto fail;
    if (tr->n == 0) {
        rc = tells_error_set(err, file, 0, tr->paper_format
                             ? "no tests of a type tells runs (should output, should not "
                               "output, should have the same output as)"
                             : "no tests labelled pass or fail");
        goto fail;
    }
    if (index_inputs(tr) < 0) {
        rc = tells_error_nomem(err, file, 0);
        goto fail;
    }
    csv_rec_close(r);
    return 0;
fail:
    csv_rec_close(r);
    tree_free(tr);
    return -1;
}

void tree_judge(const test_tree *tr, const char *const *pred, tree_changed_rule rule,
                unsigned char *outcome)
{
    for (size_t i = 0; i < tr->n; i++) {
        const tree_test *t = &tr->t[i];
        const char *p = pred[t->first];
        bool pass;
        switch (t->kind) {
        case TREE_SHOULD_OUTPUT: pass = strcmp(p, t->output) == 0; break;
        case TREE_SHOULD_NOT: pass = strcmp(p, t->output) != 0; break;
        case TREE_SAME_OUTPUT: pass = strcmp(p, pred[t->first + 1]) == 0; break;
        default:
            if (strcmp(p, t->output) == 0) {
                pass = t->expect_pass;
            } else if (rule == TREE_CHANGED_SKIP) {
                outcome[i] = TREE_CHANGED;
                continue;
            } else {
                pass = !t->expect_pass;
            }
        }
        outcome[i] = pass ? TREE_PASS : TREE_FAIL;
    }
}

int tree_failures(const test_tree *tr, classifier *c, char *const *lines, size_t batch,
                  tree_changed_rule rule, unsigned char **outcome, tells_error *err)
{
    size_t *label = array_new(tr->ninputs, sizeof *label);
    const char **names = array_new(tr->ninputs, sizeof *names);
    unsigned char *o = array_new(tr->n, sizeof *o);
    int rc = label && names && o ? 0 : tells_error_nomem(err, NULL, 0);
    if (rc == 0)
        rc = classifier_predict_all(c, (const char *const *)lines, tr->ninputs, batch, label,
                                    NULL, err);
    if (rc == 0) {
        for (size_t i = 0; i < tr->ninputs; i++)
            names[i] = classifier_class(c, label[i]);
        tree_judge(tr, names, rule, o);
        *outcome = o;
        o = NULL;
    }
    free(label);
    free(names);
    free(o);
    return rc;
}

/* The topics of the report: every test's topic and its ancestors (/a
   for /a/b), in order of first appearance, each ancestor first. */
static vocab *topics_of(const test_tree *tr)
{
    vocab *v = vocab_new();
    for (size_t i = 0; v && i < tr->n; i++) {
        const char *topic = tr->t[i].topic;
        size_t len = strlen(topic);
        for (size_t end = 1; end <= len; end++)
            if ((end == len || topic[end] == '/') && vocab_intern(v, topic, end) < 0) {
                vocab_free(v);
                return NULL;
            }
    }
    return v;
}

/* Whether test t belongs to topic k of v: its topic or a subtopic. */
static bool in_topic(const tree_test *t, const vocab *v, size_t k)
{
    const char *topic = vocab_str(v, k);
    size_t len = strlen(topic);
    return strncmp(t->topic, topic, len) == 0 &&
           (t->topic[len] == '\0' || t->topic[len] == '/');
}

/* Pooled counts of some tests over runs. */
typedef struct pooled {
    size_t failures, scored, changed;
} pooled;

static void pool_test(pooled *p, const unsigned char *const *runs, size_t nruns, size_t i)
{
    for (size_t r = 0; r < nruns; r++) {
        p->failures += runs[r][i] == TREE_FAIL;
        p->scored += runs[r][i] != TREE_CHANGED;
        p->changed += runs[r][i] == TREE_CHANGED;
    }
}

static double pooled_rate(const pooled *p)
{
    return p->scored ? (double)p->failures / (double)p->scored : NAN;
}

/* The tests of topic k (or every test, k = SIZE_MAX) into members. */
static size_t topic_members(const test_tree *tr, const vocab *v, size_t k, size_t *members)
{
    size_t m = 0;
    for (size_t i = 0; i < tr->n; i++)
        if (k == SIZE_MAX || in_topic(&tr->t[i], v, k))
            members[m++] = i;
    return m;
}

int tree_report_runs(FILE *fp, const test_tree *tr, const unsigned char *const *runs,
                     size_t nruns, tells_error *err)
{
    size_t *members = array_new(tr->n, sizeof *members);
    vocab *v = members ? topics_of(tr) : NULL;
    if (!v) {
        free(members);
        return tells_error_nomem(err, NULL, 0);
    }
    size_t T = vocab_size(v);
    fputs("topic\ttests\tfailures\tfailure_rate\tchanged\n", fp);
    for (size_t k = 0; k <= T; k++) {
        size_t m = topic_members(tr, v, k < T ? k : SIZE_MAX, members);
        pooled p = {0};
        for (size_t j = 0; j < m; j++)
            pool_test(&p, runs, nruns, members[j]);
        fprintf(fp, "%s\t%zu\t%zu\t%.6f\t%zu\n", k < T ? vocab_str(v, k) : "(all)", m,
                p.failures, pooled_rate(&p), p.changed);
    }
    free(members);
    vocab_free(v);
    return 0;
}

/* Per test, pooled over the runs of each model: the paired bootstrap
   draws tests, so a test's runs go together. */
typedef struct test_counts {
    unsigned fail_a, scored_a, fail_b, scored_b;
} test_counts;

static double rate_difference(size_t fa, size_t sa, size_t fb, size_t sb)
{
    double ra = sa ? (double)fa / (double)sa : 0, rb = sb ? (double)fb / (double)sb : 0;
    return ra - rb;
}

/* The two-sided paired-bootstrap p-value of after minus before over m
   tests (tells-stat's conventions: resamples of m draws, |d* - d| >=
   |d| counted, (count + 1) / (samples + 1)). */
static int bootstrap_p(const test_counts *tc, size_t m, const tree_compare_options *o,
                       pvalue *p, tells_error *err)
{
    size_t fa = 0, sa = 0, fb = 0, sb = 0;
    for (size_t i = 0; i < m; i++) {
        fa += tc[i].fail_a;
        sa += tc[i].scored_a;
        fb += tc[i].fail_b;
        sb += tc[i].scored_b;
    }
    if (!sa || !sb) {   /* nothing scored on one side: nothing to test */
        *p = pvalue_from_p(1.0);
        return 0;
    }
    double d = rate_difference(fa, sa, fb, sb);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return tells_error_nomem(err, NULL, 0);
    gsl_rng_set(rng, o->seed);
    size_t count = 0;
    for (size_t it = 0; it < o->samples; it++) {
        size_t xa = 0, ya = 0, xb = 0, yb = 0;
        for (size_t j = 0; j < m; j++) {
            const test_counts *c = &tc[gsl_rng_uniform_int(rng, m)];
            xa += c->fail_a;
            ya += c->scored_a;
            xb += c->fail_b;
            yb += c->scored_b;
        }
        double ds = rate_difference(xa, ya, xb, yb) - d;
        count += fabs(ds) >= fabs(d) - 1e-12;
    }
    gsl_rng_free(rng);
    *p = pvalue_from_p(((double)count + 1.0) / ((double)o->samples + 1.0));
    return 0;
}

static void format_rate(char *buf, size_t size, double rate)
{
    if (isnan(rate))
        snprintf(buf, size, "nan");
    else
        snprintf(buf, size, "%.6f", rate);
}

int tree_compare_runs(FILE *fp, const test_tree *tr, const unsigned char *const *before,
                      size_t nbefore, const unsigned char *const *after, size_t nafter,
                      const tree_compare_options *o, tells_error *err)
{
    size_t *members = array_new(tr->n, sizeof *members);
    test_counts *tc = array_new(tr->n, sizeof *tc);
    vocab *v = members && tc ? topics_of(tr) : NULL;
    size_t T = v ? vocab_size(v) : 0;
    pooled *pa = array_new(T, sizeof *pa), *pb = array_new(T, sizeof *pb);
    pvalue *p = array_new(T, sizeof *p), *q = array_new(T, sizeof *q);
    bool *reject = array_new(T, sizeof *reject);
    int rc = -1;
    if (!v || !pa || !pb || !p || !q || !reject) {
        tells_error_nomem(err, NULL, 0);
        goto done;
    }
    for (size_t k = 0; k < T; k++) {
        size_t m = topic_members(tr, v, k, members);
        for (size_t j = 0; j < m; j++) {
            size_t i = members[j];
            pooled a = {0}, b = {0};
            pool_test(&a, after, nafter, i);
            pool_test(&b, before, nbefore, i);
            tc[j] = (test_counts){(unsigned)a.failures, (unsigned)a.scored,
                                  (unsigned)b.failures, (unsigned)b.scored};
            pa[k].failures += a.failures;
            pa[k].scored += a.scored;
            pa[k].changed += a.changed;
            pb[k].failures += b.failures;
            pb[k].scored += b.scored;
            pb[k].changed += b.changed;
        }
        if (bootstrap_p(tc, m, o, &p[k], err) < 0)
            goto done;
    }
    if (bh_adjust(p, T, o->alpha, q, reject, err) < 0)
        goto done;
    fputs("topic\ttests\tfailures_before\tfailure_rate_before\tfailures_after\t"
          "failure_rate_after\tchange\tp_value\tq_value\tstatus\tchanged_before\t"
          "changed_after\n",
          fp);
    for (size_t k = 0; k < T; k++) {
        double rb = pooled_rate(&pb[k]), ra = pooled_rate(&pa[k]);
        const char *status = "-";
        bool known = !isnan(rb) && !isnan(ra);
        /* A topic fails when its rate is above the threshold (AdaTest). */
        if (known && q[k].p < o->alpha && rb > o->threshold && ra <= o->threshold)
            status = "fixed";
        else if (known && q[k].p < o->alpha && rb <= o->threshold && ra > o->threshold)
            status = "broken";
        char pbuf[64], qbuf[64], rbs[32], ras[32], chs[32];
        pvalue_format(p[k], 2, pbuf, sizeof pbuf);
        pvalue_format(q[k], 2, qbuf, sizeof qbuf);
        format_rate(rbs, sizeof rbs, rb);
        format_rate(ras, sizeof ras, ra);
        format_rate(chs, sizeof chs, ra - rb);
        fprintf(fp, "%s\t%zu\t%zu\t%s\t%zu\t%s\t%s\t%s\t%s\t%s\t%zu\t%zu\n", vocab_str(v, k),
                topic_members(tr, v, k, members), pb[k].failures, rbs, pa[k].failures, ras,
                chs, pbuf, qbuf, status, pb[k].changed, pa[k].changed);
    }
    rc = 0;
done:
    free(members);
    free(tc);
    vocab_free(v);
    free(pa);
    free(pb);
    free(p);
    free(q);
    free(reject);
    return rc;
}
