#include <config.h>
#include "study/provenance.h"
#include "study/report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include "study/core.h"

/* ---- which check a row of summary.tsv is ---- */

/* A name whose part after its first colon is in capitals is a pattern:
   "token:W:CLASS" names every row starting "token:"; any other name
   ("pair:classifier") names one row, and a pattern leaves that row to it
   (so "pair:FEATURE" names "pair:overlap", not "pair:classifier"). */
static bool is_pattern(const study_check *c)
{
    const char *colon = strchr(c->name, ':');
    return colon && colon[1] >= 'A' && colon[1] <= 'Z';
}

static bool exact_check(const study *s, const char *row)
{
    for (size_t i = 0; i < s->nsections; i++)
        for (size_t k = 0; k < s->sections[i]->nchecks; k++) {
            const study_check *c = &s->sections[i]->checks[k];
            if (!is_pattern(c) && strcmp(row, c->name) == 0)
                return true;
        }
    return false;
}

static bool check_names_in(const study *s, const study_check *c, const char *row)
{
    if (!is_pattern(c))
        return strcmp(row, c->name) == 0;
    size_t prefix = strcspn(c->name, ":") + 1;
    return strncmp(row, c->name, prefix) == 0 && !exact_check(s, row);
}

/* The description of the row named row, or NULL. */
static const study_check *check_of(const study *s, const char *row)
{
    for (size_t i = 0; i < s->nsections; i++)
        for (size_t k = 0; k < s->sections[i]->nchecks; k++)
            if (check_names_in(s, &s->sections[i]->checks[k], row))
                return &s->sections[i]->checks[k];
    return NULL;
}

/* ---- the page's frame ---- */

static void put_header(const study *s, page *pg)
{
    FILE *fp = pg->fp;
    fputs("<h1>Annotation artifacts in ", fp);
    html_escape(fp, s->name);
    fputs("</h1>\n", fp);
    if (s->cfg->redact)
        fprintf(fp, "<p class=\"redacted\"><strong>Redacted for sharing.</strong> No premise "
                "or hypothesis text is in this page or its folder. A token is named only when "
                "it occurs in examples of at least %zu different premises (K = %zu); the "
                "others read <code>" REDACT_WITHHELD "</code>, with their numbers. %s The "
                "prepared corpus, the batches, heur-pairs.tsv and hypothesis.npy are left "
                "out, and paths are cut to file names. Before the folder was written, the "
                "leak check (tells-leaks) found no run of %d words of the corpus in it and no "
                "word of fewer than %zu premises.</p>\n",
                s->cfg->min_examples, s->cfg->min_examples,
                s->cfg->id_key ? "Example ids are keyed hashes (HMAC-SHA256 with a key kept "
                                 "by whoever made the study)."
                               : "Example ids are the corpus's own.",
                REDACT_NGRAM, s->cfg->min_examples);
    fprintf(fp, "<p>%zu examples in %zu split%s (", s->data.n,
            vocab_size(s->data.splits), vocab_size(s->data.splits) == 1 ? "" : "s");
    for (size_t i = 0; i < vocab_size(s->data.splits); i++) {
        if (i)
            fputs(", ", fp);
        html_escape(fp, vocab_str(s->data.splits, i));
        fprintf(fp, " %zu", dataset_split_size(&s->data, vocab_str(s->data.splits, i)));
    }
    fprintf(fp, "), %zu classes (", s->nclasses);
    for (size_t k = 0; k < s->nclasses; k++) {
        if (k)
            fputs(", ", fp);
        html_escape(fp, study_class_name(s, k));
        fprintf(fp, " %zu", s->class_n[study_class(s, k)]);
    }
    fputs("). Models are ", fp);
    if (s->cv) {
        fprintf(fp, "scored by %zu-fold cross-validation over ", s->folds);
        if (strcmp(s->train, "all") == 0)
            fputs("every example", fp);
        else {
            fputs("split ", fp);
            html_escape(fp, s->train);
        }
    } else {
        fputs("trained on split ", fp);
        html_escape(fp, s->train);
        fputs(" and scored on split ", fp);
        html_escape(fp, s->eval);
    }
    fprintf(fp, " (%zu examples). Significance: Benjamini-Hochberg at q &le; %g over the %zu "
                "primary check%s of the study; tokens by the competency test (Gardner et al. "
                "2021), a family of their own, Bonferroni at %g over every token-class pair "
                "tested; a new batch's tests in the audit's own family.</p>\n",
            s->neval, s->v.alpha, s->v.family, s->v.family == 1 ? "" : "s",
            s->cfg->token_alpha);
}

