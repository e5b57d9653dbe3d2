/* The reference of an audit (audit-impl.h): its hypotheses as hashes for
   duplicates, its token counts and top-PMI tokens, its model (trained and
   cross-validated, or loaded with its MODEL.ref) and its heuristic counts;
   loading, saving and freeing it. */
#include <config.h>
#include "analysis/audit-impl.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fields.h"
#include "base/lineio.h"
#include "base/number.h"
#include "base/outfile.h"
#include "analysis/pairs.h"
#include "stats/pmi.h"

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

/* See audit-impl.h. */
int au_hypothesis_keys(const char *text, uint64_t *exact, uint64_t *near)
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

/* See audit-impl.h. */
int au_remember(u64map *m, uint64_t key, size_t row)
{
    uint64_t v;
    if (u64map_get(m, key, &v))
        return 0;
    return u64map_put(m, key, (uint64_t)row + 1);
}

/* ---- the reference ---- */

/* See audit-impl.h. */
int au_count_rows(token_counts *tc, const dataset *d, const size_t *rows, size_t n)
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
    uint64_t examples = 0, cv_n = 0, model_n = 0;
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
        if (strcmp(key, "cv_n") == 0 || strcmp(key, "examples") == 0 ||
            strcmp(key, "model_n") == 0) {
            int nrc = number_u64(sp + 1, NULL, SIZE_MAX,
                                 key[0] == 'c' ? &cv_n : key[0] == 'm' ? &model_n : &examples);
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
    /* Optional (files of tells before 2026-11-28 lack it): 0, unknown. */
    ref->model_n = model_n <= examples ? (size_t)model_n : 0;
    line_reader_close(&r);
    free(path);
    return rc < 0 ? -1 : 0;
}

/* See audit-impl.h. */
double au_gold_prob(const dataset *d, const predictions *p, size_t i)
{
    size_t gold = d->ex[p->row[i]].label;
    if (!p->prob)
        return (double)(p->pred[i] == gold);
    double v = p->prob[i * p->nlabels + gold];
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* See audit-impl.h. */
double au_mean_gold_prob(const dataset *d, const predictions *p, size_t *correct)
{
    double s = 0;
    *correct = 0;
    for (size_t i = 0; i < p->n; i++) {
        s += au_gold_prob(d, p, i);
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
    cv_plan plan = {o->folds, (unsigned long)o->ft.seed, o->group};
    int rc = baseline_cross_validate(d, rows, d->n, &plan, &bc, &cv, err);
    if (rc == 0) {
        size_t correct;
        ref->cv_gold_prob = au_mean_gold_prob(d, &cv, &correct);
        ref->cv_accuracy = (double)correct / (double)cv.n;
        ref->cv_n = cv.n;
        /* The model of the batch: trained on the rows of every fold but
           the first (as the first fold's model was), not on all of them,
           which would give the batch's side 1/(K - 1) more training. */
        size_t m = 0;
        for (size_t i = 0; i < cv.n; i++)
            if (cv.fold[i] != 0)
                rows[m++] = cv.row[i];
        predictions_free(&cv);
        ref->model_n = m;
        ref->model = fasttext_train_rows(d, rows, m, INPUT_HYPOTHESIS, &o->ft, err);
        if (!ref->model)
            rc = -1;
    }
    free(rows);
    return rc;
}

/* ---- annotator heuristics ---- */

/* See audit-impl.h. */
int au_eval_heuristics(const heuristic_set *hs, const dataset *d, const size_t *rows,
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
    int rc = au_eval_heuristics(hs, &ref->data, NULL, ref->data.n, holds, err);
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
    /* The rows by id: the models, folds and first-met orders the same
       for any order of the file's rows. */
    if (dataset_load(&ref->data, path, err) < 0)
        return -1;
    int rc = dataset_sort_by_id(&ref->data, NULL, err);
    if (rc == 0)
        rc = dataset_require_examples(&ref->data, err);
    /* One class: nothing to predict, and every probability is 1. */
    if (rc == 0 && vocab_size(ref->data.labels) < 2)
        rc = tells_error_set(err, ref->data.source, 0, "the reference has examples of one "
                             "class only ('%s'): nothing to compare predictability with",
                             vocab_str(ref->data.labels, 0));
    else if (rc == 0 && ref->data.n < o->folds)
        rc = tells_error_set(err, ref->data.source, 0, "%zu examples cannot make %zu folds",
                             ref->data.n, o->folds);
    if (rc == 0 && (counts_init(&ref->tokens, FIELD_HYPOTHESIS) < 0 ||
                    au_count_rows(&ref->tokens, &ref->data, NULL, ref->data.n) < 0 ||
                    top_tokens(ref, o) < 0 || u64map_init(&ref->exact) < 0 ||
                    u64map_init(&ref->near) < 0))
        rc = tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; rc == 0 && i < ref->data.n; i++) {
        uint64_t ex, nr;
        if (au_hypothesis_keys(ref->data.ex[i].hypothesis, &ex, &nr) < 0 ||
            au_remember(&ref->exact, ex, i) < 0 || au_remember(&ref->near, nr, i) < 0)
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
    if (rc == 0 && o->pairs && !(ref->pair_x = pairs_compute(&ref->data, o->pairs, err)))
        rc = -1;
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
                "cv_accuracy %.17g\ncv_gold_prob %.17g\nmodel_n %zu\n", ref->data.n, ref->cv_n,
                ref->cv_accuracy, ref->cv_gold_prob, ref->model_n);
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
    free(ref->pair_x);
    memset(ref, 0, sizeof *ref);
}
