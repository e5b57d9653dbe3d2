/* The hypothesis tokens most associated with each class: PMI (pmi.tsv)
   and the competency test of Gardner et al. 2021 (competency.tsv), whose
   significant token-class pairs are rows of summary.tsv. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "study/sec-tokens.h"

enum { PMI_MIN_COUNT = 5, TOKEN_MIN_COUNT = 5, TOP_TOKENS_DRAWN = 10 };
#define PMI_SMOOTHING 100.0

static int write_pmi(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    const tokens_state *t = ctx;
    return pmi_write(&t->pmi, &t->tokens, STUDY_PMI_TOP, true, fp);
}

static int write_competency(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    const tokens_state *t = ctx;
    return competency_write(fp, &t->comp, &t->tokens, 0, false, 3);
}

static int run(study *s, void *state, tells_error *err)
{
    tokens_state *t = state;
    if (counts_init(&t->tokens, FIELD_HYPOTHESIS) < 0)
        return tells_error_nomem(err, NULL, 0);
    t->tokens.shown = s->gate;
    if (counts_add_prepared(&t->tokens, s->input, false, s->cfg->threads, err) < 0)
        return -1;
    /* The report and pmi.tsv show a class's first STUDY_PMI_TOP tokens. */
    pmi_options po = {.binary = false, .min_count = PMI_MIN_COUNT, .smoothing = PMI_SMOOTHING,
                      .top = STUDY_PMI_TOP};
    if (pmi_compute(&t->tokens, &po, &t->pmi) < 0)
        return tells_error_nomem(err, NULL, 0);
    competency_options co;
    competency_options_default(&co);
    co.class_prior = s->cfg->class_prior;
    co.min_count = TOKEN_MIN_COUNT;
    co.alpha = s->cfg->token_alpha;
    co.exact = true;   /* the exact binomial tail, not the normal approximation */
    if (competency_compute(&t->tokens, &co, &t->comp, err) < 0)
        return -1;
    if (study_write(s, "pmi.tsv", write_pmi, t, err) < 0)
        return -1;
    return study_write(s, "competency.tsv", write_competency, t, err);
}

static void free_state(void *state)
{
    tokens_state *t = state;
    counts_free(&t->tokens);
    pmi_free(&t->pmi);
    competency_free(&t->comp);
}

/* ---- verdicts ---- */

/* A row per significant token-class pair. The screen is a family of its
   own, every pair tried: its q is the Bonferroni-adjusted p, min(1, m p),
   significant as the competency test found it (p <= alpha / m). */
static int add_verdicts(study *s, void *state, verdicts *vs, tells_error *err)
{
    (void)s;
    const tokens_state *ts = state;
    const competency_table *t = &ts->comp;
    for (size_t i = 0; i < t->n; i++) {
        const competency_row *row = &t->rows[i];
        if (!row->significant)
            continue;
        const char *tok = counts_token_shown(&ts->tokens, row->token);
        const char *cls = vocab_str(ts->tokens.classes, row->class_id);
        verdict *v = verdicts_add(vs, err, "token:%s:%s", tok, cls);
        if (!v)
            return -1;
        v->value = row->p_hat;
        v->reference = row->p0;
        v->effect = row->p_hat - row->p0;
        v->tested = true;
        v->p = row->p;
        v->direction_ok = row->z > 0;
        v->family = FAMILY_TOKENS;
        v->family_size = t->tested;
        v->q = pvalue_scale(row->p, (double)t->tested);
        v->significant = v->direction_ok;
        long long k = llround(row->p_hat * (double)row->n);
        snprintf(v->detail, sizeof v->detail,
                 "test=competency_exact_binomial n=%llu k=%lld z=%.6f bonferroni_m=%zu "
                 "threshold=%.3g",
                 (unsigned long long)row->n, k, row->z, t->tested, t->threshold);
        char p[64];
        study_pvalue(p, sizeof p, v->p);
        snprintf(v->sentence, sizeof v->sentence,
                 "'%s' is in %llu hypotheses, %.0f%% of them %s (%.0f%% expected): z = %.1f, "
                 "exact binomial p = %s.", tok, (unsigned long long)row->n, 100 * row->p_hat, cls,
                 100 * row->p0, row->z, p);
    }
    return 0;
}

