/* The majority class against fastText on the hypothesis alone and on the
   premise and hypothesis, on the same evaluated rows: the study's first
   question, whether the hypotheses alone give the label away. */
#include <config.h>

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "base/alloc.h"
#include "base/tasks.h"
#include "study/sec-baselines.h"

/* ---- the run ---- */

typedef struct table_out {
    comparison *cmp;
    bool details;
} table_out;

static int write_table(FILE *fp, void *ctx, tells_error *err)
{
    table_out *t = ctx;
    return comparison_write_table(fp, t->cmp, t->details, err);
}

static int write_predictions(FILE *fp, void *ctx, tells_error *err)
{
    return comparison_write_predictions(fp, ctx, err);
}

/* The data the comparisons run on: the corpus, or all.tsv when the folds
   go over several splits. */
static const dataset *comparison_data(const study *s)
{
    return s->cv && strcmp(s->train, "all") == 0 ? &s->all : &s->data;
}

/* Correctness of an entry's predictions, in the order of the evaluated
   rows (which the first entry fixed). */
static int correctness(study *s, const dataset *d, const comparison_entry *e,
                       unsigned char **right, tells_error *err)
{
    const predictions *p = &e->pred;
    /* The models may run side by side: the first to get here fixes the
       rows, whole, before any other reads them. */
    static pthread_mutex_t first = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&first);
    int rc = 0;
    if (!s->eval_row) {
        size_t *rows = array_new(p->n, sizeof *rows);
        if (!rows)
            rc = tells_error_nomem(err, NULL, 0);
        for (size_t i = 0; rc == 0 && i < p->n; i++)
            rows[i] = p->row[i];
        if (rc == 0) {
            s->neval = p->n;
            s->eval_row = rows;
        }
    } else if (p->n != s->neval)
        rc = tells_error_set(err, NULL, 0, "models scored different rows");
    pthread_mutex_unlock(&first);
    if (rc < 0)
        return -1;
    *right = array_new(p->n, sizeof **right);
    if (!*right)
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < p->n; i++) {
        if (p->row[i] != s->eval_row[i])
            return tells_error_set(err, NULL, 0, "models scored different rows");
        (*right)[i] = p->pred[i] == d->ex[p->row[i]].label;
    }
    return 0;
}

static void discordant(const unsigned char *a, const unsigned char *b, size_t n,
                       unsigned long *only_a, unsigned long *only_b)
{
    *only_a = *only_b = 0;
    for (size_t i = 0; i < n; i++) {
        *only_a += a[i] && !b[i];
        *only_b += b[i] && !a[i];
    }
}

/* With a test split and more than one thread the models train side by
   side (run), and say nothing as they go: the progress callback is for
   one thread. */
static bool side_by_side(const study *s)
{
    return !s->cv && s->cfg->threads > 1;
}

/* The majority class and the hypothesis-only model: baseline.tsv,
   predictions.tsv, their correctness and the latter's confusion. */
static int run_hypothesis(study *s, baselines_state *b, const dataset *d, tells_error *err)
{
    comparison_config cc;
    study_comparison_setup(s, &cc);
    if (side_by_side(s))
        cc.progress = NULL;
    const char *eval;
    if (s->given)
        study_given_model(s, &cc, s->cv ? &s->given_cv : &s->given_eval, s->given_entry,
                          &eval);
    comparison cmp = {0};
    if (comparison_run(&cmp, d, &cc, err) < 0)
        return -1;
    table_out t = {&cmp, true};
    int rc = study_write(s, "baseline.tsv", write_table, &t, err);
    if (rc == 0)
        rc = study_write(s, "predictions.tsv", write_predictions, &cmp, err);
    const comparison_entry *maj = study_entry(&cmp, "majority", s->eval);
    const comparison_entry *ft = study_entry(&cmp, study_hypothesis_model(s), s->eval);
    if (rc == 0 && (!maj || !ft))
        rc = tells_error_set(err, NULL, 0, "no scores of split '%s'", s->eval);
    if (rc == 0)
        rc = correctness(s, d, maj, &b->model[STUDY_MAJORITY].right, err);
    /* The label the majority model answered: one, or (cross-validated)
       each fold's own, which may differ. */
    b->majority_label = -1;
    for (size_t i = 0; rc == 0 && i < maj->pred.n; i++) {
        const char *name = vocab_str(d->labels, maj->pred.pred[i]);
        long l = vocab_find(s->data.labels, name, strlen(name));
        if (i == 0)
            b->majority_label = l;
        else if (l != b->majority_label) {
            b->majority_label = -1;
            break;
        }
    }
    if (rc == 0)
        rc = correctness(s, d, ft, &b->model[STUDY_HYPOTHESIS].right, err);
    if (rc == 0) {
        b->model[STUDY_HYPOTHESIS].fit = ft->pred.fit;
        study_model_check_set(s, d, &ft->pred, ft->pred.fit.train_accuracy,
                              study_majority_share(s, s->train), &b->check);
    }
    if (rc == 0) {
        size_t L = vocab_size(d->labels);
        b->confusion = array_new(L * L, sizeof *b->confusion);
        if (!b->confusion)
            rc = tells_error_nomem(err, NULL, 0);
        for (size_t i = 0; rc == 0 && i < ft->pred.n; i++)
            b->confusion[d->ex[ft->pred.row[i]].label * L + ft->pred.pred[i]]++;
    }
    comparison_free(&cmp);
    return rc;
}

