#include <config.h>
#include "analysis/audit.h"

#include <errno.h>
#include <inttypes.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fields.h"
#include "base/lineio.h"
#include "base/number.h"
#include "base/outfile.h"
#include "model/evaluate.h"
#include "stats/chisq.h"
#include "stats/pmi.h"

void audit_options_default(audit_options *o)
{
    memset(o, 0, sizeof *o);
    o->folds = 5;
    /* 200,000 n-gram buckets instead of fastText's 2,000,000: a model file
       of 80 MB instead of 800 MB, read at every reuse, and a tenth of the
       memory to clear at every training. */
    o->ft = (ft_train_args){.mode = "supervised", .word_ngrams = 2, .threads = 1,
                            .bucket = 200000};
    o->alpha = 0.05;
    o->min_count = 5;
    o->pseudo = 10;
    o->predictable = 0.9;
    o->top_pmi = 15;
}

/* ---- hypotheses as hashes, for duplicates ---- */

/* Words that do not make two hypotheses different enough. */
static bool stopword(const char *w, size_t len)
{
    static const char *const words[] = {
        "a", "an", "the", "is", "are", "was", "were", "be", "been", "has", "have",
        "had", "of", "to", "in", "on", "at", "with", "and", "for", "this", "that",
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == len && memcmp(words[i], w, len) == 0)
            return true;
    return false;
}

typedef struct span {
    const char *s;
    size_t len;
} span;

static int cmp_span(const void *a, const void *b)
{
    const span *x = a, *y = b;
    int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Exact: the prepared text (already lowercased and tokenised). Near: the
   set of its words but stopwords, in any order. */
static int hypothesis_keys(const char *text, uint64_t *exact, uint64_t *near)
{
    *exact = vocab_hash(text, strlen(text));
    size_t n = 0, cap = 0;
    span *w = NULL;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, ' ');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len && !stopword(p, len)) {
            if (ARRAY_RESERVE(w, cap, n + 1) < 0) {
                free(w);
                return -1;
            }
            w[n++] = (span){p, len};
        }
        p += len + (e != NULL);
    }
    if (n)
        qsort(w, n, sizeof *w, cmp_span);
    uint64_t h = VOCAB_HASH_INIT;
    for (size_t i = 0; i < n; i++) {
        if (i && cmp_span(&w[i], &w[i - 1]) == 0)
            continue;
        for (size_t k = 0; k < w[i].len; k++)
            h = vocab_hash_step(h, (unsigned char)w[i].s[k]);
        h = vocab_hash_step(h, ' ');
    }
    *near = vocab_hash_final(h);
    free(w);
    return 0;
}

/* Keeps the first row of each key. */
static int remember(u64map *m, uint64_t key, size_t row)
{
    uint64_t v;
    if (u64map_get(m, key, &v))
        return 0;
    return u64map_put(m, key, (uint64_t)row + 1);
}

/* ---- the reference ---- */

static int count_rows(token_counts *tc, const dataset *d, const size_t *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const example *e = &d->ex[rows ? rows[i] : i];
        const char *label = vocab_str(d->labels, e->label);
        if (counts_add(tc, label, strlen(label), e->hypothesis, strlen(e->hypothesis),
                       "", 0) < 0)
            return -1;
    }
    return 0;
}

static int top_tokens(audit_reference *ref, const audit_options *o)
{
    pmi_options po = {.binary = false, .min_count = 5, .smoothing = 50, .top = o->top_pmi};
    pmi_table t;
    ref->tells = vocab_new();
    if (!ref->tells || pmi_compute(&ref->tokens, &po, &t) < 0)
        return -1;
    int rc = 0;
    for (size_t c = 0; c < t.nclasses && rc == 0; c++)
        for (size_t j = 0; j < t.classes[c].n && j < o->top_pmi && rc == 0; j++) {
            const char *w = vocab_str(ref->tokens.tokens, t.classes[c].entries[j].token);
            if (vocab_intern(ref->tells, w, strlen(w)) < 0)
                rc = -1;
        }
    pmi_free(&t);
    return rc;
}

/* MODEL.ref: "key value" lines in the C locale, beside a saved model. */
static char *sidecar_path(const char *model)
{
    size_t n = strlen(model) + 5;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s.ref", model);
    return p;
}

static int read_sidecar(audit_reference *ref, const char *model, tells_error *err)
{
    char *path = sidecar_path(model);
    if (!path)
        return tells_error_nomem(err, NULL, 0);
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0) {
        free(path);
        return -1;
    }
    char *line;
    size_t len;
    int rc, seen = 0;
    uint64_t examples = 0, cv_n = 0;
    while ((rc = line_reader_next(&r, &line, &len, err)) == 1) {
        if ((rc = text_line_check(line, len, r.name, r.lineno, err)) < 0)
            break;
        char key[64];
        double v;
        char *end;
        char *sp = strchr(line, ' ');
        if (!sp || (size_t)(sp - line) >= sizeof key) {
            rc = tells_error_set(err, r.name, r.lineno, "expected 'key value'");
            break;
        }
        memcpy(key, line, (size_t)(sp - line));
        key[sp - line] = '\0';
        errno = 0;
        v = strtod(sp + 1, &end);
        if (strcmp(key, "tells-audit-reference") == 0)
            continue;
        if (errno || end == sp + 1 || *end || !isfinite(v)) {
            rc = tells_error_set(err, r.name, r.lineno, "malformed number for '%s'", key);
            break;
        }
        /* Counts are integers that fit in a size_t, shares from 0 to 1. */
        if (strcmp(key, "cv_n") == 0 || strcmp(key, "examples") == 0) {
            int nrc = number_u64(sp + 1, NULL, SIZE_MAX, key[0] == 'c' ? &cv_n : &examples);
            if (nrc < 0) {
                rc = nrc == -2 ? tells_error_set(err, r.name, r.lineno, "'%s' %s is larger "
                                                 "than %zu", key, sp + 1, (size_t)SIZE_MAX)
                               : tells_error_set(err, r.name, r.lineno, "'%s' %s is not a "
                                                 "non-negative integer", key, sp + 1);
                break;
            }
        }
        if ((strcmp(key, "cv_accuracy") == 0 || strcmp(key, "cv_gold_prob") == 0) &&
            !(v >= 0.0 && v <= 1.0)) {
            rc = tells_error_set(err, r.name, r.lineno, "'%s' %s is not from 0 to 1", key,
                                 sp + 1);
            break;
        }
        if (strcmp(key, "cv_accuracy") == 0)
            ref->cv_accuracy = v, seen |= 1;
        else if (strcmp(key, "cv_gold_prob") == 0)
            ref->cv_gold_prob = v, seen |= 2;
        else if (strcmp(key, "cv_n") == 0)
            seen |= 4;
        else if (strcmp(key, "examples") == 0)
            seen |= 8;
    }
    if (rc == 0 && seen != 15)
        rc = tells_error_set(err, r.name, 0, "incomplete: needs cv_accuracy, "
                             "cv_gold_prob, cv_n and examples");
    if (rc == 0 && examples != ref->data.n)
        rc = tells_error_set(err, r.name, 0, "made for a reference of %" PRIu64 " examples, "
                             "not %zu", examples, ref->data.n);
    /* The cross-validated predictions are of the reference's examples. */
    if (rc == 0 && (cv_n == 0 || cv_n > examples))
        rc = tells_error_set(err, r.name, 0, "cv_n %" PRIu64 " is not from 1 to the %"
                             PRIu64 " examples", cv_n, examples);
    ref->cv_n = (size_t)cv_n;
    line_reader_close(&r);
    free(path);
    return rc < 0 ? -1 : 0;
}

