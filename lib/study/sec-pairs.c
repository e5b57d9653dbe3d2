/* Pair-level artifacts (analysis/pairs.h): how each hypothesis was made
   from its premise (overlap, subsequence, added negation, new numbers,
   length difference), each feature's association with the label over
   the whole corpus (pairs.tsv, pairs-examples.tsv), and a classifier that
   reads only those features, on the study's evaluation, against the
   majority class. Rows pair:NAME and pair:classifier, in the primary
   family. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pairs.h"
#include "base/alloc.h"
#include "stats/interval.h"
#include "study/core.h"
#include "study/sec-heuristics.h"

typedef struct pairs_state {
    double *x;                        /* per row of the corpus */
    pair_assoc a[PAIR_NFEATURES];
    bool assoc;
    pair_model m;
    bool classified;
    interval diff;                    /* model minus majority, paired bootstrap */
    char design[300];
} pairs_state;

typedef struct table_ctx {
    const study *s;
    pairs_state *st;
} table_ctx;

static int write_assoc(FILE *fp, void *ctx, tells_error *err)
{
    table_ctx *t = ctx;
    return pairs_write_assoc(fp, t->st->a, &t->s->data, t->s->class_order, err);
}

static int write_features(FILE *fp, void *ctx, tells_error *err)
{
    table_ctx *t = ctx;
    return pairs_write_features(fp, &t->s->data, t->st->x, err);
}

static int by_id(const void *a, const void *b, void *ctx)
{
    const dataset *d = ctx;
    return strcmp(d->ex[*(const size_t *)a].id, d->ex[*(const size_t *)b].id);
}

static int run(study *s, void *state, tells_error *err)
{
    pairs_state *st = state;
    const dataset *d = &s->data;
    pair_shaper *ps = pair_shaper_load(s->cfg->negation, err);
    if (!ps)
        return -1;
    /* The MeSH features link as the heuristics do, with their index. */
    pair_shaper_set_concepts(ps, study_heuristics(s)->hs.ci);
    st->x = pairs_compute(d, ps, err);
    pair_shaper_free(ps);
    if (!st->x)
        return -1;
    if (pairs_associate(d, NULL, d->n, st->x, s->class_order, s->nclasses, s->cfg->seed,
                        st->a, err) < 0)
        return -1;
    st->assoc = true;
    table_ctx t = {s, st};
    if (study_write(s, "pairs.tsv", write_assoc, &t, err) < 0 ||
        study_write(s, "pairs-examples.tsv", write_features, &t, err) < 0)
        return -1;
    int *part = array_new(d->n ? d->n : 1, sizeof *part);
    if (!part)
        return tells_error_nomem(err, NULL, 0);
    size_t models = 0;
    int rc = pairs_plan(d, s->cv ? NULL : s->train, s->cv ? NULL : s->eval, s->folds,
                        s->cfg->group, s->cfg->seed, part, &models, st->design,
                        sizeof st->design, err);
    if (rc == 0)
        rc = pairs_classify(d, st->x, part, models, s->cfg->threads, &st->m, err);
    st->classified = rc == 0;
    /* The paired interval over the scored rows, in the order of their
       ids, so that it does not depend on the corpus's row order. */
    unsigned char *a = NULL, *b = NULL;
    size_t *order = NULL;
    if (rc == 0) {
        a = array_new(st->m.n ? st->m.n : 1, 1);
        b = array_new(st->m.n ? st->m.n : 1, 1);
        order = array_new(d->n ? d->n : 1, sizeof *order);
        if (!a || !b || !order)
            rc = tells_error_nomem(err, NULL, 0);
    }
    if (rc == 0) {
        size_t n = 0;
        for (size_t i = 0; i < d->n; i++)
            if (part[i] != -1 && (models > 1 || part[i] == PAIRS_EVAL))
                order[n++] = i;
        qsort_r(order, n, sizeof *order, by_id, (void *)d);
        for (size_t j = 0; j < n; j++) {
            a[j] = st->m.model_ok[order[j]];
            b[j] = st->m.majority_ok[order[j]];
        }
        rc = paired_diff_interval(a, b, n, STUDY_BOOTSTRAP, s->cfg->seed, 0.95, &st->diff,
                                  err);
    }
    free(a);
    free(b);
    free(order);
    free(part);
    return rc;
}

