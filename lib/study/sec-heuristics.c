/* The annotator heuristics (hypernym, probable cause, everything is fine,
   and the user's), each tested for telling the class: heur.tsv and
   heur-pairs.tsv as tells-heur writes them. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "study/sec-heuristics.h"

static int run(study *s, void *state, tells_error *err)
{
    heuristics_state *h = state;
    if (heuristic_set_open(&h->hs, &s->cfg->heur, err) < 0)
        return -1;
    h->open = true;
    char *pairs = study_path(s, "heur-pairs.tsv", err);
    if (!pairs)
        return -1;
    out_file po;
    int rc = out_open(&po, pairs, err);
    free(pairs);
    if (rc < 0)
        return -1;
    heur_count_options o = {.pairs = po.fp};
    char *input = (char *)s->input;
    if (heur_count_files(&h->hs, &input, 1, &o, &h->tally, err) < 0) {
        out_abort(&po);
        return -1;
    }
    if (out_commit(&po, err) < 0)
        return -1;
    /* The null of "does the heuristic shift the label distribution": the
       corpus's own class shares, whatever --class-prior says (it is the
       competency test's). */
    heur_table t = {&h->hs, &h->tally, EXPECT_CLASS_PRIOR, 2, s->cfg->seed};
    if (study_write(s, "heur.tsv", heur_table_write, &t, err) < 0)
        return -1;
    h->heur = array_new(h->hs.n, sizeof *h->heur);
    if (!h->heur)
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < h->hs.n; i++)
        if (heur_test(&h->tally, i, EXPECT_CLASS_PRIOR, s->cfg->seed, &h->heur[i], err) < 0)
            return -1;
    return 0;
}

static void free_state(void *state)
{
    heuristics_state *h = state;
    if (h->open)
        heuristic_set_free(&h->hs);
    heur_tally_free(&h->tally);
    free(h->heur);
}

/* The test of a heuristic's row: in detail, and in its sentence. */
static const char *test_detail(gof_method m)
{
    return m == GOF_EXACT         ? "exact_multinomial_class_prior"
           : m == GOF_MONTE_CARLO ? "monte_carlo_multinomial_class_prior"
                                  : "chi2_class_prior";
}

static const char *test_words(gof_method m)
{
    return m == GOF_EXACT         ? "exact multinomial"
           : m == GOF_MONTE_CARLO ? "exact multinomial (Monte Carlo)"
                                  : "chi-squared";
}

static int add_verdicts(study *s, void *state, verdicts *vs, tells_error *err)
{
    (void)s;
    const heuristics_state *h = state;
    for (size_t i = 0; i < h->hs.n; i++) {
        const heur_result *hr = &h->heur[i];
        const char *name = h->hs.v[i].name;
        verdict *v = verdicts_add(vs, err, "heuristic:%s", name);
        if (!v)
            return -1;
        v->value = (double)hr->n;
        const char *top = hr->n ? vocab_str(h->tally.classes, hr->top) : "-";
        if (!hr->tested) {
            snprintf(v->detail, sizeof v->detail, "pairs=%llu", (unsigned long long)hr->n);
            snprintf(v->sentence, sizeof v->sentence,
                     "The %s heuristic holds for %llu pairs: too few to test.", name,
                     (unsigned long long)hr->n);
            continue;
        }
        v->reference = hr->top_expected;
        v->effect = hr->top_share - v->reference;
        v->tested = true;
        v->p = hr->test.p;
        snprintf(v->detail, sizeof v->detail,
                 "test=%s chi2=%.6f df=%g top_class=%s top_share=%.6f",
                 test_detail(hr->method), hr->test.statistic, hr->test.df, top,
                 hr->top_share);
        char p[64];
        study_pvalue(p, sizeof p, v->p);
        snprintf(v->sentence, sizeof v->sentence,
                 "The %s heuristic holds for %llu pairs, %.0f%% of them %s (%.0f%% of the "
                 "corpus, if it said nothing of the label): %s p = %s.",
                 name, (unsigned long long)hr->n, 100 * hr->top_share, top,
                 100 * v->reference, test_words(hr->method), p);
    }
    return 0;
}

/* Each heuristic's pairs by class. */
static int heuristics_data(FILE *fp, const void *state, const void *study_p)
{
    const heuristics_state *h = state;
    const study *s = study_p;
    study_class_header(fp, s, "heuristic");
    for (size_t i = 0; i < h->hs.n; i++) {
        fig_label_string(fp, h->hs.v[i].name, FIG_LABEL_CHARS);
        uint64_t total = 0;
        for (size_t k = 0; k < vocab_size(h->tally.classes); k++)
            total += h->tally.count[k * h->tally.nheur + i];
        for (size_t k = 0; k < s->nclasses; k++) {
            const char *name = study_class_name(s, k);
            long c = vocab_find(h->tally.classes, name, strlen(name));
            uint64_t n = c >= 0 ? h->tally.count[(size_t)c * h->tally.nheur + i] : 0;
            fprintf(fp, "\t%.6f", total ? (double)n / (double)total : 0.0);
        }
        putc('\n', fp);
    }
    return ferror(fp) ? -1 : 0;
}