/* The probability of the gold label of prediction i. fastText's come
   out of exp(log(p + 1e-5)) and may pass 1 by that much: clamped, so that
   no mean or flag shows a probability above 1. */
static double gold_prob(const dataset *d, const predictions *p, size_t i)
{
    size_t gold = d->ex[p->row[i]].label;
    if (!p->prob)
        return (double)(p->pred[i] == gold);
    double v = p->prob[i * p->nlabels + gold];
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

static double mean_gold_prob(const dataset *d, const predictions *p, size_t *correct)
{
    double s = 0;
    *correct = 0;
    for (size_t i = 0; i < p->n; i++) {
        s += gold_prob(d, p, i);
        *correct += p->pred[i] == d->ex[p->row[i]].label;
    }
    return p->n ? s / (double)p->n : 0;
}

static int train_reference(audit_reference *ref, const audit_options *o, tells_error *err)
{
    const dataset *d = &ref->data;
    size_t *rows = malloc((d->n ? d->n : 1) * sizeof *rows);
    if (!rows)
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < d->n; i++)
        rows[i] = i;
    baseline_config bc = {.kind = MODEL_FASTTEXT, .input = INPUT_HYPOTHESIS, .ft = o->ft,
                          .progress = o->progress, .progress_user = o->progress_user};
    predictions cv;
    int rc = baseline_cross_validate(d, rows, d->n, o->folds,
                                     (unsigned long)o->ft.seed, &bc, &cv, err);
    if (rc == 0) {
        size_t correct;
        ref->cv_gold_prob = mean_gold_prob(d, &cv, &correct);
        ref->cv_accuracy = (double)correct / (double)cv.n;
        ref->cv_n = cv.n;
        predictions_free(&cv);
        ref->model = fasttext_train_rows(d, rows, d->n, INPUT_HYPOTHESIS, &o->ft, err);
        if (!ref->model)
            rc = -1;
    }
    free(rows);
    return rc;
}

/* ---- annotator heuristics ---- */

/* holds[i * nheur + h]: whether row rows[i] (row i when rows is NULL)
   satisfies heuristic h. */
static int eval_heuristics(const heuristic_set *hs, const dataset *d, const size_t *rows,
                           size_t n, bool *holds, tells_error *err)
{
    heur_eval ev;
    if (heur_eval_init(&ev, hs, false, err) < 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const example *e = &d->ex[rows ? rows[i] : i];
        rc = heur_eval_pair(&ev, e->premise, strlen(e->premise), e->hypothesis,
                            strlen(e->hypothesis), err);
        if (rc == 0)
            memcpy(holds + i * hs->n, ev.holds, hs->n * sizeof *holds);
    }
    heur_eval_free(&ev);
    return rc;
}

static int reference_heuristics(audit_reference *ref, const heuristic_set *hs,
                                tells_error *err)
{
    size_t L = vocab_size(ref->data.labels);
    bool *holds = malloc(ref->data.n * (hs->n ? hs->n : 1) * sizeof *holds + 1);
    ref->heur = calloc(hs->n * L + 1, sizeof *ref->heur);
    if (!holds || !ref->heur) {
        free(holds);
        return tells_error_nomem(err, NULL, 0);
    }
    int rc = eval_heuristics(hs, &ref->data, NULL, ref->data.n, holds, err);
    for (size_t i = 0; rc == 0 && i < ref->data.n; i++)
        for (size_t k = 0; k < hs->n; k++)
            ref->heur[k * L + ref->data.ex[i].label] += holds[i * hs->n + k];
    free(holds);
    return rc;
}