static void free_state(void *state)
{
    pairs_state *st = state;
    if (st->assoc)
        for (size_t f = 0; f < PAIR_NFEATURES; f++)
            pairs_assoc_free(&st->a[f]);
    pair_model_free(&st->m);
    free(st->x);
}

/* What a feature's lean reads as, for the sentence. */
static const char *const lean_words[PAIR_NFEATURES] = {
    NULL,
    NULL,
    "Hypotheses made only of the premise's words",
    "Hypotheses that are a run of the premise's words",
    "Hypotheses that add a negation",
    "Hypotheses that add a number",
    "Hypotheses much shorter than their premise",
    "Hypotheses that name a MeSH concept their premise does not",
    "Hypotheses that name a more general MeSH concept than their premise's",
    "Hypotheses that name a more specific MeSH concept than their premise's",
};

static int add_verdicts(study *s, void *state, verdicts *vs, tells_error *err)
{
    pairs_state *st = state;
    for (size_t f = 0; f < PAIR_NFEATURES; f++) {
        const pair_assoc *a = &st->a[f];
        const pair_feature_info *info = pair_feature_at((pair_feature)f);
        verdict *v = verdicts_add(vs, err, "pair:%s", info->name);
        if (!v)
            return -1;
        if (!a->tested) {
            snprintf(v->detail, sizeof v->detail, "test=none reason=constant value=%g",
                     st->x ? st->x[PAIR_NFEATURES * 0 + f] : NAN);
            snprintf(v->sentence, sizeof v->sentence,
                     "%s: %s is %g in every pair, so it cannot tell the class (not tested).",
                     info->name, info->definition, st->x[f]);
            continue;
        }
        bool flag = info->kind == PAIR_FLAG;
        size_t hi = SIZE_MAX, lo = SIZE_MAX;
        for (size_t k = 0; k < a->nclasses; k++) {
            if (!a->n[k])
                continue;
            if (hi == SIZE_MAX || a->mean[k] > a->mean[hi])
                hi = k;
            if (lo == SIZE_MAX || a->mean[k] < a->mean[lo])
                lo = k;
        }
        v->value = a->test.statistic;
        v->effect = a->mean[hi] - a->mean[lo];
        v->tested = true;
        v->p = a->test.p;
        v->direction_ok = true;
        size_t used = (size_t)snprintf(v->detail, sizeof v->detail, "test=%s df=%g",
                                       flag ? gof_method_name(a->method) : "kruskal_wallis",
                                       a->test.df);
        for (size_t k = 0; k < a->nclasses && used < sizeof v->detail; k++) {
            const char *name = study_class_name(s, k);
            if (flag)
                used += (size_t)snprintf(v->detail + used, sizeof v->detail - used,
                                         " share_%s=%.6f flagged_%s=%llu n_%s=%llu", name,
                                         a->mean[k], name, (unsigned long long)a->flagged[k],
                                         name, (unsigned long long)a->n[k]);
            else
                used += (size_t)snprintf(v->detail + used, sizeof v->detail - used,
                                         " mean_%s=%.6f median_%s=%.6f", name, a->mean[k],
                                         name, a->median[k]);
        }
        char p[64];
        study_pvalue(p, sizeof p, v->p);
        const char *top = study_class_name(s, hi), *bottom = study_class_name(s, lo);
        if (flag) {
            unsigned long long all = 0;
            for (size_t k = 0; k < a->nclasses; k++)
                all += a->flagged[k];
            snprintf(v->sentence, sizeof v->sentence,
                     "%s (%s; %llu pairs) lean %s: %.1f%% of %s's pairs against %.1f%% "
                     "of %s's; %s p = %s.",
                     lean_words[f], info->definition, all, top, 100 * a->mean[hi], top,
                     100 * a->mean[lo], bottom,
                     a->method == GOF_CHI2 ? "chi-squared" : a->method == GOF_EXACT
                                                                 ? "exact test"
                                                                 : "Monte Carlo test,",
                     p);
        } else if (f == PAIR_LENGTH_DIFFERENCE) {
            snprintf(v->sentence, sizeof v->sentence,
                     "The premise is longest against its hypothesis in class %s (%.1f words "
                     "more on average) and least in class %s (%.1f): Kruskal-Wallis H = "
                     "%.1f, p = %s.",
                     top, a->mean[hi], bottom, a->mean[lo], v->value, p);
        } else if (f == PAIR_OVERLAP) {
            snprintf(v->sentence, sizeof v->sentence,
                     "Overlap leans %s: on average %.3f of the words of a %s hypothesis are in "
                     "its premise (median %.3f), against %.3f for %s; Kruskal-Wallis H = %.1f, "
                     "p = %s.",
                     top, a->mean[hi], top, a->median[hi], a->mean[lo], bottom, v->value, p);
        } else {
            snprintf(v->sentence, sizeof v->sentence,
                     "Coverage of the premise leans %s: on average %.3f of a premise's words "
                     "are in its %s hypothesis (median %.3f), against %.3f for %s; "
                     "Kruskal-Wallis H = %.1f, p = %s.",
                     top, a->mean[hi], top, a->median[hi], a->mean[lo], bottom, v->value, p);
        }
    }
    if (!st->classified)
        return 0;
    const pair_model *m = &st->m;
    verdict *v = verdicts_add(vs, err, "pair:classifier");
    if (!v)
        return -1;
    v->value = m->n ? (double)m->right / (double)m->n : NAN;
    v->reference = m->n ? (double)m->majority_right / (double)m->n : NAN;
    v->effect = st->diff.estimate;
    v->ci_low = st->diff.low;
    v->ci_high = st->diff.high;
    v->tested = true;
    v->p = m->p;
    v->direction_ok = v->effect > 0;
    const char *majority = study_label(s, m->majority_label);
    snprintf(v->detail, sizeof v->detail,
             "test=mcnemar_exact_one_sided model=logistic_regression_pair_features n=%zu "
             "only_model_right=%lu only_majority_right=%lu majority_label=%.64s design=%.96s "
             "train_accuracy=%.6f mde=%.6f mde_method=connor_1987_one_sided_0.05_power_0.8",
             m->n, m->only_model, m->only_majority, majority, st->design, m->train_accuracy,
             m->mde);
    study_diff w;
    study_diff_words(v, &w);
    snprintf(v->sentence, sizeof v->sentence,
             "A logistic regression that reads only these %d pair features, no word of "
             "either text, gets %s of %zu pairs right (%s), against %s for %s%s%s: "
             "%s points (95%% interval %s to %s), p = %s (exact "
             "McNemar, one-sided). With these pairs a gain of %.1f points would be found "
             "with 80%% power.",
             PAIR_NFEATURES, w.a, m->n, st->design, w.b,
             s->cv ? "each fold's training majority ('" : "always answering '", majority,
             s->cv ? "' overall)" : "'", w.d, w.lo, w.hi, w.p, 100 * m->mde);
    return 0;
}