/* A model of the premise and hypothesis together (in: one bag, or the
   pair's features), on the same rows, its table in name. */
static int run_pair(study *s, baselines_state *b, const dataset *d, baseline_input in,
                    study_model_id k, const char *name, tells_error *err)
{
    comparison_config cc;
    study_comparison_setup(s, &cc);
    if (side_by_side(s))
        cc.progress = NULL;
    cc.input = in;
    cc.run_majority = false;
    /* The premise-aware model given: its predictions of the evaluated
       rows. */
    bool given = k == STUDY_AWARE && s->given_pair;
    const char *eval;
    if (given)
        study_given_model(s, &cc, &s->pair_pred, s->pair_entry, &eval);
    comparison cmp = {0};
    if (comparison_run(&cmp, d, &cc, err) < 0)
        return -1;
    table_out t = {&cmp, false};
    int rc = study_write(s, name, write_table, &t, err);
    const comparison_entry *pair = study_entry(&cmp, given ? s->pair_entry : "fasttext", s->eval);
    if (rc == 0 && !pair)
        rc = tells_error_set(err, NULL, 0, "no scores of split '%s'", s->eval);
    if (rc == 0)
        rc = correctness(s, d, pair, &b->model[k].right, err);
    if (rc == 0)
        b->model[k].fit = pair->pred.fit;
    if (rc == 0 && k == STUDY_AWARE)
        study_model_check_set(s, d, &pair->pred, pair->pred.fit.train_accuracy,
                              study_majority_share(s, s->train), &b->aware_check);
    comparison_free(&cmp);
    return rc;
}

/* One model of the step, as a task (base/tasks.h). */
typedef struct model_task {
    study *s;
    baselines_state *b;
    const dataset *d;
    baseline_input in;
    study_model_id k;
    const char *table;         /* NULL: the hypothesis-only model */
    int rc;
    tells_error err;
} model_task;

static void model_run_task(void *ctx, size_t i, size_t thread)
{
    (void)thread;
    model_task *t = &((model_task *)ctx)[i];
    tells_error_clear(&t->err);
    t->rc = t->table ? run_pair(t->s, t->b, t->d, t->in, t->k, t->table, &t->err)
                     : run_hypothesis(t->s, t->b, t->d, &t->err);
}

/* The share of the premise-aware model's gain over the majority class
   that the hypothesis-only model gets, and its bootstrap percentile
   interval (examples resampled, the three models' correctness together;
   resamples where the premise-aware model gains nothing left out). */
static int share_interval(const study *s, baselines_state *b, tells_error *err)
{
    const unsigned char *maj = b->model[STUDY_MAJORITY].right,
                        *hyp = b->model[STUDY_HYPOTHESIS].right,
                        *aware = b->model[STUDY_AWARE].right;
    size_t n = s->neval;
    double gain = b->model[STUDY_AWARE].accuracy - b->model[STUDY_MAJORITY].accuracy;
    b->share_ok = n > 0 && gain > 0;
    b->share = b->share_ok ? (b->model[STUDY_HYPOTHESIS].accuracy -
                              b->model[STUDY_MAJORITY].accuracy) / gain
                           : NAN;
    b->share_low = b->share_high = NAN;
    if (!b->share_ok)
        return 0;
    /* The resamples drawn as their counts of the 8 patterns of the three
       models' outcomes (stats/interval.h), all the share reads of them. */
    double pattern[8] = {0};
    for (size_t i = 0; i < n; i++)
        pattern[4 * (maj[i] != 0) + 2 * (hyp[i] != 0) + (aware[i] != 0)]++;
    if (n > UINT_MAX)
        return tells_error_set(err, NULL, 0, "%zu examples are too many to resample", n);
    double *stat = array_new(STUDY_BOOTSTRAP, sizeof *stat);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!stat || !rng) {
        free(stat);
        if (rng)
            gsl_rng_free(rng);
        return tells_error_nomem(err, NULL, 0);
    }
    gsl_rng_set(rng, s->cfg->seed);
    size_t m = 0;
    for (size_t r = 0; r < STUDY_BOOTSTRAP; r++) {
        unsigned int c[8];
        gsl_ran_multinomial(rng, 8, (unsigned int)n, pattern, c);
        long sm = 0, sh = 0, sa = 0;
        for (int k = 0; k < 8; k++) {
            sm += (k & 4) ? c[k] : 0;
            sh += (k & 2) ? c[k] : 0;
            sa += (k & 1) ? c[k] : 0;
        }
        if (sa > sm)
            stat[m++] = (double)(sh - sm) / (double)(sa - sm);
    }
    if (m > 0) {
        gsl_sort(stat, 1, m);
        b->share_low = gsl_stats_quantile_from_sorted_data(stat, 1, m, 0.025);
        b->share_high = gsl_stats_quantile_from_sorted_data(stat, 1, m, 0.975);
    }
    free(stat);
    gsl_rng_free(rng);
    return 0;
}