/* In the list of verdicts: how many pairs, and the strongest five. */
static void verdict_lines(study *s, void *state, page *pg)
{
    const tokens_state *ts = state;
    const competency_table *t = &ts->comp;
    FILE *fp = pg->fp;
    size_t ntok = 0;
    for (size_t i = 0; i < s->v.n; i++)
        ntok += strncmp(s->v.v[i].check, "token:", 6) == 0;
    fprintf(fp, "<li>%zu token-class pair%s of the %zu tested favour a class significantly "
                "(competency test)%s",
            ntok, ntok == 1 ? "" : "s", t->tested, ntok ? "; the strongest: " : ".");
    if (ntok) {
        /* The five largest z among the significant rows. */
        size_t pick[5];
        size_t npick = 0;
        for (size_t round = 0; round < 5; round++) {
            size_t best = t->n;
            for (size_t i = 0; i < t->n; i++) {
                const competency_row *row = &t->rows[i];
                bool used = false;
                for (size_t j = 0; j < npick; j++)
                    used |= pick[j] == i;
                if (!row->significant || used)
                    continue;
                if (best == t->n || row->z > t->rows[best].z)
                    best = i;
            }
            if (best == t->n)
                break;
            pick[npick++] = best;
        }
        for (size_t j = 0; j < npick; j++) {
            const competency_row *row = &t->rows[pick[j]];
            fputs(j ? ", " : "", fp);
            fputs("&lsquo;", fp);
            html_escape(fp, counts_token_shown(&ts->tokens, row->token));
            fputs("&rsquo; for ", fp);
            html_escape(fp, vocab_str(ts->tokens.classes, row->class_id));
            fprintf(fp, " (%.0f%% of %llu)", 100 * row->p_hat, (unsigned long long)row->n);
        }
        fputs(".", fp);
    }
    fputs("</li>\n", fp);
}

/* ---- figures ---- */

/* The top tokens of each class by PMI: one panel per class. */
static int tokens_data(FILE *fp, const void *state, const void *unused)
{
    (void)unused;
    const tokens_state *t = state;
    for (size_t i = 0; i < t->pmi.nclasses; i++) {
        const pmi_class *pc = &t->pmi.classes[i];
        size_t top = pc->n < TOP_TOKENS_DRAWN ? pc->n : TOP_TOKENS_DRAWN;
        fputs("# rank\ttoken\tpmi\n", fp);
        /* Bottom to top: the strongest drawn highest. */
        for (size_t j = top; j-- > 0;) {
            fprintf(fp, "%zu\t", top - 1 - j);
            fig_label_string(fp, counts_token_shown(&t->tokens, pc->entries[j].token),
                             FIG_LABEL_CHARS);
            fprintf(fp, "\t%.6f\n", pc->entries[j].pmi);
        }
        fputs("\n\n", fp);
    }
    return ferror(fp) ? -1 : 0;
}

static int tokens_script(FILE *fp, const void *state, const void *unused)
{
    (void)unused;
    const tokens_state *t = state;
    size_t k = t->pmi.nclasses;
    double lo = 0, hi = 0;
    for (size_t i = 0; i < k; i++) {
        const pmi_class *pc = &t->pmi.classes[i];
        for (size_t j = 0; j < pc->n && j < TOP_TOKENS_DRAWN; j++) {
            lo = fmin(lo, pc->entries[j].pmi);
            hi = fmax(hi, pc->entries[j].pmi);
        }
    }
    fig_panels_head(fp, "tokens", k, "PMI (bits)", lo, hi);
    for (size_t i = 0; i < k; i++)
        fig_panel(fp, "tokens", vocab_str(t->tokens.classes, t->pmi.classes[i].class_id), i);
    fputs("unset multiplot\n", fp);
    return ferror(fp) ? -1 : 0;
}

