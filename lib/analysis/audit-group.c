/* One group of an audit (audit-impl.h): its checks against the reference,
   their findings and Benjamini-Hochberg family, and its examples' flags. */
#include <config.h>
#include "text/redact.h"
#include "analysis/audit-impl.h"
#include "analysis/pairs.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "stats/chisq.h"

/* ---- one group ---- */

static finding *add_finding(audit_group *g, const char *check)
{
    if (ARRAY_RESERVE(g->f, g->fcap, g->nf + 1) < 0)
        return NULL;
    finding *f = &g->f[g->nf++];
    memset(f, 0, sizeof *f);
    snprintf(f->check, sizeof f->check, "%s", check);
    snprintf(f->shown, sizeof f->shown, "%s", check);
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
    snprintf(f->says, sizeof f->says, "%.3f of the batch's %zu rows are %s, against %.3f of "
             "the corpus's %zu (the class whose share differs most)", f->batch, g->n,
             vocab_str(c->names, at), f->reference, ref->data.n);
}

static size_t count_words(const char *s)
{
    size_t n = 0;
    for (size_t i = 0; s[i]; i++)
        n += s[i] != ' ' && (i == 0 || s[i - 1] == ' ');
    return n;
}

/* A finding named check of Welch's two-sided t-test of x (the batch)
   against y (the reference): 1 and *out set, 0 when there is nothing to
   test (too few values, no variance), -1 when out of memory. */
static int welch_finding(audit_group *g, const char *check, const double *x, size_t nx,
                         const double *y, size_t ny, finding **out, tells_error *err)
{
    test_result t;
    double mx, my;
    if (welch_test(x, nx, y, ny, ALT_TWO_SIDED, &t, &mx, &my, NULL) < 0)
        return 0;
    finding *f = add_finding(g, check);
    if (!f)
        return tells_error_nomem(err, NULL, 0);
    f->batch = mx;
    f->reference = my;
    f->tested = true;
    f->test = t;
    snprintf(f->detail, sizeof f->detail, "test=welch-t alternative=two-sided "
             "n_batch=%zu n_reference=%zu", nx, ny);
    *out = f;
    return 1;
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
        finding *f;
        int got = welch_finding(g, check, x, nx, y, ny, &f, err);
        if (got < 0) {
            rc = -1;
            break;
        }
        if (got)
            snprintf(f->says, sizeof f->says, "%s hypotheses average %.3f words over the "
                     "batch's %zu against %.3f over the corpus's %zu", name, f->batch, nx,
                     f->reference, ny);
    }
    free(x);
    free(y);
    return rc;
}

/* The pair features by class, batch against corpus: the overlap
   (Welch's t, two-sided) and the share of pairs adding a negation
   (chi-squared, or Fisher's exact test when an expected count is under
   5). */
