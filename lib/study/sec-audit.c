/* New annotation batches (--batch) audited against the corpus, as
   tells-audit audits them, with the study's heuristics. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/audit.h"
#include "study/sec-heuristics.h"

typedef struct audit_state {
    audit_report rep;          /* every batch, a group each */
    bool done;
} audit_state;

/* Batch b, prepared (study_batch_file), added to rep under the file's
   name. */
static int add_batch(const study *s, size_t b, audit_report *rep, tells_error *err)
{
    const study_config *c = s->cfg;
    const char *given = c->batches[b];
    char *path = study_batch_file(s, b, err);
    if (!path)
        return -1;
    size_t before = rep->ngroups;
    int rc = audit_report_add_batch(rep, path, NULL, false, err);
    /* Groups are named by the file the user gave. */
    for (size_t g = before; rc == 0 && g < rep->ngroups; g++)
        snprintf(rep->groups[g].name, sizeof rep->groups[g].name, "%s",
                 study_batch_name(given));
    free(path);
    return rc;
}

static int run(study *s, void *state, tells_error *err)
{
    audit_state *st = state;
    const study_config *c = s->cfg;
    if (c->nbatches == 0)
        return 0;
    audit_options ao;
    audit_options_default(&ao);
    ao.ft.seed = (int)c->seed;
    ao.group = c->group;
    ao.heuristics = &study_heuristics(s)->hs;
    if (!(ao.pairs = pair_shaper_load(c->negation, err)))
        return -1;
    ao.shown = s->gate;
    ao.progress = c->progress ? study_forward_progress : NULL;
    ao.progress_user = s;
    audit_reference ref;
    memset(&ref, 0, sizeof ref);
    if (audit_reference_load(&ref, s->input, NULL, &ao, err) < 0) {
        pair_shaper_free(ao.pairs);
        return -1;
    }
    int rc = 0;
    for (size_t b = 0; b < c->nbatches && rc == 0; b++)
        rc = add_batch(s, b, &st->rep, err);
    if (rc == 0)
        rc = audit_report_run(&st->rep, &ref, &ao, err);
    if (rc == 0)
        rc = study_write(s, "audit.tsv", audit_summary_write, &st->rep, err);
    if (rc == 0)
        rc = study_write(s, "flags.tsv", audit_flags_write, &st->rep, err);
    audit_reference_free(&ref);
    pair_shaper_free(ao.pairs);
    st->done = rc == 0;
    return rc;
}

static void free_state(void *state)
{
    audit_state *st = state;
    audit_report_free(&st->rep);
}

/* The findings of every batch; of the token checks only those found. */
static bool shown(const finding *f)
{
    return strncmp(f->check, "token:", 6) != 0 || f->significant;
}

/* The tests of a group: the audit's Benjamini-Hochberg family. */
static size_t family_size(const audit_group *gr)
{
    size_t m = 0;
    for (size_t i = 0; i < gr->nf; i++)
        m += gr->f[i].tested;
    return m;
}

/* Each finding keeps the q of the audit's own family, as audit.tsv
   shows it, and its significance. */