/* The accuracies, their intervals, and the paired differences. */
static int compare_models(study *s, baselines_state *b, tells_error *err)
{
    study_model *m = b->model;
    for (int k = 0; k < STUDY_NMODELS; k++)
        m[k].accuracy = study_mean(m[k].right, s->neval);
    discordant(m[STUDY_HYPOTHESIS].right, m[STUDY_MAJORITY].right, s->neval, &b->hyp_only_b,
               &b->hyp_only_c);
    discordant(m[STUDY_PAIR].right, m[STUDY_HYPOTHESIS].right, s->neval, &b->pair_b,
               &b->pair_c);
    discordant(m[STUDY_AWARE].right, m[STUDY_HYPOTHESIS].right, s->neval, &b->aware_b,
               &b->aware_c);
    unsigned long seed = s->cfg->seed;
    if (paired_diff_interval(m[STUDY_HYPOTHESIS].right, m[STUDY_MAJORITY].right, s->neval,
                             STUDY_BOOTSTRAP, seed, 0.95, &b->hyp_vs_majority, err) < 0 ||
        paired_diff_interval(m[STUDY_PAIR].right, m[STUDY_HYPOTHESIS].right, s->neval,
                             STUDY_BOOTSTRAP, seed, 0.95, &b->pair_vs_hyp, err) < 0 ||
        paired_diff_interval(m[STUDY_AWARE].right, m[STUDY_HYPOTHESIS].right, s->neval,
                             STUDY_BOOTSTRAP, seed, 0.95, &b->aware_vs_hyp, err) < 0 ||
        paired_diff_interval(m[STUDY_PREMISE].right, m[STUDY_MAJORITY].right, s->neval,
                             STUDY_BOOTSTRAP, seed, 0.95, &b->premise_vs_majority, err) < 0 ||
        share_interval(s, b, err) < 0)
        return -1;
    /* Each model's accuracy with its own interval (against no model). */
    unsigned char *zero = array_new(s->neval, 1);
    if (!zero)
        return tells_error_nomem(err, NULL, 0);
    int rc = 0;
    for (int k = 0; k < STUDY_NMODELS && rc == 0; k++)
        rc = paired_diff_interval(m[k].right, zero, s->neval, STUDY_BOOTSTRAP, seed, 0.95,
                                  &m[k].ci, err);
    free(zero);
    return rc;
}

static int run(study *s, void *state, tells_error *err)
{
    baselines_state *b = state;
    b->model[STUDY_MAJORITY].name = "majority";
    b->model[STUDY_HYPOTHESIS].name = "hypothesis";
    b->model[STUDY_PAIR].name = "pair";
    b->model[STUDY_AWARE].name = "pair-features";
    b->model[STUDY_PREMISE].name = "premise";
    if (s->cv && strcmp(s->train, "all") == 0 && study_all(s, err) < 0)
        return -1;
    const dataset *d = comparison_data(s);
    /* Cross-validated, each model's folds run side by side
       (baseline_config.jobs); with a test split, the models themselves,
       the slowest (pair-features) first. Each writes its own table and
       its own slot of b; errors are reported in the models' order. */
    model_task t[4] = {
        {s, b, d, INPUT_PAIR_FEATURES, STUDY_AWARE, "pair-features-baseline.tsv", 0, {0}},
        {s, b, d, INPUT_HYPOTHESIS, STUDY_HYPOTHESIS, NULL, 0, {0}},
        {s, b, d, INPUT_PAIR, STUDY_PAIR, "pair-baseline.tsv", 0, {0}},
        {s, b, d, INPUT_PREMISE, STUDY_PREMISE, "premise-baseline.tsv", 0, {0}},
    };
    if (side_by_side(s))
        study_say(s, "  training the four models side by side");
    tasks_run(side_by_side(s) ? tasks_threads(s->cfg->threads) : 1, 4, model_run_task, t);
    static const size_t order[4] = {1, 2, 0, 3};
    for (size_t i = 0; i < 4; i++)
        if (t[order[i]].rc < 0) {
            *err = t[order[i]].err;
            return -1;
        }
    return compare_models(s, b, err);
}

static void free_state(void *state)
{
    baselines_state *b = state;
    for (int k = 0; k < STUDY_NMODELS; k++)
        free(b->model[k].right);
    free(b->confusion);
}

/* ---- verdicts ---- */

static const char *eval_words(const study *s, char *buf, size_t size)
{
    if (s->cv)
        if (strcmp(s->train, "all") == 0)
            snprintf(buf, size, "every example, each scored by the model of the other folds "
                     "of a %zu-fold cross-validation,", s->folds);
        else
            snprintf(buf, size, "the %s examples, each scored by the model of the other folds "
                     "of a %zu-fold cross-validation,", s->train, s->folds);
    else
        snprintf(buf, size, "the %s split (trained on %s)", s->eval, s->train);
    return buf;
}