/* The competency plot: p_hat against n, one panel per class. */
static int competency_data(FILE *fp, const void *state, const void *study_p)
{
    const tokens_state *ts = state;
    const study *s = study_p;
    const competency_table *t = &ts->comp;
    for (size_t k = 0; k < s->nclasses; k++) {
        const char *name = study_class_name(s, k);
        long cls = vocab_find(ts->tokens.classes, name, strlen(name));
        fputs("# n\tp_hat\tsignificant\ttoken\n", fp);
        for (size_t i = 0; i < t->n; i++) {
            const competency_row *row = &t->rows[i];
            if (cls < 0 || row->class_id != (size_t)cls)
                continue;
            fprintf(fp, "%llu\t%.6f\t%d\t", (unsigned long long)row->n, row->p_hat,
                    row->significant);
            fig_data_string(fp, counts_token_shown(&ts->tokens, row->token));
            putc('\n', fp);
        }
        fputs("\n\n", fp);
    }
    return ferror(fp) ? -1 : 0;
}

/* ... and the significance boundary p0 + z* sqrt(p0 (1 - p0) / n). */
static int competency_script(FILE *fp, const void *state, const void *study_p)
{
    const tokens_state *ts = state;
    const study *s = study_p;
    size_t k = s->nclasses;
    const competency_table *t = &ts->comp;
    double nmax = 10;
    for (size_t i = 0; i < t->n; i++)
        if ((double)t->rows[i].n > nmax)
            nmax = (double)t->rows[i].n;
    fig_script_head(fp, "competency", 300 * (int)(k < 4 ? k : 4), 340);
    fprintf(fp, "set multiplot layout 1,%zu\n"
                "set logscale x\nset xrange [%d:%g]\nset yrange [0:1]\n"
                "set xlabel 'examples with the token (n)'\nset ylabel 'share of them in the "
                "class'\nunset key\n",
            k, 1, nmax * 1.5);
    double z = t->tested ? competency_critical_z(t->threshold) : 0;
    for (size_t i = 0; i < k; i++) {
        size_t c = study_class(s, i);
        double p0 = s->cfg->class_prior ? (double)s->class_n[c] / (double)s->data.n
                                        : 1.0 / (double)k;
        fputs("set title ", fp);
        fig_script_string(fp, study_label(s, c));
        fprintf(fp, "\np0 = %.9g\nzs = %.9g\n"
                    "plot 'competency.dat' index %zu using 1:($3 == 0 ? $2 : 1/0) "
                    "with points pt 7 ps 0.3 lc rgb '#9a9a9a' title 'not significant', \\\n"
                    "     '' index %zu using 1:($3 == 1 ? $2 : 1/0) with points pt 7 "
                    "ps 0.5 lc %zu title 'significant', \\\n"
                    "     p0 + zs * sqrt(p0 * (1 - p0) / x) with lines lw 2 lc rgb '#1f4e9a' "
                    "title 'boundary', p0 with lines dt 2 lc rgb '#555555' title 'p0'\n",
                p0, z, i, i, i + 1);
    }
    fputs("unset multiplot\n", fp);
    return ferror(fp) ? -1 : 0;
}

static int add_figures(study *s, void *state, figset *f, tells_error *err)
{
    if (figure_add(f, "tokens", tokens_data, tokens_script, state, s, err) < 0)
        return -1;
    return figure_add(f, "competency", competency_data, competency_script, state, s, err);
}

/* ---- page ---- */

static void pmi_table_rows(const tokens_state *t, FILE *fp)
{
    for (size_t i = 0; i < t->pmi.nclasses; i++) {
        const pmi_class *pc = &t->pmi.classes[i];
        for (size_t j = 0; j < pc->n && j < STUDY_PMI_TOP; j++) {
            fputs("<tr>", fp);
            page_cell_text(fp, vocab_str(t->tokens.classes, pc->class_id));
            page_cell_text(fp, counts_token_shown(&t->tokens, pc->entries[j].token));
            page_cell_num(fp, pc->entries[j].pmi, 3);
            fprintf(fp, "<td class=\"n\">%llu</td>", (unsigned long long)pc->entries[j].count);
            page_cell_num(fp, pc->entries[j].class_share, 3);
            fputs("</tr>\n", fp);
        }
    }
}