/* A verdict as a sentence and what it means; red marks a shortcut found,
   green one not found (or the reverse when significance is good news). */
static void put_sentence(page *pg, const verdict *v, const study_check *c)
{
    FILE *fp = pg->fp;
    fputs("<li>", fp);
    html_escape(fp, v->sentence);
    if (v->tested) {
        char q[128];
        verdict_q_text(v, q, sizeof q);
        bool bad = v->significant != c->good_if_significant;
        fprintf(fp, " <span class=\"%s\">%s</span> (%s).", bad ? "yes" : "no",
                v->significant ? c->yes : c->no, q);
    }
    fputs("</li>\n", fp);
}

/* The batches audited, each with its significant findings and warnings
   (rows audit:NAME:CHECK), under the headline. */
static void put_batches(const study *s, page *pg)
{
    if (s->cfg->nbatches == 0)
        return;
    FILE *fp = pg->fp;
    fprintf(fp, "<p>New batch%s audited against the corpus:", s->cfg->nbatches == 1 ? "" : "es");
    for (size_t b = 0; b < s->cfg->nbatches; b++) {
        const char *name = study_batch_name(s->cfg->batches[b]);
        size_t nl = strlen(name), found = 0, warnings = 0;
        for (size_t i = 0; i < s->v.n; i++) {
            const verdict *v = &s->v.v[i];
            if (strncmp(v->check, "audit:", 6) != 0 || strncmp(v->check + 6, name, nl) != 0 ||
                v->check[6 + nl] != ':')
                continue;
            found += v->significant;
            warnings += strcmp(v->check + 7 + nl, "shared_ids") == 0 && v->value > 0;
        }
        fputs(b ? "; " : " ", fp);
        html_escape(fp, name);
        fprintf(fp, ", %zu significant finding%s", found, found == 1 ? "" : "s");
        if (warnings)
            fputs(" and a warning: it repeats corpus rows", fp);
    }
    fputs(" (the <a href=\"#audit\">New batches</a> section).</p>\n", fp);
}

/* The headline: the first check that gives one, by its row. */
static void put_headline(const study *s, page *pg)
{
    for (size_t i = 0; i < s->v.n; i++) {
        const study_check *c = check_of(s, s->v.v[i].check);
        if (!c || !c->headline_yes)
            continue;
        bool found = s->v.v[i].significant;
        /* A "no" from a degenerate model is no all-clear: said at once. */
        bool warned = strstr(s->v.v[i].detail, "warning=model_warning:") != NULL;
        fprintf(pg->fp, "<p class=\"headline %s\">%s%s</p>\n",
                found ? "found" : warned ? "warned" : "clear",
                found ? c->headline_yes : c->headline_no,
                !found && warned ? " But the model it rests on is degenerate (see the "
                                   "model_warning rows below): this is no evidence that "
                                   "there is no shortcut." : "");
        break;
    }
    put_batches(s, pg);
}

static void put_verdicts(study *s, page *pg)
{
    FILE *fp = pg->fp;
    fputs("<h2 id=\"verdicts\">Verdicts</h2>\n", fp);
    put_headline(s, pg);
    fputs("<ul>\n", fp);
    for (size_t i = 0; i < s->nsections; i++) {
        const study_section *sec = s->sections[i];
        for (size_t k = 0; k < sec->nchecks; k++) {
            const study_check *c = &sec->checks[k];
            for (size_t r = 0; c->list != CHECK_LIST_NONE && r < s->v.n; r++) {
                const verdict *v = &s->v.v[r];
                if (check_names_in(s, c, v->check) &&
                    (c->list == CHECK_LIST_ALL || v->significant))
                    put_sentence(pg, v, c);
            }
        }
        if (sec->verdict_lines)
            sec->verdict_lines(s, s->state[i], pg);
    }
    fputs("</ul>\n", fp);
}

static const char *mark(const verdict *v)
{
    return !v->tested ? "" : v->significant ? "yes" : "no";
}