static int add_verdicts(study *s, void *state, verdicts *vs, tells_error *err)
{
    (void)s;
    const audit_state *st = state;
    for (size_t g = 0; st->done && g < st->rep.ngroups; g++) {
        const audit_group *gr = &st->rep.groups[g];
        size_t m = family_size(gr);
        for (size_t i = 0; i < gr->nf; i++) {
            const finding *f = &gr->f[i];
            if (!shown(f))
                continue;
            verdict *v = verdicts_add(vs, err, "audit:%s:%s", gr->name, f->shown);
            if (!v)
                return -1;
            v->value = f->batch;
            v->reference = f->reference;
            v->effect = f->batch - f->reference;
            v->tested = f->tested;
            v->p = f->test.p;
            v->direction_ok = !f->weaker;
            v->family = FAMILY_AUDIT;
            v->family_size = m;
            v->q = f->q;
            v->significant = f->tested && f->significant;
            snprintf(v->detail, sizeof v->detail, "%s", f->detail);
            char p[64];
            study_pvalue(p, sizeof p, v->p);
            if (f->tested)
                snprintf(v->sentence, sizeof v->sentence, "Batch %s, %s: %s; p = %s.",
                         gr->name, f->shown, f->says, p);
            else if (strcmp(f->check, "mean_gold_prob") == 0)
                snprintf(v->sentence, sizeof v->sentence,
                         "Batch %s, mean_gold_prob: the corpus's hypothesis-only model gives "
                         "the gold label a mean probability of %.3f on the batch's rows, "
                         "against %.3f in cross-validation over the corpus (described, not "
                         "tested).", gr->name, f->batch, f->reference);
            else if (strcmp(f->check, "shared_ids") == 0 && f->batch > 0)
                snprintf(v->sentence, sizeof v->sentence,
                         "Warning: batch %s repeats the corpus: %.1f%% of its rows have an id "
                         "the corpus has (%s), so its checks partly compare the corpus with "
                         "itself.", gr->name, 100 * f->batch, f->detail + strlen("no test; warning: "));
            else
                snprintf(v->sentence, sizeof v->sentence, "Batch %s, %s: %s.", gr->name,
                         f->shown, f->detail);
        }
    }
    return 0;
}

static void add_page(study *s, void *state, page *pg)
{
    (void)s;
    const audit_state *st = state;
    FILE *fp = pg->fp;
    if (!st->done)
        return;
    fputs("<h2 id=\"audit\">New batches</h2>\n<p>Each batch's tests are a family of their "
          "own, apart from the study's primary checks: q is Benjamini-Hochberg over them, as "
          "in <code>audit.tsv</code> (", fp);
    for (size_t g = 0; g < st->rep.ngroups; g++) {
        fputs(g ? ", " : "", fp);
        html_escape(fp, st->rep.groups[g].name);
        size_t m = family_size(&st->rep.groups[g]);
        fprintf(fp, ": %zu test%s", m, m == 1 ? "" : "s");
    }
    fputs(").</p>\n<table>\n<tr><th>batch</th><th>check</th>"
          "<th>batch</th><th>corpus</th><th>q</th><th>significant</th></tr>\n",
          fp);
    for (size_t g = 0; g < st->rep.ngroups; g++)
        for (size_t i = 0; i < st->rep.groups[g].nf; i++) {
            const finding *f = &st->rep.groups[g].f[i];
            if (!shown(f))
                continue;
            fputs("<tr>", fp);
            page_cell_text(fp, st->rep.groups[g].name);
            page_cell_text(fp, f->shown);
            page_cell_num(fp, f->batch, 3);
            page_cell_num(fp, f->reference, 3);
            if (f->tested) {
                page_cell_p(fp, f->q);
                fprintf(fp, "<td class=\"%s\">%s</td>", f->significant ? "yes" : "no",
                        f->significant ? "yes" : "no");
            } else
                fputs("<td>-</td><td>-</td>", fp);
            fputs("</tr>\n", fp);
        }
    fputs("</table>\n", fp);
}

static const study_check checks[] = {
    {.name = "audit:BATCH:CHECK",
     .definition = "the findings of tells-audit for each --batch against the corpus "
                   "(predictability, token tells, heuristics, label balance, length, "
                   "overlap and added negation by class, duplicates, ids shared with the corpus (a warning when any); token "
                   "checks only when significant); q: the audit's own "
                   "Benjamini-Hochberg family, every test of the batch, as in audit.tsv",
     .yes = "The batch differs.", .no = "Not significant.", .list = CHECK_LIST_ALL},
};

const study_section section_audit = {
    .name = "audit",
    .writes = "with --batch: batch.tsv (batch-K.tsv for several), audit.tsv and flags.tsv "
              "(tells-audit against the corpus, with the heuristics)",
    .needs = RES_CORPUS | RES_HEURISTICS,
    .provides = RES_AUDIT,
    .state_size = sizeof(audit_state),
    .run = run,
    .verdicts = add_verdicts,
    .page = add_page,
    .free = free_state,
    STUDY_CHECKS(checks),
};