/* A difference of two models' accuracies, tested by exact McNemar. */
/* A row comparing two models' accuracies: value, reference, effect and
   its interval; untested. */
static verdict *compared_verdict(verdicts *vs, const char *check, const study_model *m,
                                 const study_model *ref, const interval *diff,
                                 tells_error *err)
{
    verdict *v = verdicts_add(vs, err, "%s", check);
    if (!v)
        return NULL;
    v->value = m->accuracy;
    v->reference = ref->accuracy;
    v->effect = diff->estimate;
    v->ci_low = diff->low;
    v->ci_high = diff->high;
    return v;
}

static verdict *model_verdict(verdicts *vs, const char *check, const study_model *m,
                              const study_model *ref, const interval *diff, unsigned long b,
                              unsigned long c, tells_error *err)
{
    verdict *v = compared_verdict(vs, check, m, ref, diff, err);
    if (!v)
        return NULL;
    v->tested = true;
    v->p = mcnemar_exact_greater(b, c);
    v->direction_ok = v->effect > 0;
    return v;
}

/* The smallest gain of the hypothesis-only model over the majority class
   that its one-sided McNemar test at 0.05 finds with 80% power, given the
   share of evaluated examples on which the two disagree (one half when
   they never do). */
static double hypothesis_mde(const study *s, const baselines_state *b)
{
    double psi = s->neval ? (double)(b->hyp_only_b + b->hyp_only_c) / (double)s->neval : 0;
    return mcnemar_mde(psi > 0 ? psi : 0.5, s->neval, 0.05, 0.8);
}

/* A row comparing the premise-aware and hypothesis-only models: which
   of the two is degenerate, in its detail and sentence. */
static void warn_comparison(verdict *v, const baselines_state *b)
{
    study_model_warn_row(v, "hypothesis", &b->check,
                         "The hypothesis-only model it compares with is degenerate "
                         "(model_warning:hypothesis).");
    study_model_warn_row(v, "premise_aware", &b->aware_check,
                         "Its premise-aware model is degenerate (model_warning:premise_aware): "
                         "whether the premise helps is not answered.");
}

/* " tuned_epoch=N" for detail when the tuning chose N epochs on a sample
   and the fit on every row took fewer, scaled to the rows (model/baseline.h);
   else "". */
static const char *tuned_note(const model_fit *f, char *buf, size_t size)
{
    buf[0] = '\0';
    if (f->tuned && f->tuned_epoch != f->epoch)
        snprintf(buf, size, " tuned_epoch=%d", f->tuned_epoch);
    return buf;
}

/* The MedNLI paper's bag of both halves against the hypothesis alone,
   and the share of the premise-aware model's gain the hypothesis gets:
   described with intervals, not tested (the question is the premise
   question's). */