static int check_pairs(audit_group *g, const audit_reference *ref, pair_shaper *ps,
                       tells_error *err)
{
    size_t L = vocab_size(ref->data.labels);
    double *bx = malloc((g->n ? g->n : 1) * PAIR_NFEATURES * sizeof *bx);
    double *x = malloc((g->n ? g->n : 1) * sizeof *x);
    double *y = malloc((ref->data.n ? ref->data.n : 1) * sizeof *y);
    long *label = malloc((g->n ? g->n : 1) * sizeof *label);
    int rc = bx && x && y && label ? 0 : tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; rc == 0 && i < g->n; i++) {
        const example *e = &g->data->ex[g->rows[i]];
        const char *name = vocab_str(g->data->labels, e->label);
        label[i] = vocab_find(ref->data.labels, name, strlen(name));
        if (pair_shape(ps, e->premise, e->hypothesis, bx + i * PAIR_NFEATURES) < 0)
            rc = tells_error_nomem(err, NULL, 0);
    }
    for (size_t l = 0; rc == 0 && l < L; l++) {
        const char *name = vocab_str(ref->data.labels, l);
        size_t nx = 0, ny = 0;
        uint64_t flagged[2] = {0, 0};
        for (size_t i = 0; i < g->n; i++)
            if (label[i] == (long)l) {
                x[nx++] = bx[i * PAIR_NFEATURES + PAIR_OVERLAP];
                flagged[0] += bx[i * PAIR_NFEATURES + PAIR_NEGATION] != 0;
            }
        for (size_t i = 0; i < ref->data.n; i++)
            if (ref->data.ex[i].label == l) {
                y[ny++] = ref->pair_x[i * PAIR_NFEATURES + PAIR_OVERLAP];
                flagged[1] += ref->pair_x[i * PAIR_NFEATURES + PAIR_NEGATION] != 0;
            }
        char check[160];
        snprintf(check, sizeof check, "pair:overlap:%s", name);
        finding *f;
        int got = welch_finding(g, check, x, nx, y, ny, &f, err);
        if (got < 0) {
            rc = -1;
            break;
        }
        if (got)
            snprintf(f->says, sizeof f->says, "on average %.3f of a %s hypothesis's words are "
                     "in its premise over the batch's %zu, against %.3f over the corpus's %zu",
                     f->batch, name, nx, f->reference, ny);
        /* Negation: a test only when both have pairs of the class and
           some, not all, add one. */
        uint64_t total[2] = {nx, ny};
        if (nx == 0 || ny == 0 || flagged[0] + flagged[1] == 0 ||
            flagged[0] + flagged[1] == nx + ny)
            continue;
        gof_result r;
        if (flag_class_test(flagged, total, 2, 1, &r, err) < 0) {
            rc = -1;
            break;
        }
        snprintf(check, sizeof check, "pair:negation:%s", name);
        if (!(f = add_finding(g, check))) {
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        f->batch = (double)flagged[0] / (double)nx;
        f->reference = (double)flagged[1] / (double)ny;
        f->tested = true;
        f->test = r.test;
        snprintf(f->detail, sizeof f->detail, "test=%s batch_flagged=%llu reference_flagged=%llu "
                 "n_batch=%zu n_reference=%zu", r.method == GOF_CHI2 ? "chi2" :
                 r.method == GOF_EXACT ? "fisher-exact" : "monte-carlo",
                 (unsigned long long)flagged[0], (unsigned long long)flagged[1], nx, ny);
        snprintf(f->says, sizeof f->says, "%.3f of the batch's %zu %s pairs add a negation "
                 "the premise lacks, against %.3f of the corpus's %zu",
                 f->batch, nx, name, f->reference, ny);
    }
    free(bx);
    free(x);
    free(y);
    free(label);
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
    snprintf(f->says, sizeof f->says, "%.3f of the batch's %zu rows have one of the corpus's "
             "%zu tell tokens, against %.3f of the corpus's %zu", f->batch, g->n,
             vocab_size(ref->tells), f->reference, ref->data.n);
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
    if (au_count_rows(&bt, g->data, g->rows, g->n) < 0) {
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
        /* The token's class in the batch: its most frequent; of classes
           as frequent, the one the reference gives it least (where the
           batch leans hardest), as for the heuristics. */
        size_t top = 0;
        double sum_b = 0, sum_r = 0;
        for (size_t k = 0; k < n; k++) {
            sum_b += c->batch[k];
            sum_r += c->ref[k];
            if (c->batch[k] > c->batch[top] ||
                (c->batch[k] == c->batch[top] && c->ref[k] < c->ref[top]))
                top = k;
        }
        char check[160];
        snprintf(check, sizeof check, "token:%s", w);
        finding *f = add_finding(g, check);
        if (!f) {
            rc = -1;
            break;
        }
        if (!(f->token = strdup(w))) {
            rc = -1;
            break;
        }
        snprintf(f->shown, sizeof f->shown, "token:%s",
                 redact_gate_name(o->shown, w, strlen(w)));
        f->batch = c->batch[top] / sum_b;
        f->reference = c->ref[top] / sum_r;
        f->tested = true;
        chisq_homogeneity(c->batch, c->ref, n, &f->test);
        snprintf(f->detail, sizeof f->detail, "test=chi2-homogeneity class=%s "
                 "batch_examples=%.0f reference_examples=%.0f%s",
                 vocab_str(c->names, top), sum_b,
                 rt >= 0 ? sum_r - o->pseudo : 0.0, rt >= 0 ? "" : " new=1");
        if (rt >= 0)
            snprintf(f->says, sizeof f->says, "%.3f of the batch's %.0f rows with it are %s, "
                     "against %.3f of the corpus's %.0f", f->batch, sum_b,
                     vocab_str(c->names, top), f->reference, sum_r - o->pseudo);
        else
            snprintf(f->says, sizeof f->says, "%.3f of the batch's %.0f rows with it are %s; "
                     "the corpus has no row with it (%.3f is its prior)", f->batch, sum_b,
                     vocab_str(c->names, top), f->reference);
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
    if (au_eval_heuristics(hs, g->data, g->rows, g->n, holds, err) < 0)
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
        /* The class the batch favours: its most frequent among the pairs
           that satisfy the heuristic; of classes as frequent, the one the
           reference has fewest of, whose share the batch's exceeds most
           (the reference's most frequent when the batch has no such pair),
           so that a tie counts the difference where the batch leans harder
           than the corpus. */
        size_t top = 0;
        for (size_t l = 1; l < n; l++)
            if (a[l] > a[top] || (a[l] == a[top] && (sa == 0 ? b[l] > b[top] : b[l] < b[top])))
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
        snprintf(f->says, sizeof f->says, "it holds for %.0f of the batch's %zu pairs, %.3f of "
                 "them %s, against %.0f of the corpus's %zu, %.3f of them %s", sa, g->n, share_a,
                 vocab_str(c->names, top), sb, ref->data.n, share_b, vocab_str(c->names, top));
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
    double gold = au_mean_gold_prob(g->data, p, &correct);
    /* Held out on both sides: the batch's hypotheses that the reference
       has word for word were in the model's training, so they are left
       out of the test (the reference's own are scored by the folds that
       did not see them). */
    size_t held = 0, right = 0;
    for (size_t i = 0; i < p->n; i++) {
        uint64_t ke, kn, v;
        if (au_hypothesis_keys(g->data->ex[p->row[i]].hypothesis, &ke, &kn) < 0)
            return tells_error_nomem(err, NULL, 0);
        if (u64map_get(&ref->exact, ke, &v))
            continue;
        held++;
        right += p->pred[i] == g->data->ex[p->row[i]].label;
    }
    finding *f = add_finding(g, "predictability");
    finding *f2 = f ? add_finding(g, "mean_gold_prob") : NULL;
    if (!f2)
        return tells_error_nomem(err, NULL, 0);
    f = &g->f[g->nf - 2];
    f->batch = held ? (double)right / (double)held : NAN;
    f->reference = ref->cv_accuracy;
    f->tested = held > 0;
    if (held)
        proportion_greater((double)right, (double)held, ref->cv_accuracy * (double)ref->cv_n,
                           (double)ref->cv_n, &f->test);
    char size[32] = "unknown";
    if (ref->model_n)
        snprintf(size, sizeof size, "%zu", ref->model_n);
    snprintf(f->detail, sizeof f->detail, "test=two-proportion-z alternative=greater "
             "model=fasttext-hypothesis reference=cross-validated training_rows=%s "
             "held_out=%zu left_out_duplicates=%zu", size, held, p->n - held);
    snprintf(f->says, sizeof f->says, "the corpus's hypothesis-only model gets %zu of the "
             "batch's %zu new hypotheses right (%.3f), against %.3f in cross-validation over "
             "the corpus's %zu", right, held, f->batch, f->reference, ref->cv_n);
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
    cv_plan plan = {o->folds, (unsigned long)o->ft.seed, o->group};
    if (baseline_cross_validate(d, rows, n, &plan, &bc, &p, err) < 0)
        return -1;
    au_mean_gold_prob(d, &p, correct);
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
        snprintf(f->says, sizeof f->says, "hypothesis-only cross-validation within the batch "
                 "gets %zu of its %zu rows right (%.3f), against %.3f in %d corpus samples "
                 "of that size", batch_correct, g->n, f->batch, f->reference,
                 REFERENCE_SAMPLES);
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
        if (au_hypothesis_keys(e->hypothesis, &ke, &kn) < 0) {
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
        if (au_remember(&seen_exact, ke, i) < 0 || au_remember(&seen_near, kn, i) < 0)
            rc = -1;
    }
    u64map_free(&seen_exact);
    u64map_free(&seen_near);
    /* Rows with an id the reference has: the batch repeats the corpus
       (a re-export, or the corpus given again), and every comparison
       then partly compares the corpus with itself. */
    size_t shared = 0, shared_same = 0;
    for (size_t i = 0; rc == 0 && i < g->n; i++) {
        const example *e = &g->data->ex[g->rows[i]];
        long k = dataset_row(&ref->data, e->id, strlen(e->id));
        if (k < 0)
            continue;
        shared++;
        shared_same += strcmp(ref->data.ex[k].hypothesis, e->hypothesis) == 0 &&
                       strcmp(ref->data.ex[k].premise, e->premise) == 0;
        flag(&g->ex[i], "shared-id:%s", e->id);
    }
    finding *f = rc == 0 ? add_finding(g, "duplicates") : NULL;
    finding *f2 = f ? add_finding(g, "near_duplicates") : NULL;
    finding *f3 = f2 ? add_finding(g, "shared_ids") : NULL;
    if (!f3)
        return tells_error_nomem(err, NULL, 0);
    f = &g->f[g->nf - 3];
    f2 = &g->f[g->nf - 2];
    f3->batch = (double)shared / (double)g->n;
    if (shared)
        snprintf(f3->detail, sizeof f3->detail, "no test; warning: examples=%zu of %zu have "
                 "an id the reference has (%zu with the same premise and hypothesis): the "
                 "batch repeats reference rows, and its checks partly compare the reference "
                 "with itself", shared, g->n, shared_same);
    else
        snprintf(f3->detail, sizeof f3->detail, "no test; examples=0 (no id the reference "
                 "has)");
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
        if (rc == 0 && o->pairs && ref->pair_x)
            rc = check_pairs(g, ref, o->pairs, err);
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
        e->p_gold = au_gold_prob(g->data, &p, i);
        if (p.pred[i] == x->label && e->p_gold >= o->predictable)
            flag(e, "%s", "predictable");
        for (size_t k = 0; k < g->nf; k++)
            if (g->f[k].significant && g->f[k].token && has_word(x->hypothesis, g->f[k].token))
                flag(e, "%s", g->f[k].shown);
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
    for (size_t i = 0; i < g->nf; i++)
        free(g->f[i].token);
    free(g->f);
    free(g->ex);
    memset(g, 0, sizeof *g);
}