int audit_reference_load(audit_reference *ref, const char *path,
                         const char *model_path, const audit_options *o,
                         tells_error *err)
{
    memset(ref, 0, sizeof *ref);
    if (dataset_load(&ref->data, path, err) < 0)
        return -1;
    int rc = dataset_require_examples(&ref->data, err);
    /* One class: nothing to predict, and every probability is 1. */
    if (rc == 0 && vocab_size(ref->data.labels) < 2)
        rc = tells_error_set(err, ref->data.source, 0, "the reference has examples of one "
                             "class only ('%s'): nothing to compare predictability with",
                             vocab_str(ref->data.labels, 0));
    else if (rc == 0 && ref->data.n < o->folds)
        rc = tells_error_set(err, ref->data.source, 0, "%zu examples cannot make %zu folds",
                             ref->data.n, o->folds);
    if (rc == 0 && (counts_init(&ref->tokens, FIELD_HYPOTHESIS) < 0 ||
                    count_rows(&ref->tokens, &ref->data, NULL, ref->data.n) < 0 ||
                    top_tokens(ref, o) < 0 || u64map_init(&ref->exact) < 0 ||
                    u64map_init(&ref->near) < 0))
        rc = tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; rc == 0 && i < ref->data.n; i++) {
        uint64_t ex, nr;
        if (hypothesis_keys(ref->data.ex[i].hypothesis, &ex, &nr) < 0 ||
            remember(&ref->exact, ex, i) < 0 || remember(&ref->near, nr, i) < 0)
            rc = tells_error_nomem(err, NULL, 0);
    }
    if (rc == 0 && model_path) {
        ref->model = ft_load(model_path, err);
        if (!ref->model)
            rc = -1;
        else
            rc = read_sidecar(ref, model_path, err);
    } else if (rc == 0)
        rc = train_reference(ref, o, err);
    if (rc == 0 && o->heuristics)
        rc = reference_heuristics(ref, o->heuristics, err);
    if (rc < 0) {
        audit_reference_free(ref);
        return -1;
    }
    return 0;
}

int audit_save_model(const audit_reference *ref, const char *path, tells_error *err)
{
    /* "-" is a file here, as fasttext_save has it. */
    const char *model = strcmp(path, "-") == 0 ? "./-" : path;
    char *side = sidecar_path(path);
    if (!side)
        return tells_error_nomem(err, NULL, 0);
    /* The model and its .ref are one output set: both are written out
       before either replaces its old file, so that a failure of either
       leaves the old pair, never a model with another model's .ref. */
    out_set outs = {0};
    FILE *mfp = out_set_open(&outs, model, err);
    FILE *rfp = mfp ? out_set_open(&outs, side, err) : NULL;
    int rc = rfp ? 0 : -1;
    if (rc == 0 && ft_write(ref->model, mfp, err) < 0) {
        if (err && !err->file[0])
            snprintf(err->file, sizeof err->file, "%s", model);
        rc = -1;
    }
    if (rc == 0) {
        /* %.17g round-trips a double in the C locale. */
        fprintf(rfp, "tells-audit-reference 1\nexamples %zu\ncv_n %zu\n"
                "cv_accuracy %.17g\ncv_gold_prob %.17g\n", ref->data.n, ref->cv_n,
                ref->cv_accuracy, ref->cv_gold_prob);
        rc = out_set_commit(&outs, err);
    } else
        out_set_abort(&outs);
    free(side);
    return rc;
}

void audit_reference_free(audit_reference *ref)
{
    dataset_free(&ref->data);
    counts_free(&ref->tokens);
    ft_free(ref->model);
    vocab_free(ref->tells);
    u64map_free(&ref->exact);
    u64map_free(&ref->near);
    free(ref->heur);
    memset(ref, 0, sizeof *ref);
}

/* ---- one group ---- */

static finding *add_finding(audit_group *g, const char *check)
{
    if (ARRAY_RESERVE(g->f, g->fcap, g->nf + 1) < 0)
        return NULL;
    finding *f = &g->f[g->nf++];
    memset(f, 0, sizeof *f);
    snprintf(f->check, sizeof f->check, "%s", check);
    f->test.df = NAN;
    return f;
}

static void flag(example_flags *e, const char *fmt, const char *arg)
{
    size_t used = strlen(e->flags);
    snprintf(e->flags + used, sizeof e->flags - used, "%s", used ? "," : "");
    used = strlen(e->flags);
    snprintf(e->flags + used, sizeof e->flags - used, fmt, arg);
    e->nflags++;
}

/* Counts of the batch and the reference over the same classes: the
   reference's labels, then any only the batch has. */
typedef struct classes {
    vocab *names;
    double *batch, *ref;
} classes;

static int classes_init(classes *c, const audit_reference *ref, const audit_group *g)
{
    memset(c, 0, sizeof *c);
    c->names = vocab_new();
    for (size_t l = 0; c->names && l < vocab_size(ref->data.labels); l++)
        if (vocab_intern(c->names, vocab_str(ref->data.labels, l),
                         vocab_len(ref->data.labels, l)) < 0)
            return -1;
    for (size_t i = 0; c->names && i < g->n; i++) {
        size_t l = g->data->ex[g->rows[i]].label;
        if (vocab_intern(c->names, vocab_str(g->data->labels, l),
                         vocab_len(g->data->labels, l)) < 0)
            return -1;
    }
    if (!c->names)
        return -1;
    size_t n = vocab_size(c->names);
    c->batch = calloc(n, sizeof *c->batch);
    c->ref = calloc(n, sizeof *c->ref);
    return c->batch && c->ref ? 0 : -1;
}

static void classes_free(classes *c)
{
    vocab_free(c->names);
    free(c->batch);
    free(c->ref);
}

static void check_balance(audit_group *g, const audit_reference *ref, classes *c,
                          finding *f)
{
    size_t n = vocab_size(c->names);
    memset(c->batch, 0, n * sizeof *c->batch);
    memset(c->ref, 0, n * sizeof *c->ref);
    for (size_t i = 0; i < g->n; i++) {
        size_t l = g->data->ex[g->rows[i]].label;
        c->batch[vocab_find(c->names, vocab_str(g->data->labels, l),
                            vocab_len(g->data->labels, l))]++;
    }
    for (size_t i = 0; i < ref->data.n; i++)
        c->ref[ref->data.ex[i].label]++;  /* reference labels come first */
    /* The largest difference in share, as the compared value. */
    double worst = 0;
    size_t at = 0;
    for (size_t k = 0; k < n; k++) {
        double d = fabs(c->batch[k] / (double)g->n - c->ref[k] / (double)ref->data.n);
        if (d > worst) {
            worst = d;
            at = k;
        }
    }
    f->batch = c->batch[at] / (double)g->n;
    f->reference = c->ref[at] / (double)ref->data.n;
    f->tested = true;
    chisq_homogeneity(c->batch, c->ref, n, &f->test);
    snprintf(f->detail, sizeof f->detail, "test=chi2-homogeneity class=%s",
             vocab_str(c->names, at));
}