static int add_descriptive(study *s, const baselines_state *b, verdicts *vs, tells_error *err)
{
    const study_model *m = b->model;
    char note[32];
    verdict *v = compared_verdict(vs, "bag_of_both", &m[STUDY_PAIR], &m[STUDY_HYPOTHESIS],
                                  &b->pair_vs_hyp, err);
    if (!v)
        return -1;
    snprintf(v->detail, sizeof v->detail,
             "test=none model=pair n=%zu only_pair_right=%lu only_hypothesis_right=%lu "
             "train_accuracy=%.6f epoch=%d lr=%g%s",
             s->neval, b->pair_b, b->pair_c, m[STUDY_PAIR].fit.train_accuracy,
             m[STUDY_PAIR].fit.epoch, m[STUDY_PAIR].fit.lr,
             tuned_note(&m[STUDY_PAIR].fit, note, sizeof note));
    study_diff w;
    study_diff_words(v, &w);
    if (s->given) {
        size_t n = strlen(v->detail);
        snprintf(v->detail + n, sizeof v->detail - n, " hypothesis_model=%s",
                 s->given_entry);
    }
    snprintf(v->sentence, sizeof v->sentence,
             "The MedNLI paper's premise-and-hypothesis model, one bag of the words of both, "
             "gets %s right against %s for the hypothesis alone%s (%s points, 95%% interval "
             "%s to %s): it cannot tell which words came from the premise, so it does not "
             "answer whether the premise helps; the row above does.",
             w.a, w.b, s->given ? " (the given model, of another kind)" : "", w.d, w.lo,
             w.hi);
    if (!(v = compared_verdict(vs, "premise_only", &m[STUDY_PREMISE], &m[STUDY_MAJORITY],
                               &b->premise_vs_majority, err)))
        return -1;
    snprintf(v->detail, sizeof v->detail,
             "test=none model=premise n=%zu train_accuracy=%.6f epoch=%d lr=%g%s group_by=%s",
             s->neval, m[STUDY_PREMISE].fit.train_accuracy, m[STUDY_PREMISE].fit.epoch,
             m[STUDY_PREMISE].fit.lr, tuned_note(&m[STUDY_PREMISE].fit, note, sizeof note),
             fold_grouping_name(s->cfg->group));
    study_diff_words(v, &w);
    snprintf(v->sentence, sizeof v->sentence,
             "A check: the same model reading only the premise gets %s right against %s for "
             "the majority class (%s points, 95%% interval %s to %s). %s",
             w.a, w.b, w.d, w.lo, w.hi,
             v->ci_low > 0.02 ? "Well above it: premises tell the label, which a premise's "
                                "hypotheses sharing its fold should not allow; look for "
                                "labels tied to the premise (or to near-copies of it)."
                              : "Near it, as it should be when a premise's hypotheses, "
                                "of different labels, share a fold.");
    if (!(v = verdicts_add(vs, err, "hypothesis_share")))
        return -1;
    v->value = b->share;
    v->ci_low = b->share_low;
    v->ci_high = b->share_high;
    snprintf(v->detail, sizeof v->detail,
             "test=none share=(hypothesis-majority)/(pair_features-majority) "
             "interval=bootstrap_percentile_%d majority=%.6f hypothesis=%.6f pair_features=%.6f "
             "hypothesis_model=%s aware_model=%s",
             STUDY_BOOTSTRAP, m[STUDY_MAJORITY].accuracy, m[STUDY_HYPOTHESIS].accuracy,
             m[STUDY_AWARE].accuracy, s->given ? s->given_entry : "fasttext",
             s->given_pair ? s->pair_entry : "fasttext");
    if (!b->share_ok)
        snprintf(v->sentence, sizeof v->sentence,
                 "The premise-aware model does no better than the majority class, so there "
                 "is no gain to share out between the hypothesis and the premise.");
    else
        snprintf(v->sentence, sizeof v->sentence,
                 "Of what the premise-aware model gains over the majority class, the "
                 "hypothesis alone gets %.0f%% (95%% interval %.0f%% to %.0f%%): that much of "
                 "the task, as these models learn it, the hypotheses give away.%s",
                 100 * b->share, 100 * b->share_low, 100 * b->share_high,
                 s->given != s->given_pair
                     ? " The two models are of different kinds (one given, one the "
                       "study's fastText), so the share may pass 100%."
                     : "");
    warn_comparison(v, b);
    return 0;
}

