/* Hypothesis length by class (len.tsv), and whether it tells the class:
   Kruskal-Wallis, as scipy.stats.kruskal with the tie correction. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "stats/describe.h"
#include "stats/ranktest.h"
#include "study/core.h"

typedef struct lengths_state {
    length_table lengths;
    test_result kw;
    bool tested;
} lengths_state;

static int write_lengths(FILE *fp, void *ctx, tells_error *err)
{
    return lengths_write(ctx, true, fp, err);
}

static int run(study *s, void *state, tells_error *err)
{
    lengths_state *st = state;
    length_table *lt = &st->lengths;
    if (lengths_init(lt) < 0)
        return tells_error_nomem(err, NULL, 0);
    if (lengths_add_prepared(lt, s->input, FIELD_HYPOTHESIS, false, err) < 0 ||
        study_write(s, "len.tsv", write_lengths, lt, err) < 0)
        return -1;
    size_t n = 0, k = vocab_size(lt->classes);
    for (size_t c = 0; c < k; c++)
        n += lt->cls[c].n;
    double *x = array_new(n, sizeof *x);
    size_t *g = array_new(n, sizeof *g);
    if (!x || !g) {
        free(x);
        free(g);
        return tells_error_nomem(err, NULL, 0);
    }
    size_t i = 0;
    for (size_t c = 0; c < k; c++)
        for (size_t j = 0; j < lt->cls[c].n; j++) {
            x[i] = lt->cls[c].len[j];
            g[i++] = c;
        }
    int rc = kruskal_wallis(x, g, n, k, &st->kw, err);
    st->tested = rc == 0;
    free(x);
    free(g);
    return rc;
}

static void free_state(void *state)
{
    lengths_state *st = state;
    if (st->lengths.classes)
        lengths_free(&st->lengths);
}

static int add_verdicts(study *s, void *state, verdicts *vs, tells_error *err)
{
    (void)s;
    const lengths_state *st = state;
    if (!st->tested)
        return 0;
    verdict *v = verdicts_add(vs, err, "length");
    if (!v)
        return -1;
    const length_table *lt = &st->lengths;
    size_t k = vocab_size(lt->classes);
    double lo = INFINITY, hi = -INFINITY;
    size_t lo_c = 0, hi_c = 0;
    size_t used = (size_t)snprintf(v->detail, sizeof v->detail, "test=kruskal_wallis df=%g",
                                   st->kw.df);
    size_t *order = vocab_sorted_ids(lt->classes);
    if (!order)
        return tells_error_nomem(err, NULL, 0);
    for (size_t j = 0; j < k; j++) {
        size_t c = order[j];
        double sum = 0;
        for (size_t i = 0; i < lt->cls[c].n; i++)
            sum += lt->cls[c].len[i];
        double mean = lt->cls[c].n ? sum / (double)lt->cls[c].n : NAN;
        if (mean < lo) {
            lo = mean;
            lo_c = c;
        }
        if (mean > hi) {
            hi = mean;
            hi_c = c;
        }
        if (used < sizeof v->detail)
            used += (size_t)snprintf(v->detail + used, sizeof v->detail - used,
                                     " mean_%s=%.3f", vocab_str(lt->classes, c), mean);
    }
    free(order);
    v->value = st->kw.statistic;
    v->effect = hi - lo;
    v->tested = true;
    v->p = st->kw.p;
    char p[64];
    study_pvalue(p, sizeof p, v->p);
    snprintf(v->sentence, sizeof v->sentence,
             "Hypotheses of class %s are longest (%.1f tokens on average) and of class %s "
             "shortest (%.1f): Kruskal-Wallis H = %.1f, p = %s.",
             vocab_str(lt->classes, hi_c), hi, vocab_str(lt->classes, lo_c), lo, v->value, p);
    return 0;
}

/* Box plots, one per class. */
static int length_data(FILE *fp, const void *state, const void *study_p)
{
    const lengths_state *st = state;
    const study *s = study_p;
    const length_table *lt = &st->lengths;
    for (size_t i = 0; i < s->nclasses; i++) {
        const char *name = study_class_name(s, i);
        long c = vocab_find(lt->classes, name, strlen(name));
        fputs("# length\n", fp);
        for (size_t j = 0; c >= 0 && j < lt->cls[c].n; j++)
            fprintf(fp, "%g\n", lt->cls[c].len[j]);
        fputs("\n\n", fp);
    }
    return ferror(fp) ? -1 : 0;
}

static int length_script(FILE *fp, const void *state, const void *study_p)
{
    (void)state;
    study_class_boxes_script(fp, study_p, "length", "'hypothesis length (tokens)'", "[0:*]");
    return ferror(fp) ? -1 : 0;
}

static int add_figures(study *s, void *state, figset *f, tells_error *err)
{
    return figure_add(f, "length", length_data, length_script, state, s, err);
}

static void add_page(study *s, void *state, page *pg)
{
    (void)state;
    fputs("<h2 id=\"length\">Hypothesis length</h2>\n", pg->fp);
    page_figure(pg, "length", "Hypothesis length by class: boxes from the first to the third "
                              "quartile, the median across, whiskers over 99% of the "
                              "hypotheses (<code>len.tsv</code>).");
    study_sentence(s, pg, "length");
}

static const study_check checks[] = {
    {.name = "length",
     .definition = "value: the Kruskal-Wallis H of hypothesis length by class, with the "
                   "tie correction; effect: the longest class's mean length minus the "
                   "shortest's; the class means in detail",
     .yes = "Length tells the class.", .no = "Not significant.", .list = CHECK_LIST_ALL},
};

const study_section section_lengths = {
    .name = "lengths",
    .writes = "len.tsv (tells-len), and the Kruskal-Wallis test of hypothesis length by class",
    .needs = RES_CORPUS,
    .provides = RES_LENGTHS,
    .state_size = sizeof(lengths_state),
    .run = run,
    .verdicts = add_verdicts,
    .figures = add_figures,
    .page = add_page,
    .free = free_state,
    STUDY_CHECKS(checks),
};