/* ---- figures ---- */

/* Overlap by class: a box per class. */
static int overlap_data(FILE *fp, const void *state, const void *study_p)
{
    const pairs_state *st = state;
    const study *s = study_p;
    for (size_t k = 0; k < s->nclasses; k++) {
        size_t label = study_class(s, k);
        fputs("# overlap\n", fp);
        for (size_t i = 0; i < s->data.n; i++)
            if (s->data.ex[i].label == label)
                fprintf(fp, "%.6f\n", st->x[i * PAIR_NFEATURES + PAIR_OVERLAP]);
        fputs("\n\n", fp);
    }
    return ferror(fp) ? -1 : 0;
}

static int overlap_script(FILE *fp, const void *state, const void *study_p)
{
    (void)state;
    study_class_boxes_script(fp, study_p, "pair-overlap",
                             "\"share of the hypothesis's words in the premise\"", "[0:1.05]");
    return ferror(fp) ? -1 : 0;
}

/* The flags by class: a cluster of bars per flag, one bar per class,
   each with its share printed. */
static int flags_data(FILE *fp, const void *state, const void *study_p)
{
    const pairs_state *st = state;
    const study *s = study_p;
    study_class_header(fp, s, "# flag");
    for (size_t f = 0; f < PAIR_NFEATURES; f++) {
        const pair_feature_info *info = pair_feature_at((pair_feature)f);
        if (info->kind != PAIR_FLAG)
            continue;
        fig_data_string(fp, info->name);
        for (size_t k = 0; k < s->nclasses; k++)
            fprintf(fp, "\t%.6f", st->a[f].n[k] ? st->a[f].mean[k] : 0.0);
        putc('\n', fp);
    }
    return ferror(fp) ? -1 : 0;
}