static int add_verdicts(study *s, void *state, verdicts *vs, tells_error *err)
{
    const baselines_state *b = state;
    const study_model *m = b->model;
    char where[320];
    eval_words(s, where, sizeof where);
    bool one = b->majority_label >= 0;
    const char *majority = one ? study_label(s, (size_t)b->majority_label) : "per_fold";
    /* "always answering 'X'", or each fold's own. */
    const char *ans1 = one ? "always answering '" : "answering each fold's most frequent class",
               *ans2 = one ? majority : "", *ans3 = one ? "'" : " (the folds' differ)";
    verdict *v = model_verdict(vs, "hypothesis_only", &m[STUDY_HYPOTHESIS], &m[STUDY_MAJORITY],
                               &b->hyp_vs_majority, b->hyp_only_b, b->hyp_only_c, err);
    if (!v)
        return -1;
    const model_fit *fit = &m[STUDY_HYPOTHESIS].fit;
    double mde = hypothesis_mde(s, b);
    /* The model: the given one by its name, or fastText's fit and settings. */
    char model[192];
    /* How the settings came: fixed, tuned on the training rows, or (a
       large corpus) on a sample of them, with its size; for detail and
       for the sentence. */
    bool sampled = fit->tuned && fit->tune_rows < fit->train_rows;
    char settings[96], how[64], note[32];
    if (sampled) {
        snprintf(settings, sizeof settings, "chosen_on_sampled_training_rows tune_rows=%zu%s",
                 fit->tune_rows, tuned_note(fit, note, sizeof note));
        if (fit->tuned_epoch != fit->epoch)
            snprintf(how, sizeof how, "%d epochs chosen on %zu of them, scaled to all",
                     fit->tuned_epoch, fit->tune_rows);
        else
            snprintf(how, sizeof how, "chosen on %zu of them", fit->tune_rows);
    } else {
        snprintf(settings, sizeof settings, "%s",
                 fit->tuned ? "chosen_on_training_rows" : "fixed");
        snprintf(how, sizeof how, "%s",
                 fit->tuned ? "chosen on a held-out fifth of the training data" : "as given");
    }
    if (s->given)
        snprintf(model, sizeof model, "model=given:%s", s->given_name);
    else
        snprintf(model, sizeof model, "train_accuracy=%.6f epoch=%d lr=%g settings=%s",
                 fit->train_accuracy, fit->epoch, fit->lr, settings);
    snprintf(v->detail, sizeof v->detail,
             "test=mcnemar_exact_one_sided n=%zu only_hypothesis_right=%lu "
             "only_majority_right=%lu majority_label=%s evaluation=%s %s mde=%.6f "
             "mde_method=connor_1987_one_sided_0.05_power_0.8",
             s->neval, b->hyp_only_b, b->hyp_only_c, majority,
             s->cv ? "cross-validation" : s->eval, model, mde);
    study_diff w;
    study_diff_words(v, &w);
    char fitted[32];
    study_percent(fitted, sizeof fitted, fit->train_accuracy);
    if (s->given)
        snprintf(v->sentence, sizeof v->sentence,
                 "The model %s, whose predictions were given, reading only the hypothesis, "
                 "gets %s of %s right, against %s for %s%s%s: %s points (95%% "
                 "interval %s to %s), p = %s (exact McNemar, one-sided); with these %zu "
                 "examples, a gain of %.1f points over the majority class would be found "
                 "with 80%% power.",
                 s->given_name, w.a, where, w.b, ans1, ans2, ans3, w.d, w.lo, w.hi, w.p, s->neval,
                 100 * mde);
    else
        snprintf(v->sentence, sizeof v->sentence,
                 "A fastText model that reads only the hypothesis gets %s of %s right, "
                 "against %s for %s%s%s: %s points (95%% interval %s to %s), p = %s "
                 "(exact McNemar, one-sided). It gets %s of its own training examples right "
                 "(%d epoch%s, learning rate %g, %s); with these %zu examples, a gain of %.1f "
                 "points over the majority class would be found with 80%% power.",
                 w.a, where, w.b, ans1, ans2, ans3, w.d, w.lo, w.hi, w.p, fitted, fit->epoch,
                 fit->epoch == 1 ? "" : "s", fit->lr, how, s->neval, 100 * mde);
    study_model_warn_row(v, "hypothesis", &b->check, NULL);

    if (!(v = model_verdict(vs, "premise_and_hypothesis", &m[STUDY_AWARE],
                            &m[STUDY_HYPOTHESIS], &b->aware_vs_hyp, b->aware_b, b->aware_c,
                            err)))
        return -1;
    /* Two-sided: a pair model worse than the hypothesis alone is an
       answer too, not "no help". */
    v->p = mcnemar_exact_two_sided(b->aware_b, b->aware_c);
    unsigned long both = 0, neither = 0;
    for (size_t i = 0; i < s->neval; i++) {
        both += m[STUDY_AWARE].right[i] && m[STUDY_HYPOTHESIS].right[i];
        neither += !m[STUDY_AWARE].right[i] && !m[STUDY_HYPOTHESIS].right[i];
    }
    if (s->given_pair)
        snprintf(v->detail, sizeof v->detail,
                 "test=mcnemar_exact_two_sided model=given:%s n=%zu both_right=%lu "
                 "only_pair_right=%lu only_hypothesis_right=%lu neither_right=%lu "
                 "bag_of_both_accuracy=%.6f",
                 s->pair_name, s->neval, both, b->aware_b, b->aware_c, neither,
                 m[STUDY_PAIR].accuracy);
    else
        snprintf(v->detail, sizeof v->detail,
                 "test=mcnemar_exact_two_sided model=pair-features n=%zu both_right=%lu "
                 "only_pair_right=%lu only_hypothesis_right=%lu neither_right=%lu "
                 "train_accuracy=%.6f epoch=%d lr=%g%s bag_of_both_accuracy=%.6f",
                 s->neval, both, b->aware_b, b->aware_c, neither,
                 m[STUDY_AWARE].fit.train_accuracy, m[STUDY_AWARE].fit.epoch,
                 m[STUDY_AWARE].fit.lr, tuned_note(&m[STUDY_AWARE].fit, note, sizeof note),
                 m[STUDY_PAIR].accuracy);
    warn_comparison(v, b);
    study_diff_words(v, &w);
    char aware[256];
    if (s->given_pair)
        snprintf(aware, sizeof aware, "The model %s, whose predictions of the pairs were "
                 "given, reading premise and hypothesis,", s->pair_name);
    else
        snprintf(aware, sizeof aware, "A linear model that can relate the two (side-marked "
                 "words, premise-by-hypothesis word pairs, overlap and length difference, "
                 "%s)", s->given ? "fastText trained by the study"
                                 : "trained like the hypothesis-only one");
    snprintf(v->sentence, sizeof v->sentence,
             "%s gets %s right, against %s for the hypothesis alone%s: %s points (95%% "
             "interval %s to %s), p = %s (exact McNemar, two-sided).",
             aware, w.a, w.b, s->given ? " (the given model)" : "", w.d, w.lo, w.hi, w.p);
    if (add_descriptive(s, b, vs, err) < 0)
        return -1;
    char shown[256], model_words[192];
    snprintf(shown, sizeof shown, "the %s",
             study_hypothesis_shown(s, model_words, sizeof model_words));
    if (study_model_warning(vs, "hypothesis", shown, &b->check,
                            "a \"no\" in hypothesis_only, which rests on it, is no evidence "
                            "that there is no shortcut, and premise_and_hypothesis and "
                            "hypothesis_share, which compare with it, say little.", err) < 0)
        return -1;
    if (s->given_pair)
        snprintf(shown, sizeof shown, "the premise-aware model %s (predictions given)",
                 s->pair_name);
    else
        snprintf(shown, sizeof shown, "the premise-aware fastText model");
    return study_model_warning(vs, "premise_aware", shown, &b->aware_check,
                               "premise_and_hypothesis and hypothesis_share, which rest on it, "
                               "say nothing of whether the premise helps.", err);
}