/* Every row but those a section lists in a table of its own. */
static void put_summary(const study *s, page *pg)
{
    FILE *fp = pg->fp;
    fputs("<h2 id=\"summary\">All findings (summary.tsv)</h2>\n<p>Every row of "
          "<code>summary.tsv</code>", fp);
    for (size_t i = 0; i < s->nsections; i++)
        for (size_t k = 0; k < s->sections[i]->nchecks; k++) {
            const study_check *c = &s->sections[i]->checks[k];
            if (!c->own_table)
                continue;
            size_t n = 0;
            for (size_t r = 0; r < s->v.n; r++)
                n += check_names_in(s, c, s->v.v[r].check);
            fprintf(fp, " but the %zu %.*s rows, which the <a href=\"#%s\">%s</a> section "
                        "lists", n, (int)strcspn(c->name, ":"), c->name, c->own_table,
                    c->own_table);
        }
    fputs(".</p>\n<table>\n<tr><th>check</th><th>value</th><th>reference</th><th>effect</th>"
          "<th>95% interval</th><th>p</th><th>q</th><th>significant</th></tr>\n", fp);
    for (size_t r = 0; r < s->v.n; r++) {
        const verdict *v = &s->v.v[r];
        const study_check *c = check_of(s, v->check);
        if (c && c->own_table)
            continue;
        fputs("<tr>", fp);
        page_cell_text(fp, v->check);
        page_cell_num(fp, v->value, 3);
        page_cell_num(fp, v->reference, 3);
        page_cell_num(fp, v->effect, 3);
        if (isnan(v->ci_low))
            fputs("<td>-</td>", fp);
        else
            fprintf(fp, "<td class=\"n\">%.3f to %.3f</td>", v->ci_low, v->ci_high);
        if (v->tested) {
            page_cell_p(fp, v->p);
            page_cell_p(fp, v->q);
            fprintf(fp, "<td class=\"%s\">%s</td>", mark(v), v->significant ? "yes" : "no");
        } else
            fputs("<td>-</td><td>-</td><td>-</td>", fp);
        fputs("</tr>\n", fp);
    }
    fputs("</table>\n", fp);
}

/* Every step's seconds, the report's figures (drawn before this page is
   written, which is the only part of the report not counted) and the
   total. */
static void put_steps(const study *s, page *pg, double figures)
{
    FILE *fp = pg->fp;
    fputs("<h2 id=\"steps\">Steps</h2>\n<table>\n<tr><th>step</th><th>seconds</th></tr>\n", fp);
    double total = 0;
    for (size_t i = 0; i < s->nsteps; i++) {
        fprintf(fp, "<tr><td>%s</td><td class=\"n\">%.2f</td></tr>\n", s->step[i].name,
                s->step[i].seconds);
        total += s->step[i].seconds;
    }
    fprintf(fp, "<tr><td>report (figures)</td><td class=\"n\">%.2f</td></tr>\n"
            "<tr><th>total</th><th class=\"n\">%.2f</th></tr>\n</table>\n",
            figures, total + figures);
}

typedef struct page_job {
    study *s;
    page pg;
    double figures_seconds;    /* writing and drawing the figures */
} page_job;

static int write_page(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    page_job *j = ctx;
    study *s = j->s;
    j->pg.fp = fp;
    page_head(fp, s->name);
    put_header(s, &j->pg);
    put_verdicts(s, &j->pg);
    put_summary(s, &j->pg);
    for (size_t i = 0; i < s->nsections; i++)
        if (s->sections[i]->page)
            s->sections[i]->page(s, s->state[i], &j->pg);
    put_steps(s, &j->pg, j->figures_seconds);
    provenance_footer(s, fp);
    page_foot(fp);
    return 0;
}

static int write_figures(study *s, figset *f, tells_error *err)
{
    for (size_t i = 0; i < s->nsections; i++)
        if (s->sections[i]->figures && s->sections[i]->figures(s, s->state[i], f, err) < 0)
            return -1;
    return 0;
}

int study_report(study_result *s, const char *dir, tells_error *err)
{
    size_t len = strlen(dir) + 16;
    char *figdir = malloc(len), *html = malloc(len);
    if (!figdir || !html) {
        free(figdir);
        free(html);
        return tells_error_nomem(err, NULL, 0);
    }
    snprintf(figdir, len, "%s/figures", dir);
    snprintf(html, len, "%s/report.html", dir);
    page_job j = {.s = s, .pg = {.figdir = figdir}};
    int rc = 0;
    if (!s->cfg->figures) {
        j.pg.why_not = "figures were not asked for";
    } else if (mkdir(figdir, 0777) != 0 && errno != EEXIST) {
        rc = tells_error_io(err, figdir, 0, "cannot create: %s", strerror(errno));
    } else {
        figset f = {.dir = figdir};
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        rc = write_figures(s, &f, err);
        if (rc == 0)
            rc = figures_draw(s->cfg->gnuplot, &f, err);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        j.figures_seconds = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
        j.pg.drawn = rc == 0;
    }
    if (rc == 0)
        rc = out_write(html, write_page, &j, err);
    free(figdir);
    free(html);
    return rc;
}