static int flags_script(FILE *fp, const void *state, const void *study_p)
{
    const pairs_state *st = state;
    const study *s = study_p;
    double top = 0;
    size_t nflags = 0;
    for (size_t f = 0; f < PAIR_NFEATURES; f++)
        if (pair_feature_at((pair_feature)f)->kind == PAIR_FLAG) {
            nflags++;
            for (size_t k = 0; k < s->nclasses; k++)
                if (st->a[f].n[k] && st->a[f].mean[k] > top)
                    top = st->a[f].mean[k];
        }
    int width = 160 + (int)(nflags * (s->nclasses * 34 + 40));
    fig_script_head(fp, "pair-flags", width < 560 ? 560 : width, 360);
    double hi = top > 0 ? top * 1.25 : 0.1;
    double step = fig_tick_step(hi, 5);
    double bw = 0.8 / (double)s->nclasses;
    fprintf(fp,
            "set ylabel 'share of the class flagged'\nset yrange [0:%g]\nset ytics %g\n"
            "set xrange [-0.6:%zu.6]\nset style fill solid 0.8 border -1\n"
            "set boxwidth %g absolute\nset key top right horizontal\nset xtics scale 0\n",
            hi, step, nflags - 1, bw * 0.9);
    fputs("set xtics (", fp);
    size_t at = 0;
    for (size_t f = 0; f < PAIR_NFEATURES; f++) {
        const pair_feature_info *info = pair_feature_at((pair_feature)f);
        if (info->kind != PAIR_FLAG)
            continue;
        fputs(at ? ", " : "", fp);
        fig_script_string(fp, info->name);
        fprintf(fp, " %zu", at++);
    }
    fputs(")\nplot ", fp);
    for (size_t k = 0; k < s->nclasses; k++) {
        double off = -0.4 + bw * ((double)k + 0.5);
        fprintf(fp,
                "%s'pair-flags.dat' using ($0+%g):%zu with boxes lc %zu title ",
                k ? ", " : "", off, k + 2, k + 1);
        fig_script_string(fp, study_class_name(s, k));
        fprintf(fp, ", 'pair-flags.dat' using ($0+%g):%zu:(sprintf('%%.3f', $%zu)) "
                    "with labels offset 0,0.7 font ',8' notitle",
                off, k + 2, k + 2);
    }
    putc('\n', fp);
    return ferror(fp) ? -1 : 0;
}

static int add_figures(study *s, void *state, figset *f, tells_error *err)
{
    if (figure_add(f, "pair-overlap", overlap_data, overlap_script, state, s, err) < 0)
        return -1;
    return figure_add(f, "pair-flags", flags_data, flags_script, state, s, err);
}