/* ---- figures and page ---- */

static const char *const model_shown[STUDY_NMODELS] = {
    "majority class", "hypothesis only", "bag of both", "premise-aware", "premise only"};

static int models_data(FILE *fp, const void *state, const void *unused)
{
    (void)unused;
    const baselines_state *b = state;
    fputs("model\taccuracy\tlow\thigh\n", fp);
    for (int k = 0; k < STUDY_NMODELS; k++)
        fig_bars_row(fp, model_shown[k], b->model[k].accuracy, b->model[k].ci.low,
                     b->model[k].ci.high, -1);
    return ferror(fp) ? -1 : 0;
}

/* The hypothesis-only model's confusion matrix (rows gold). */
static int confusion_data(FILE *fp, const void *state, const void *study_p)
{
    const baselines_state *b = state;
    const study *s = study_p;
    size_t L = vocab_size(s->data.labels), K = s->nclasses;
    fputs("predicted\tgold\tcount\tshare\n", fp);
    for (size_t g = 0; g < K; g++) {
        size_t gi = study_class(s, g), row = 0;
        for (size_t p = 0; p < K; p++)
            row += b->confusion[gi * L + study_class(s, p)];
        for (size_t p = 0; p < K; p++) {
            size_t n = b->confusion[gi * L + study_class(s, p)];
            fprintf(fp, "%zu\t%zu\t%zu\t%.6f\n", p, K - 1 - g, n,
                    row ? (double)n / (double)row : 0.0);
        }
    }
    return ferror(fp) ? -1 : 0;
}

static int confusion_script(FILE *fp, const void *state, const void *study_p)
{
    (void)state;
    const study *s = study_p;
    size_t K = s->nclasses;
    fig_script_head(fp, "confusion", 460, 400);
    /* One square cell per pair of classes, with a border, its count and
       its share of the gold class; white text on the darker cells. */
    fputs("unset grid\nset border 0\nset tics scale 0\nset size ratio -1\n"
          "set palette defined (0 '#ffffff', 1 '#2b5fa8')\nset cbrange [0:1]\n"
          "set cblabel 'share of the gold class'\nset xlabel 'predicted'\nset ylabel 'gold'\n",
          fp);
    fprintf(fp, "set xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5]\n", K - 1, K - 1);
    const char *axis[2] = {"xtics", "ytics"};
    for (int a = 0; a < 2; a++) {
        fprintf(fp, "set %s (", axis[a]);
        for (size_t i = 0; i < K; i++) {
            if (i)
                fputs(", ", fp);
            fig_script_string(fp, study_class_name(s, i));
            fprintf(fp, " %zu", a ? K - 1 - i : i);
        }
        fputs(")\n", fp);
    }
    fputs("cell(n, share) = sprintf('%d\\n%.0f%%', n, 100 * share)\n"
          "plot 'confusion.dat' skip 1 using 1:2:(0.5):(0.5):4 with boxxyerror "
          "fs solid 1 border lc rgb '#555555' fc palette notitle, \\\n"
          "     '' skip 1 using 1:2:($4 < 0.55 ? cell($3, $4) : '') with labels "
          "tc rgb '#000000' notitle, \\\n"
          "     '' skip 1 using 1:2:($4 >= 0.55 ? cell($3, $4) : '') with labels "
          "tc rgb '#ffffff' notitle\n",
          fp);
    return ferror(fp) ? -1 : 0;
}

static int add_figures(study *s, void *state, figset *f, tells_error *err)
{
    static const fig_bars bars = {"baselines", 600, 360, "accuracy", true};
    if (figure_add_bars(f, &bars, models_data, state, s, err) < 0)
        return -1;
    return figure_add(f, "confusion", confusion_data, confusion_script, state, s, err);
}