/* The names tilted, so that long ones keep clear of each other; the
   figure widens with the heuristics. */
static int heuristics_script(FILE *fp, const void *state, const void *study_p)
{
    const heuristics_state *h = state;
    const study *s = study_p;
    size_t w = 240 + 70 * h->hs.n;
    fig_script_head(fp, "heuristics", (int)(w < 560 ? 560 : w > 1600 ? 1600 : w), 380);
    fputs("set style data histograms\nset style histogram rowstacked\nset boxwidth 0.6\n"
          "set yrange [0:1]\nset ylabel 'share of the pairs it holds for'\n"
          "set key outside right\nset xtics rotate by -30 left\nset bmargin 5\n",
          fp);
    fprintf(fp, "plot for [c=2:%zu] 'heuristics.dat' using c:xtic(1) title columnhead lc (c-1)\n",
            s->nclasses + 1);
    return ferror(fp) ? -1 : 0;
}

static int add_figures(study *s, void *state, figset *f, tells_error *err)
{
    const heuristics_state *h = state;
    if (h->hs.n == 0)
        return 0;
    return figure_add(f, "heuristics", heuristics_data, heuristics_script, state, s, err);
}

static void add_page(study *s, void *state, page *pg)
{
    (void)s;
    const heuristics_state *h = state;
    FILE *fp = pg->fp;
    fputs("<h2 id=\"heuristics\">Annotator heuristics</h2>\n", fp);
    if (h->hs.n == 0) {
        fputs("<p>No heuristic was defined.</p>\n", fp);
        return;
    }
    fputs("<p>Does a heuristic shift the label distribution? Its pairs' classes against "
          "the corpus's class shares: chi-squared, or the exact multinomial test when a "
          "class expects fewer than 5 of them (<code>heur.tsv</code>'s "
          "<code>test</code>).</p>\n",
          fp);
    fputs("<table>\n<tr><th>heuristic</th><th>pairs</th><th>most in</th><th>share</th>"
          "<th>in the corpus</th><th>p</th><th>test</th></tr>\n",
          fp);
    for (size_t i = 0; i < h->hs.n; i++) {
        const heur_result *hr = &h->heur[i];
        fputs("<tr>", fp);
        page_cell_text(fp, h->hs.v[i].name);
        fprintf(fp, "<td class=\"n\">%llu</td>", (unsigned long long)hr->n);
        if (hr->tested) {
            page_cell_text(fp, vocab_str(h->tally.classes, hr->top));
            page_cell_num(fp, hr->top_share, 3);
            page_cell_num(fp, hr->top_expected, 3);
            page_cell_p(fp, hr->test.p);
            page_cell_text(fp, gof_method_name(hr->method));
        } else
            fputs("<td>-</td><td>-</td><td>-</td><td>-</td><td>-</td>", fp);
        fputs("</tr>\n", fp);
    }
    fputs("</table>\n", fp);
    page_figure(pg, "heuristics", "The classes of the pairs each heuristic holds for "
                                  "(<code>heur.tsv</code>, <code>heur-pairs.tsv</code>).");
}

static const study_check checks[] = {
    {.name = "heuristic:NAME",
     .definition = "value: the pairs the heuristic holds for; reference: the corpus's "
                   "share of the class most of them are in; effect: that class's share of "
                   "the pairs minus it; p: goodness of fit of the pairs' classes to the "
                   "corpus's class shares (whatever --class-prior), chi-squared, or the "
                   "exact multinomial test when a class expects fewer than 5 pairs "
                   "(enumerated, or 100,000 draws seeded with --seed past 1,000,000 "
                   "outcomes); no pair: untested",
     .yes = "The heuristic tells the class.", .no = "Not significant.",
     .list = CHECK_LIST_ALL},
};

const study_section section_heuristics = {
    .name = "heuristics",
    .writes = "heur.tsv and heur-pairs.tsv (tells-heur --expected class-prior with the "
              "built-in definitions and -H files)",
    .needs = RES_CORPUS,
    .provides = RES_HEURISTICS,
    .state_size = sizeof(heuristics_state),
    .run = run,
    .verdicts = add_verdicts,
    .figures = add_figures,
    .page = add_page,
    .free = free_state,
    STUDY_CHECKS(checks),
};