static void competency_table_rows(const tokens_state *t, FILE *fp)
{
    size_t shown = 0;
    for (size_t i = 0; i < t->comp.n && shown < 40; i++) {
        const competency_row *row = &t->comp.rows[i];
        if (!row->significant)
            continue;
        shown++;
        fputs("<tr>", fp);
        page_cell_text(fp, vocab_str(t->tokens.classes, row->class_id));
        page_cell_text(fp, counts_token_shown(&t->tokens, row->token));
        fprintf(fp, "<td class=\"n\">%llu</td>", (unsigned long long)row->n);
        page_cell_num(fp, row->p_hat, 3);
        page_cell_num(fp, row->z, 2);
        page_cell_p(fp, row->p);
        fputs("</tr>\n", fp);
    }
    if (shown == 0)
        fputs("<tr><td colspan=\"6\">No token favours a class significantly.</td></tr>\n", fp);
}

static void add_page(study *s, void *state, page *pg)
{
    (void)s;
    const tokens_state *t = state;
    FILE *fp = pg->fp;
    fputs("<h2 id=\"tokens\">Tokens</h2>\n<p>The hypothesis tokens most associated with each "
          "class by PMI (add-100 smoothing, tokens in at least 5 hypotheses; "
          "<code>pmi.tsv</code>).</p>\n",
          fp);
    page_figure(pg, "tokens", "Top tokens per class by PMI.");
    fputs("<table>\n<tr><th>class</th><th>token</th><th>PMI</th><th>count</th>"
          "<th>share of the class</th></tr>\n",
          fp);
    pmi_table_rows(t, fp);
    fputs("</table>\n<p>The competency test (Gardner et al. 2021): for a token in n "
          "hypotheses, a share p&#770; of them in a class, z = (p&#770; &minus; p0) / "
          "&radic;(p0 (1 &minus; p0) / n) against p0 the share it would have if it said "
          "nothing of the label. Its p-value is the exact binomial tail, the chance of "
          "that many of the n hypotheses or more in the class if each were in it with "
          "probability p0, not the normal approximation's; a token favours the class "
          "significantly when it is at most the level over the pairs tested "
          "(Bonferroni; <code>competency.tsv</code>).</p>\n",
          fp);
    page_figure(pg, "competency", "Share of the hypotheses holding a token that are of the "
                                  "class, against how many hold it (log scale): coloured "
                                  "points are significant, grey ones not; the solid line is "
                                  "the normal approximation's significance boundary (the "
                                  "exact test decides, so a point near it may fall either "
                                  "side), the dashed one p0.");
    fputs("<table>\n<tr><th>class</th><th>token</th><th>n</th><th>p&#770;</th><th>z</th>"
          "<th>p</th></tr>\n",
          fp);
    competency_table_rows(t, fp);
    fputs("</table>\n", fp);
}

static const study_check checks[] = {
    {.name = "token:W:CLASS",
     .definition = "every token-class pair significant by the competency test of Gardner "
                   "et al. 2021, over the tokens of 5 hypotheses or more: value p_hat, "
                   "the share of the n hypotheses with W that are of CLASS; reference p0 "
                   "= 1/classes (the class's share with --class-prior); z = (p_hat - p0) "
                   "/ sqrt(p0 (1 - p0) / n); p: the exact binomial tail P(X >= k), X ~ "
                   "Binomial(n, p0), k = p_hat n (tells-pmi --exact), not the normal "
                   "P(Z >= z); significant when p <= --token-alpha / m, m the pairs tested "
                   "(Bonferroni); q: min(1, m p), the screen's own family, apart from the "
                   "primary checks'",
     .list = CHECK_LIST_NONE, .own_table = "tokens"},
};

const study_section section_tokens = {
    .name = "tokens",
    .writes = "pmi.tsv: the 15 tokens of each class with the highest PMI (tells-pmi -k 100); "
              "competency.tsv: the competency test of every token in 5 hypotheses or more "
              "(tells-pmi --measure z --exact --all -m 5)",
    .needs = RES_CORPUS,
    .provides = RES_TOKENS,
    .state_size = sizeof(tokens_state),
    .run = run,
    .verdicts = add_verdicts,
    .figures = add_figures,
    .page = add_page,
    .verdict_lines = verdict_lines,
    .free = free_state,
    STUDY_CHECKS(checks),
};