static void add_page(study *s, void *state, page *pg)
{
    const baselines_state *b = state;
    FILE *fp = pg->fp;
    fputs("<h2 id=\"baselines\">Baselines</h2>\n<table>\n<tr><th>model</th><th>accuracy</th>"
          "<th>95% interval</th></tr>\n",
          fp);
    char given[256], pair[256];
    snprintf(given, sizeof given, "%s, hypothesis only (predictions given)", s->given_name);
    snprintf(pair, sizeof pair, "%s, premise-aware (predictions given)", s->pair_name);
    const char *const shown[STUDY_NMODELS] = {
        "majority class", s->given ? given : "fastText, hypothesis only",
        "fastText, one bag of premise and hypothesis words (the MedNLI paper's)",
        s->given_pair ? pair : "fastText, premise-aware (the pair's features)",
        "fastText, premise only"};
    for (int k = 0; k < STUDY_NMODELS; k++) {
        fputs("<tr><td>", fp);
        html_escape(fp, shown[k]);
        fprintf(fp, "</td><td class=\"n\">%.3f</td><td class=\"n\">%.3f to %.3f</td></tr>\n",
                b->model[k].accuracy, b->model[k].ci.low, b->model[k].ci.high);
    }
    fputs("</table>\n", fp);
    page_figure(pg, "baselines", "Accuracy of each model on the evaluated examples, with "
                                 "95% bootstrap intervals (<code>baseline.tsv</code>, "
                                 "<code>pair-baseline.tsv</code>, "
                                 "<code>pair-features-baseline.tsv</code>, "
                                 "<code>premise-baseline.tsv</code>).");
    study_sentence(s, pg, "bag_of_both");
    study_sentence(s, pg, "premise_only");
    study_sentence(s, pg, "hypothesis_share");
    page_figure(pg, "confusion", "The hypothesis-only model's confusion matrix: rows gold, "
                                 "columns predicted, each cell's count and its share of "
                                 "the gold class.");
}

static const study_check checks[] = {
    {.name = "hypothesis_only",
     .definition = "value: the hypothesis-only fastText model's accuracy on the "
                   "evaluated examples; reference: the majority class's on the same "
                   "examples; effect: the difference, with a 95% paired-bootstrap "
                   "interval (2,000 resamples, seeded with --seed); p: McNemar's exact "
                   "test, one-sided (the model right more often). fastText's epochs "
                   "and learning rate are chosen by log loss on a held-out fifth of the "
                   "training rows (of about 50,000 of them, dealt as the folds are, in a "
                   "larger corpus, whose fit on every row then takes ceil(epochs x tune_rows / "
                   "rows) epochs: tune_rows and tuned_epoch in detail) or fixed by --epoch, --lr; "
                   "detail gives "
                   "the model's training accuracy and mde, the smallest gain the test "
                   "finds with 80% power (Connor 1987, at the observed disagreement)",
     .yes = "A shortcut.", .no = "Not significant.", .list = CHECK_LIST_ALL,
     .headline_yes = "The hypotheses alone give the label away: a model that never reads "
                     "the premise does significantly better than always answering the most "
                     "frequent class.",
     .headline_no = "No significant hypothesis-only shortcut: a model that never reads the "
                    "premise does not do significantly better than always answering the "
                    "most frequent class."},
    {.name = "premise_and_hypothesis",
     .definition = "the same for a premise-aware model (fastText over side-marked words, "
                   "premise-by-hypothesis word pairs, overlap and length difference: "
                   "tells-baseline --input pair-features) against the hypothesis-only one; "
                   "p: McNemar's exact test, two-sided, with the 2x2 table in detail; yes "
                   "when the premise helps significantly",
     .yes = "The premise helps.", .no = "The premise does not significantly help.",
     .good_if_significant = true, .list = CHECK_LIST_ALL},
    {.name = "bag_of_both",
     .definition = "not tested: the MedNLI study's premise+hypothesis fastText (one bag of "
                   "the words of both) against the hypothesis-only model, effect and "
                   "paired-bootstrap interval",
     .list = CHECK_LIST_NONE},
    {.name = "premise_only",
     .definition = "not tested, a check: the same model on the premise alone against the "
                   "majority class, effect and paired-bootstrap interval; near 0 when a "
                   "premise's hypotheses share a fold",
     .list = CHECK_LIST_NONE},
    {.name = "hypothesis_share",
     .definition = "not tested: (hypothesis-only - majority) / (premise-aware - majority) "
                   "accuracy, with a 95% bootstrap percentile interval: the share of the "
                   "task, as these models learn it, that the hypothesis alone gives away",
     .list = CHECK_LIST_NONE},
    {.name = "model_warning:MODEL",
     .definition = "only for a degenerate model, untested: the model (MODEL hypothesis: "
                   "the hypothesis-only one scored by hypothesis_only; hypothesis_cv: the "
                   "cross-fitted one of PVI and the partitions, when another; premise_aware: "
                   "the one of premise_and_hypothesis) predicts one "
                   "label for 95% or more of the examples, though it is the gold one of "
                   "fewer than 90% (value: that share), or no "
                   "label's probability has a standard deviation of 0.01 across them, or "
                   "it is right on fewer of its own training examples than the majority "
                   "class (tells' own models only); the rows resting on it say so",
     .yes = "", .no = "", .list = CHECK_LIST_ALL},
};

const study_section section_baselines = {
    .name = "baselines",
    .writes = "baseline.tsv and predictions.tsv (tells-baseline --details: the majority "
              "class against hypothesis-only fastText), pair-baseline.tsv (--input pair)",
    .needs = RES_CORPUS | RES_EVALUATION,
    .provides = RES_MODELS,
    .state_size = sizeof(baselines_state),
    .run = run,
    .verdicts = add_verdicts,
    .figures = add_figures,
    .page = add_page,
    .free = free_state,
    STUDY_CHECKS(checks),
};