static void add_page(study *s, void *state, page *pg)
{
    pairs_state *st = state;
    FILE *fp = pg->fp;
    fputs("<h2 id=\"pairs\">How the hypotheses were made from the premises</h2>\n", fp);
    fputs("<p>Word overlap, a hypothesis that is a run of the premise, a negation or a "
          "number the premise lacks, the length difference, and MeSH concepts new to the "
          "hypothesis or more general or specific than the premise's (linked as the "
          "heuristics link them): the best-known shortcuts of "
          "NLI (McCoy et al. 2019; Gururangan et al. 2018), measured on every pair of the "
          "corpus (<code>pairs.tsv</code>, each pair's values in "
          "<code>pairs-examples.tsv</code>; <code>man tells-pairs</code> defines them). "
          "The tests treat a premise's hypotheses as independent; the classifier below, "
          "scored on premises it did not train on, does not need to.</p>\n", fp);
    fputs("<table>\n<tr><th>feature</th><th>test</th><th>p</th>", fp);
    for (size_t k = 0; k < s->nclasses; k++) {
        fputs("<th>", fp);
        html_escape(fp, study_class_name(s, k));
        fputs("</th>", fp);
    }
    fputs("</tr>\n", fp);
    for (size_t f = 0; f < PAIR_NFEATURES; f++) {
        const pair_assoc *a = &st->a[f];
        const pair_feature_info *info = pair_feature_at((pair_feature)f);
        fputs("<tr>", fp);
        page_cell_text(fp, info->name);
        page_cell_text(fp, !a->tested ? "-"
                           : info->kind == PAIR_FLAG ? gof_method_name(a->method)
                                                     : "kruskal_wallis");
        if (a->tested)
            page_cell_p(fp, a->test.p);
        else
            page_cell_text(fp, "-");
        for (size_t k = 0; k < s->nclasses; k++)
            page_cell_num(fp, a->mean[k], info->kind == PAIR_COUNT ? 2 : 3);
        fputs("</tr>\n", fp);
    }
    fputs("</table>\n", fp);
    page_para(pg, "Each class's mean: for a flag, the share of its pairs flagged.");
    page_figure(pg, "pair-overlap", "The share of each hypothesis's words found in its "
                                    "premise, by class: boxes from the first to the third "
                                    "quartile, the median across, whiskers over 99% of the "
                                    "pairs.");
    page_figure(pg, "pair-flags", "The share of each class's pairs that each flag marks; "
                                  "the value is printed on every bar.");
    for (size_t f = 0; f < PAIR_NFEATURES; f++) {
        char check[64];
        snprintf(check, sizeof check, "pair:%s", pair_feature_at((pair_feature)f)->name);
        study_sentence(s, pg, check);
    }
    study_sentence(s, pg, "pair:classifier");
}

static const study_check checks[] = {
    {.name = "pair:FEATURE",
     .definition = "a pair feature (overlap, premise_overlap, all_in_premise, subsequence, "
                   "negation, numbers, length_difference, new_concept, more_general, "
                   "more_specific: man tells-pairs) against the "
                   "label over the corpus; value: Kruskal-Wallis H (shares, counts) or "
                   "Pearson's X^2 of flagged pairs by class (the exact conditional test's "
                   "p when an expected count is under 5); effect: the highest class mean "
                   "(a flag's share) minus the lowest; each class's in detail",
     .yes = "The way the pairs were made tells the class.", .no = "Not significant.",
     .list = CHECK_LIST_ALL},
    {.name = "pair:classifier",
     .definition = "accuracy of a logistic regression over the pair features alone, on the "
                   "study's evaluation (cross-fitted on premise-grouped folds, or trained on "
                   "the training split); reference: the majority class; effect: the "
                   "difference, 95% paired bootstrap interval; exact one-sided McNemar",
     .yes = "The label can be read from how the pair was built, without its words.",
     .no = "Not significant.", .list = CHECK_LIST_ALL},
};

const study_section section_pairs = {
    .name = "pairs",
    .writes = "pairs.tsv and pairs-examples.tsv (tells-pairs): overlap, subsequence, added "
              "negation and numbers, length difference by class, and a classifier over "
              "them against the majority class",
    .needs = RES_CORPUS | RES_EVALUATION | RES_HEURISTICS,
    .provides = 0,
    .state_size = sizeof(pairs_state),
    .run = run,
    .verdicts = add_verdicts,
    .figures = add_figures,
    .page = add_page,
    .free = free_state,
    STUDY_CHECKS(checks),
};
