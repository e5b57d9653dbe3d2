/* The tokens that set each class apart from the others: the log-odds
   ratio with an informative Dirichlet prior, the corpus's own counts
   (Monroe et al. 2008; logodds.tsv, as tells-pmi --measure logodds). */
#include <config.h>

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "stats/logodds.h"
#include "study/sec-tokens.h"

enum { TOP_TOKENS_DRAWN = 10 };

typedef struct logodds_state {
    logodds_table logodds;     /* the corpus's own prior, tokens seen 5 times */
} logodds_state;

extern const study_section section_logodds;

static int write_logodds(FILE *fp, void *study_p, tells_error *err)
{
    (void)err;
    const study *s = study_p;
    const logodds_state *l = study_state(s, &section_logodds);
    return logodds_write(fp, &l->logodds, &study_tokens(s)->tokens, STUDY_PMI_TOP);
}

static int run(study *s, void *state, tells_error *err)
{
    logodds_state *l = state;
    logodds_options lo = {.min_count = STUDY_MIN_COUNT, .prior_scale = 1.0,
                          .top = STUDY_PMI_TOP};
    if (logodds_compute(&study_tokens(s)->tokens, &lo, &l->logodds, err) < 0)
        return -1;
    return study_write(s, "logodds.tsv", write_logodds, s, err);
}

static void free_state(void *state)
{
    logodds_state *l = state;
    logodds_free(&l->logodds);
}

/* Each class's top token, untested. */
static int add_verdicts(study *s, void *state, verdicts *vs, tells_error *err)
{
    const logodds_state *l = state;
    const token_counts *tc = &study_tokens(s)->tokens;
    verdict *v = verdicts_add(vs, err, "logodds");
    if (!v)
        return -1;
    size_t used = (size_t)snprintf(v->detail, sizeof v->detail, "prior=corpus min_count=%d",
                                   STUDY_MIN_COUNT);
    char top[512] = "";
    size_t tused = 0;
    for (size_t i = 0; i < l->logodds.n; i++) {
        const logodds_row *row = &l->logodds.rows[i];
        if (i && l->logodds.rows[i - 1].class_id == row->class_id)
            continue;
        const char *tok = counts_token_shown(tc, row->token);
        const char *cls = vocab_str(tc->classes, row->class_id);
        if (used < sizeof v->detail)
            used += (size_t)snprintf(v->detail + used, sizeof v->detail - used,
                                     " top_%s=%s z_%s=%.6f", cls, tok, cls, row->z);
        if (tused < sizeof top)
            tused += (size_t)snprintf(top + tused, sizeof top - tused, "%s'%s' for %s "
                                      "(z = %.1f)", tused ? ", " : "", tok, cls, row->z);
    }
    snprintf(v->sentence, sizeof v->sentence,
             "By the log-odds ratio with an informative prior (Monroe et al. 2008), the "
             "token that most sets each class apart is %s.", tused ? top : "none");
    return 0;
}

/* The top tokens of each class by z: one panel per class. */
static int logodds_data(FILE *fp, const void *state, const void *study_p)
{
    const logodds_state *l = state;
    const token_counts *tc = &study_tokens(study_p)->tokens;
    const logodds_table *t = &l->logodds;
    for (size_t i = 0; i < t->n;) {
        size_t end = i;
        while (end < t->n && t->rows[end].class_id == t->rows[i].class_id)
            end++;
        size_t top = end - i < TOP_TOKENS_DRAWN ? end - i : TOP_TOKENS_DRAWN;
        fputs("# rank\ttoken\tz\n", fp);
        for (size_t j = top; j-- > 0;) {
            fprintf(fp, "%zu\t", top - 1 - j);
            fig_label_string(fp, counts_token_shown(tc, t->rows[i + j].token), FIG_LABEL_CHARS);
            fprintf(fp, "\t%.6f\n", t->rows[i + j].z);
        }
        fputs("\n\n", fp);
        i = end;
    }
    return ferror(fp) ? -1 : 0;
}

static int logodds_script(FILE *fp, const void *state, const void *study_p)
{
    const logodds_state *l = state;
    const token_counts *tc = &study_tokens(study_p)->tokens;
    const logodds_table *t = &l->logodds;
    size_t k = 0, rank = 0;
    double lo = 0, hi = 0;
    for (size_t i = 0; i < t->n; i++) {
        bool first = i == 0 || t->rows[i - 1].class_id != t->rows[i].class_id;
        k += first;
        rank = first ? 0 : rank + 1;
        if (rank < TOP_TOKENS_DRAWN) {
            lo = fmin(lo, t->rows[i].z);
            hi = fmax(hi, t->rows[i].z);
        }
    }
    fig_panels_head(fp, "logodds", k, "log-odds z", lo, hi);
    for (size_t i = 0, block = 0; i < t->n; i++)
        if (i == 0 || t->rows[i - 1].class_id != t->rows[i].class_id)
            fig_panel(fp, "logodds", vocab_str(tc->classes, t->rows[i].class_id), block++);
    fputs("unset multiplot\n", fp);
    return ferror(fp) ? -1 : 0;
}

static int add_figures(study *s, void *state, figset *f, tells_error *err)
{
    return figure_add(f, "logodds", logodds_data, logodds_script, state, s, err);
}

static void add_page(study *s, void *state, page *pg)
{
    const logodds_state *l = state;
    const token_counts *tc = &study_tokens(s)->tokens;
    FILE *fp = pg->fp;
    fputs("<h2 id=\"logodds\">Log-odds</h2>\n<p>The tokens that set each class apart from "
          "the others by the log-odds ratio with an informative Dirichlet prior (Monroe et "
          "al. 2008; the prior is the corpus's own counts, tokens seen at least 5 times): "
          "z weighs the difference in log-odds by its variance, fair to rare and frequent "
          "tokens alike (<code>logodds.tsv</code>).</p>\n",
          fp);
    page_figure(pg, "logodds", "Top tokens per class by log-odds z.");
    fputs("<table>\n<tr><th>class</th><th>token</th><th>count</th><th>&delta;</th>"
          "<th>z</th></tr>\n",
          fp);
    size_t in_class = 0;
    for (size_t i = 0; i < l->logodds.n; i++) {
        const logodds_row *row = &l->logodds.rows[i];
        in_class = i && l->logodds.rows[i - 1].class_id == row->class_id ? in_class + 1 : 0;
        if (in_class >= 5)
            continue;
        fputs("<tr>", fp);
        page_cell_text(fp, vocab_str(tc->classes, row->class_id));
        page_cell_text(fp, counts_token_shown(tc, row->token));
        fprintf(fp, "<td class=\"n\">%llu</td>", (unsigned long long)row->count);
        page_cell_num(fp, row->delta, 3);
        page_cell_num(fp, row->z, 2);
        fputs("</tr>\n", fp);
    }
    fputs("</table>\n", fp);
}

static const study_check checks[] = {
    {.name = "logodds",
     .definition = "untested: each class's top token by the log-odds ratio with the "
                   "corpus as its Dirichlet prior (Monroe et al. 2008), in detail",
     .list = CHECK_LIST_NONE},
};

const study_section section_logodds = {
    .name = "logodds",
    .writes = "logodds.tsv (tells-pmi --measure logodds, the corpus as its prior, tokens "
              "seen 5 times or more)",
    .needs = RES_TOKENS,
    .provides = RES_LOGODDS,
    .state_size = sizeof(logodds_state),
    .run = run,
    .verdicts = add_verdicts,
    .figures = add_figures,
    .page = add_page,
    .free = free_state,
    STUDY_CHECKS(checks),
};