static size_t count_words(const char *s)
{
    size_t n = 0;
    for (size_t i = 0; s[i]; i++)
        n += s[i] != ' ' && (i == 0 || s[i - 1] == ' ');
    return n;
}

/* Hypothesis length by class: Welch's t-test, batch against reference. */
static int check_length(audit_group *g, const audit_reference *ref, tells_error *err)
{
    size_t L = vocab_size(ref->data.labels);
    double *x = malloc((g->n ? g->n : 1) * sizeof *x);
    double *y = malloc((ref->data.n ? ref->data.n : 1) * sizeof *y);
    int rc = x && y ? 0 : tells_error_nomem(err, NULL, 0);
    for (size_t l = 0; rc == 0 && l < L; l++) {
        const char *name = vocab_str(ref->data.labels, l);
        size_t nx = 0, ny = 0;
        for (size_t i = 0; i < g->n; i++) {
            const example *e = &g->data->ex[g->rows[i]];
            if (strcmp(vocab_str(g->data->labels, e->label), name) == 0)
                x[nx++] = (double)count_words(e->hypothesis);
        }
        for (size_t i = 0; i < ref->data.n; i++)
            if (ref->data.ex[i].label == l)
                y[ny++] = (double)count_words(ref->data.ex[i].hypothesis);
        char check[160];
        snprintf(check, sizeof check, "length:%s", name);
        test_result t;
        double mx, my;
        if (welch_test(x, nx, y, ny, ALT_TWO_SIDED, &t, &mx, &my, NULL) < 0)
            continue;  /* too few examples, or no variance: nothing to test */
        finding *f = add_finding(g, check);
        if (!f) {
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        f->batch = mx;
        f->reference = my;
        f->tested = true;
        f->test = t;
        snprintf(f->detail, sizeof f->detail, "test=welch-t alternative=two-sided "
                 "n_batch=%zu n_reference=%zu", nx, ny);
    }
    free(x);
    free(y);
    return rc;
}

static bool has_word(const char *text, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = text; (p = strstr(p, w)); p++)
        if ((p == text || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

static bool has_tell(const vocab *tells, const char *text)
{
    for (const char *p = text; *p;) {
        const char *e = strchr(p, ' ');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (vocab_find(tells, p, len) >= 0)
            return true;
        p += len + (e != NULL);
    }
    return false;
}

static int check_tell_share(audit_group *g, const audit_reference *ref, tells_error *err)
{
    size_t in_batch = 0, in_ref = 0;
    for (size_t i = 0; i < g->n; i++)
        in_batch += has_tell(ref->tells, g->data->ex[g->rows[i]].hypothesis);
    for (size_t i = 0; i < ref->data.n; i++)
        in_ref += has_tell(ref->tells, ref->data.ex[i].hypothesis);
    finding *f = add_finding(g, "tell_share");
    if (!f)
        return tells_error_nomem(err, NULL, 0);
    f->batch = (double)in_batch / (double)g->n;
    f->reference = (double)in_ref / (double)ref->data.n;
    f->tested = true;
    proportion_greater((double)in_batch, (double)g->n, (double)in_ref,
                       (double)ref->data.n, &f->test);
    snprintf(f->detail, sizeof f->detail, "test=two-proportion-z alternative=greater "
             "tokens=%zu", vocab_size(ref->tells));
    return 0;
}

/* Tokens: is the class distribution of the batch's examples with the
   token different from the reference's? The reference row gets `pseudo`
   examples spread as its label prior, so a token the reference never
   had is compared with the prior. */
static int check_tokens(audit_group *g, const audit_reference *ref, classes *c,
                        const audit_options *o, tells_error *err)
{
    token_counts bt;
    if (counts_init(&bt, FIELD_HYPOTHESIS) < 0)
        return tells_error_nomem(err, NULL, 0);
    if (count_rows(&bt, g->data, g->rows, g->n) < 0) {
        counts_free(&bt);
        return tells_error_nomem(err, NULL, 0);
    }
    size_t n = vocab_size(c->names), nref = ref->data.n;
    double *prior = calloc(n, sizeof *prior);
    long *bclass = malloc((vocab_size(bt.classes) + 1) * sizeof *bclass);
    int rc = prior && bclass ? 0 : -1;
    for (size_t l = 0; rc == 0 && l < vocab_size(ref->data.labels); l++)
        prior[l] = ref->tokens.examples[l] / (double)nref;
    for (size_t k = 0; rc == 0 && k < vocab_size(bt.classes); k++)
        bclass[k] = vocab_find(c->names, vocab_str(bt.classes, k), vocab_len(bt.classes, k));
    size_t *order = rc == 0 ? vocab_sorted_ids(bt.tokens) : NULL;
    counts_cell *cells = NULL;
    size_t *first = NULL;
    if (!order || counts_cells(&bt, true, NULL, NULL, &cells, &first) < 0)
        rc = -1;
    for (size_t j = 0; rc == 0 && j < vocab_size(bt.tokens); j++) {
        size_t t = order[j];
        const char *w = vocab_str(bt.tokens, t);
        uint64_t total = 0;
        memset(c->batch, 0, n * sizeof *c->batch);
        for (size_t i = first[t]; i < first[t + 1]; i++) {
            c->batch[bclass[cells[i].cls]] += (double)cells[i].docs;
            total += cells[i].docs;
        }
        if (total < o->min_count)
            continue;
        long rt = vocab_find(ref->tokens.tokens, w, strlen(w));
        for (size_t k = 0; k < n; k++)
            c->ref[k] = o->pseudo * prior[k];
        /* The reference's count classes were interned in the same row
           order as its dataset labels, so their ids agree with c->names. */
        for (size_t k = 0; rt >= 0 && k < vocab_size(ref->tokens.classes); k++) {
            uint64_t count, docs;
            counts_get(&ref->tokens, k, (size_t)rt, &count, &docs);
            c->ref[k] += (double)docs;
        }
        size_t top = 0;
        double sum_b = 0, sum_r = 0;
        for (size_t k = 0; k < n; k++) {
            sum_b += c->batch[k];
            sum_r += c->ref[k];
            if (c->batch[k] > c->batch[top])
                top = k;
        }
        char check[160];
        snprintf(check, sizeof check, "token:%s", w);
        finding *f = add_finding(g, check);
        if (!f) {
            rc = -1;
            break;
        }
        f->batch = c->batch[top] / sum_b;
        f->reference = c->ref[top] / sum_r;
        f->tested = true;
        chisq_homogeneity(c->batch, c->ref, n, &f->test);
        snprintf(f->detail, sizeof f->detail, "test=chi2-homogeneity class=%s "
                 "batch_examples=%.0f reference_examples=%.0f%s",
                 vocab_str(c->names, top), sum_b,
                 rt >= 0 ? sum_r - o->pseudo : 0.0, rt >= 0 ? "" : " new=1");
    }
    free(order);
    free(cells);
    free(first);
    free(prior);
    free(bclass);
    counts_free(&bt);
    return rc < 0 ? tells_error_nomem(err, NULL, 0) : 0;
}

/* Each heuristic: how many pairs satisfy it, of which class, in the batch
   against the reference: chi-squared homogeneity of the 2 x (classes + 1)
   table of satisfying pairs by class and pairs that do not satisfy it. A
   difference counts when the batch uses the heuristic more, or more for
   the class it favours. holds gets the batch's rows (n x heuristics). */
static int check_heuristics(audit_group *g, const audit_reference *ref, classes *c,
                            const heuristic_set *hs, bool *holds, tells_error *err)
{
    if (eval_heuristics(hs, g->data, g->rows, g->n, holds, err) < 0)
        return -1;
    size_t n = vocab_size(c->names), L = vocab_size(ref->data.labels);
    double *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b);
    int rc = a && b ? 0 : tells_error_nomem(err, NULL, 0);
    for (size_t k = 0; rc == 0 && k < hs->n; k++) {
        memset(a, 0, (n + 1) * sizeof *a);
        memset(b, 0, (n + 1) * sizeof *b);
        double sa = 0, sb = 0;
        for (size_t i = 0; i < g->n; i++) {
            if (!holds[i * hs->n + k])
                continue;
            size_t l = g->data->ex[g->rows[i]].label;
            a[vocab_find(c->names, vocab_str(g->data->labels, l),
                         vocab_len(g->data->labels, l))]++;
            sa++;
        }
        for (size_t l = 0; l < L; l++) {   /* reference labels come first */
            b[l] = ref->heur[k * L + l];
            sb += b[l];
        }
        a[n] = (double)g->n - sa;
        b[n] = (double)ref->data.n - sb;
        char check[160];
        snprintf(check, sizeof check, "heuristic:%s", hs->v[k].name);
        finding *f = add_finding(g, check);
        if (!f) {
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        f->batch = sa / (double)g->n;
        f->reference = sb / (double)ref->data.n;
        size_t top = 0;
        for (size_t l = 1; l < n; l++)
            if (a[l] > a[top] || (a[l] == a[top] && sa == 0 && b[l] > b[top]))
                top = l;
        double share_a = sa > 0 ? a[top] / sa : 0, share_b = sb > 0 ? b[top] / sb : 0;
        f->weaker = !(f->batch > f->reference || share_a > share_b);
        if (sa + sb > 0) {
            f->tested = true;
            chisq_homogeneity(a, b, n + 1, &f->test);
        }
        snprintf(f->detail, sizeof f->detail, "test=chi2-homogeneity (satisfying pairs by "
                 "class, and the others) class=%s batch_share=%.6f reference_share=%.6f "
                 "batch_pairs=%.0f reference_pairs=%.0f", vocab_str(c->names, top), share_a,
                 share_b, sa, sb);
    }
    free(a);
    free(b);
    return rc;
}

static int check_predictability(audit_group *g, const audit_reference *ref,
                                predictions *p, tells_error *err)
{
    if (fasttext_predict_rows(ref->model, g->data, g->rows, g->n, INPUT_HYPOTHESIS, p,
                              err) < 0)
        return -1;
    size_t correct;
    double gold = mean_gold_prob(g->data, p, &correct);
    finding *f = add_finding(g, "predictability");
    finding *f2 = f ? add_finding(g, "mean_gold_prob") : NULL;
    if (!f2)
        return tells_error_nomem(err, NULL, 0);
    f = &g->f[g->nf - 2];
    f->batch = (double)correct / (double)g->n;
    f->reference = ref->cv_accuracy;
    f->tested = true;
    proportion_greater((double)correct, (double)g->n, ref->cv_accuracy * (double)ref->cv_n,
                       (double)ref->cv_n, &f->test);
    snprintf(f->detail, sizeof f->detail, "test=two-proportion-z alternative=greater "
             "model=fasttext-hypothesis reference=cross-validated");
    f2->batch = gold;
    f2->reference = ref->cv_gold_prob;
    snprintf(f2->detail, sizeof f2->detail, "no test");
    return 0;
}

/* Cross-validated accuracy of a hypothesis-only model within rows. */
static int cv_accuracy(const dataset *d, const size_t *rows, size_t n,
                       const audit_options *o, size_t *correct, tells_error *err)
{
    baseline_config bc = {.kind = MODEL_FASTTEXT, .input = INPUT_HYPOTHESIS, .ft = o->ft};
    /* Five epochs, fastText's default, leave a model of a thousand
       examples undertrained: a new shortcut in a batch would not be
       learnt. */
    if (bc.ft.epoch == 0)
        bc.ft.epoch = 25;
    predictions p;
    if (baseline_cross_validate(d, rows, n, o->folds, (unsigned long)o->ft.seed, &bc,
                                &p, err) < 0)
        return -1;
    mean_gold_prob(d, &p, correct);
    predictions_free(&p);
    return 0;
}

/* Shortcuts the reference does not have (a new token) cannot raise the
   reference model's accuracy. So the batch is also cross-validated on
   its own, against random samples of the reference of the same size (a
   model's accuracy depends on how much it is trained on). A sample is a
   run of consecutive reference rows, not rows drawn at random: a batch
   is a run of annotation work, whose pairs share premises, and random
   rows would break those groups up and make the reference look less
   predictable than any batch. Several runs, so that one unlucky run
   does not make every batch look predictable. */
enum { REFERENCE_SAMPLES = 3 };

static int check_self_predictability(audit_group *g, const audit_reference *ref,
                                     const audit_options *o, tells_error *err)
{
    if (g->n < 2 * o->folds || g->n > ref->data.n)
        return 0;  /* too small to cross-validate, or no sample of that size */
    size_t *sample = malloc(g->n * sizeof *sample);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    int rc = sample && rng ? 0 : tells_error_nomem(err, NULL, 0);
    size_t batch_correct = 0, ref_correct = 0;
    if (rc == 0) {
        gsl_rng_set(rng, (unsigned long)o->ft.seed);
        rc = cv_accuracy(g->data, g->rows, g->n, o, &batch_correct, err);
    }
    for (int k = 0; rc == 0 && k < REFERENCE_SAMPLES; k++) {
        size_t correct = 0;
        size_t start = gsl_rng_uniform_int(rng, ref->data.n - g->n + 1);
        for (size_t i = 0; i < g->n; i++)
            sample[i] = start + i;
        rc = cv_accuracy(&ref->data, sample, g->n, o, &correct, err);
        ref_correct += correct;
    }
    finding *f = rc == 0 ? add_finding(g, "self_predictability") : NULL;
    if (rc == 0 && !f)
        rc = tells_error_nomem(err, NULL, 0);
    if (rc == 0) {
        f->batch = (double)batch_correct / (double)g->n;
        double ref_n = (double)g->n * REFERENCE_SAMPLES;
        f->reference = (double)ref_correct / ref_n;
        f->tested = true;
        proportion_greater((double)batch_correct, (double)g->n, (double)ref_correct,
                           ref_n, &f->test);
        snprintf(f->detail, sizeof f->detail, "test=two-proportion-z alternative=greater "
                 "model=fasttext-hypothesis %zu-fold-cv reference=%d-runs-of-%zu",
                 o->folds, REFERENCE_SAMPLES, g->n);
    }
    free(sample);
    if (rng)
        gsl_rng_free(rng);
    return rc;
}

static int check_duplicates(audit_group *g, const audit_reference *ref, tells_error *err)
{
    u64map seen_exact = {0}, seen_near = {0};
    int rc = u64map_init(&seen_exact) < 0 || u64map_init(&seen_near) < 0 ? -1 : 0;
    size_t exact = 0, near = 0;
    char id[300];
    for (size_t i = 0; rc == 0 && i < g->n; i++) {
        const example *e = &g->data->ex[g->rows[i]];
        uint64_t ke, kn, v;
        if (hypothesis_keys(e->hypothesis, &ke, &kn) < 0) {
            rc = -1;
            break;
        }
        if (u64map_get(&ref->exact, ke, &v)) {
            snprintf(id, sizeof id, "%s", ref->data.ex[v - 1].id);
            flag(&g->ex[i], "duplicate:%s", id);
            exact++;
        } else if (u64map_get(&ref->near, kn, &v)) {
            snprintf(id, sizeof id, "%s", ref->data.ex[v - 1].id);
            flag(&g->ex[i], "near-duplicate:%s", id);
            near++;
        } else if (u64map_get(&seen_exact, ke, &v)) {
            flag(&g->ex[i], "duplicate:%s", g->data->ex[g->rows[v - 1]].id);
            exact++;
        } else if (u64map_get(&seen_near, kn, &v)) {
            flag(&g->ex[i], "near-duplicate:%s", g->data->ex[g->rows[v - 1]].id);
            near++;
        }
        if (remember(&seen_exact, ke, i) < 0 || remember(&seen_near, kn, i) < 0)
            rc = -1;
    }
    u64map_free(&seen_exact);
    u64map_free(&seen_near);
    finding *f = rc == 0 ? add_finding(g, "duplicates") : NULL;
    finding *f2 = f ? add_finding(g, "near_duplicates") : NULL;
    if (!f2)
        return tells_error_nomem(err, NULL, 0);
    f = &g->f[g->nf - 2];
    f->batch = (double)exact / (double)g->n;
    snprintf(f->detail, sizeof f->detail, "no test; examples=%zu (same prepared "
             "hypothesis as the reference or an earlier batch example)", exact);
    f2->batch = (double)near / (double)g->n;
    snprintf(f2->detail, sizeof f2->detail, "no test; examples=%zu (same words but "
             "stopwords, in any order)", near);
    return 0;
}

static int cmp_flags(const void *a, const void *b)
{
    const example_flags *x = a, *y = b;
    if (x->nflags != y->nflags)
        return x->nflags > y->nflags ? -1 : 1;
    if (x->p_gold != y->p_gold)
        return x->p_gold > y->p_gold ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

/* Benjamini-Hochberg over the group's tests; a token counts only when
   the batch concentrates it on a class more than the reference does. */
static int adjust(audit_group *g, const audit_options *o, tells_error *err)
{
    size_t m = 0;
    for (size_t i = 0; i < g->nf; i++)
        m += g->f[i].tested;
    if (m == 0)
        return 0;
    pvalue *p = malloc(m * sizeof *p), *q = malloc(m * sizeof *q);
    bool *reject = malloc(m * sizeof *reject);
    int rc = p && q && reject ? 0 : -1;
    for (size_t i = 0, k = 0; rc == 0 && i < g->nf; i++)
        if (g->f[i].tested)
            p[k++] = g->f[i].test.p;
    if (rc == 0)
        rc = bh_adjust(p, m, o->alpha, q, reject, err);
    for (size_t i = 0, k = 0; rc == 0 && i < g->nf; i++) {
        finding *f = &g->f[i];
        if (!f->tested)
            continue;
        f->q = q[k];
        f->significant = reject[k];
        if (strncmp(f->check, "token:", 6) == 0)
            f->significant = f->significant && f->batch > f->reference;
        if (f->weaker)
            f->significant = false;
        k++;
    }
    free(p);
    free(q);
    free(reject);
    return rc < 0 ? tells_error_nomem(err, NULL, 0) : 0;
}

int audit_group_run(audit_group *g, const audit_reference *ref,
                    const audit_options *o, tells_error *err)
{
    g->ex = calloc(g->n ? g->n : 1, sizeof *g->ex);
    if (!g->ex)
        return tells_error_nomem(err, NULL, 0);
    predictions p = {0};
    classes c;
    bool *holds = NULL;   /* batch rows x heuristics */
    int rc = check_predictability(g, ref, &p, err);
    if (rc == 0)
        rc = check_self_predictability(g, ref, o, err);
    if (rc == 0 && classes_init(&c, ref, g) < 0) {
        classes_free(&c);
        rc = tells_error_nomem(err, NULL, 0);
    } else if (rc == 0) {
        finding *f = add_finding(g, "label_balance");
        if (!f)
            rc = tells_error_nomem(err, NULL, 0);
        else
            check_balance(g, ref, &c, f);
        if (rc == 0)
            rc = check_length(g, ref, err);
        if (rc == 0)
            rc = check_tell_share(g, ref, err);
        if (rc == 0)
            rc = check_tokens(g, ref, &c, o, err);
        if (rc == 0)
            rc = check_duplicates(g, ref, err);
        if (rc == 0 && o->heuristics) {
            size_t nh = o->heuristics->n;
            if (!(holds = malloc(g->n * (nh ? nh : 1) * sizeof *holds + 1)))
                rc = tells_error_nomem(err, NULL, 0);
            else
                rc = check_heuristics(g, ref, &c, o->heuristics, holds, err);
        }
        if (rc == 0)
            rc = adjust(g, o, err);
        classes_free(&c);
    }
    for (size_t i = 0; rc == 0 && i < g->n; i++) {
        example_flags *e = &g->ex[i];
        const example *x = &g->data->ex[g->rows[i]];
        e->row = g->rows[i];
        e->p_gold = gold_prob(g->data, &p, i);
        if (p.pred[i] == x->label && e->p_gold >= o->predictable)
            flag(e, "%s", "predictable");
        for (size_t k = 0; k < g->nf; k++)
            if (g->f[k].significant && strncmp(g->f[k].check, "token:", 6) == 0 &&
                has_word(x->hypothesis, g->f[k].check + 6))
                flag(e, "%s", g->f[k].check);
        for (size_t h = 0; holds && h < o->heuristics->n; h++) {
            char check[160];
            snprintf(check, sizeof check, "heuristic:%s", o->heuristics->v[h].name);
            for (size_t k = 0; holds[i * o->heuristics->n + h] && k < g->nf; k++)
                if (g->f[k].significant && strcmp(g->f[k].check, check) == 0)
                    flag(e, "%s", check);
        }
    }
    if (rc == 0)
        qsort(g->ex, g->n, sizeof *g->ex, cmp_flags);
    predictions_free(&p);
    free(holds);
    return rc;
}

void audit_group_free(audit_group *g)
{
    free(g->rows);
    free(g->f);
    free(g->ex);
    memset(g, 0, sizeof *g);
}

/* ---- a whole audit ---- */

static int add_group(audit_report *rep, const dataset *d, const char *name, size_t *rows,
                     size_t n)
{
    if (ARRAY_RESERVE(rep->groups, rep->group_cap, rep->ngroups + 1) < 0)
        return -1;
    audit_group *g = &rep->groups[rep->ngroups++];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->data = d;
    g->rows = rows;
    g->n = n;
    return 0;
}

/* One group for the batch d, or one per value of column col (-1: none),
   in byte order. */
static int make_groups(audit_report *rep, const dataset *d, long col, bool name_by_file,
                       tells_error *err)
{
    vocab *values = vocab_new();
    size_t *of = array_new(d->n, sizeof *of);
    int rc = values && of ? 0 : tells_error_nomem(err, NULL, 0);
    char buf[256];
    for (size_t i = 0; rc == 0 && i < d->n; i++) {
        const char *v = col >= 0 ? example_column(&d->ex[i], col, buf, sizeof buf) : "";
        long k = vocab_intern(values, v, strlen(v));
        if (k < 0)
            rc = tells_error_nomem(err, NULL, 0);
        of[i] = (size_t)k;
    }
    size_t *order = rc == 0 ? vocab_sorted_ids(values) : NULL;
    if (rc == 0 && !order)
        rc = tells_error_nomem(err, NULL, 0);
    for (size_t j = 0; rc == 0 && j < vocab_size(values); j++) {
        size_t k = order[j], n = 0;
        size_t *rows = array_new(d->n, sizeof *rows);
        if (!rows) {
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        for (size_t i = 0; i < d->n; i++)
            if (of[i] == k)
                rows[n++] = i;
        char name[256];
        if (col < 0)
            snprintf(name, sizeof name, "%s", d->source);
        else if (name_by_file)
            snprintf(name, sizeof name, "%s:%s", d->source, vocab_str(values, k));
        else
            snprintf(name, sizeof name, "%s", vocab_str(values, k));
        if (add_group(rep, d, name, rows, n) < 0) {
            free(rows);
            rc = tells_error_nomem(err, NULL, 0);
        }
    }
    free(order);
    free(of);
    vocab_free(values);
    return rc;
}

int audit_report_add_batch(audit_report *rep, const char *path, const char *group_column,
                           bool name_by_file, tells_error *err)
{
    if (ARRAY_RESERVE(rep->batches, rep->batch_cap, rep->nbatches + 1) < 0)
        return tells_error_nomem(err, NULL, 0);
    /* Each batch in a block of its own: the groups point into it. */
    dataset *d = malloc(sizeof *d);
    if (!d)
        return tells_error_nomem(err, NULL, 0);
    if (dataset_load(d, path, err) < 0) {
        free(d);
        return -1;
    }
    rep->batches[rep->nbatches++] = d;
    if (dataset_require_examples(d, err) < 0)
        return -1;
    long col = group_column ? dataset_column(d, group_column) : -1;
    if (group_column && col < 0)
        return tells_error_set(err, d->source, 1, "no column named '%s'", group_column);
    return make_groups(rep, d, col, name_by_file, err);
}

int audit_report_run(audit_report *rep, const audit_reference *ref,
                     const audit_options *o, tells_error *err)
{
    for (size_t i = 0; i < rep->ngroups; i++) {
        audit_group *g = &rep->groups[i];
        if (o->progress) {
            char msg[320];
            snprintf(msg, sizeof msg, "auditing %s (%zu examples)", g->name, g->n);
            o->progress(msg, o->progress_user);
        }
        if (audit_group_run(g, ref, o, err) < 0)
            return -1;
    }
    return 0;
}

void audit_report_free(audit_report *rep)
{
    for (size_t i = 0; i < rep->ngroups; i++)
        audit_group_free(&rep->groups[i]);
    free(rep->groups);
    for (size_t i = 0; i < rep->nbatches; i++) {
        dataset_free(rep->batches[i]);
        free(rep->batches[i]);
    }
    free(rep->batches);
    memset(rep, 0, sizeof *rep);
}

static void write_summary(FILE *fp, const audit_group *g)
{
    for (size_t i = 0; i < g->nf; i++) {
        const finding *f = &g->f[i];
        /* Tokens are many: only those that matter are listed. */
        if (strncmp(f->check, "token:", 6) == 0 && !f->significant)
            continue;
        fprintf(fp, "%s\t%s\t%.6f\t", g->name, f->check, f->batch);
        if (strcmp(f->check, "duplicates") == 0 || strcmp(f->check, "near_duplicates") == 0)
            fputs("-", fp);
        else
            fprintf(fp, "%.6f", f->reference);
        if (f->tested) {
            char p[64], q[64];
            pvalue_format(f->test.p, 2, p, sizeof p);
            pvalue_format(f->q, 2, q, sizeof q);
            fprintf(fp, "\t%.6f\t", f->test.statistic);
            if (isnan(f->test.df))
                fputs("-", fp);
            else
                fprintf(fp, "%g", f->test.df);
            fprintf(fp, "\t%s\t%s\t%s", p, q, f->significant ? "yes" : "no");
        } else
            fputs("\t-\t-\t-\t-\t-", fp);
        fprintf(fp, "\t%s\n", f->detail);
    }
}

int audit_summary_write(FILE *fp, void *report, tells_error *err)
{
    const audit_report *rep = report;
    fputs("group\tcheck\tbatch\treference\tstatistic\tdf\tp_value\tq_value\t"
          "significant\tdetail\n", fp);
    for (size_t i = 0; i < rep->ngroups; i++)
        write_summary(fp, &rep->groups[i]);
    return out_status(fp, err);
}

static void write_flags(FILE *fp, const audit_group *g)
{
    for (size_t i = 0; i < g->n; i++) {
        const example_flags *e = &g->ex[i];
        const example *x = &g->data->ex[e->row];
        fprintf(fp, "%s\t%s\t%s\t%.6f\t%s\n", g->name, x->id,
                vocab_str(g->data->labels, x->label), e->p_gold,
                e->nflags ? e->flags : "-");
    }
}

int audit_flags_write(FILE *fp, void *report, tells_error *err)
{
    const audit_report *rep = report;
    fputs("group\tid\tgold\tp_gold\tflags\n", fp);
    for (size_t i = 0; i < rep->ngroups; i++)
        write_flags(fp, &rep->groups[i]);
    return out_status(fp, err);
}

/* ---- gates ---- */

static const char *const gate_names[AUDIT_NGATES] = {
    "any", "predictability", "tokens", "tell-share", "balance", "length", "duplicates",
    "heuristics"
};

const char *audit_gate_name(audit_gate g)
{
    return gate_names[g];
}

int audit_gate_find(const char *name)
{
    for (int g = 0; g < AUDIT_NGATES; g++)
        if (strcmp(name, gate_names[g]) == 0)
            return g;
    return -1;
}

/* The gate a finding belongs to, by its check's name; AUDIT_GATE_ANY for
   none but "any". */
static audit_gate gate_of(const finding *f)
{
    static const struct { const char *prefix; audit_gate gate; } map[] = {
        {"predictability", AUDIT_GATE_PREDICTABILITY},
        {"self_predictability", AUDIT_GATE_PREDICTABILITY},
        {"token:", AUDIT_GATE_TOKENS}, {"tell_share", AUDIT_GATE_TELL_SHARE},
        {"label_balance", AUDIT_GATE_BALANCE}, {"length:", AUDIT_GATE_LENGTH},
        {"duplicates", AUDIT_GATE_DUPLICATES}, {"near_duplicates", AUDIT_GATE_DUPLICATES},
        {"heuristic:", AUDIT_GATE_HEURISTICS},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strncmp(f->check, map[i].prefix, strlen(map[i].prefix)) == 0)
            return map[i].gate;
    return AUDIT_GATE_ANY;
}

bool audit_gate_fails(const finding *f, unsigned gates)
{
    audit_gate g = gate_of(f);
    /* Duplicates have no test: any is too many. */
    bool hit = g == AUDIT_GATE_DUPLICATES ? f->batch > 0 : f->significant;
    return hit && (gates & 1u << AUDIT_GATE_ANY ||
                   (g != AUDIT_GATE_ANY && gates & 1u << g));
}
