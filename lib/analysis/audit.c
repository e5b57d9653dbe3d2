/* Audits of new batches (audit.h): the options, a whole audit's groups
   and runs, its tables and its gates; the reference is in
   audit-reference.c, one group's checks in audit-group.c. */
#include <config.h>
#include "analysis/audit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/outfile.h"

void audit_options_default(audit_options *o)
{
    memset(o, 0, sizeof *o);
    o->folds = 5;
    /* n-gram buckets sized to the training text (model/ftshim.h): a small
       model file, read at every reuse, and little memory to clear at
       every training. */
    o->ft = ft_classifier_args();
    o->alpha = 0.05;
    o->min_count = 5;
    o->pseudo = 10;
    o->predictable = 0.9;
    o->top_pmi = 15;
}

/* ---- a whole audit ---- */

static int add_group(audit_report *rep, const dataset *d, const char *name, size_t *rows,
                     size_t n)
{
    if (ARRAY_RESERVE(rep->groups, rep->group_cap, rep->ngroups + 1) < 0)
        return -1;
    audit_group *g = &rep->groups[rep->ngroups++];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->data = d;
    g->rows = rows;
    g->n = n;
    return 0;
}

/* One group for the batch d, or one per value of column col (-1: none),
   in byte order. */
static int make_groups(audit_report *rep, const dataset *d, long col, bool name_by_file,
                       tells_error *err)
{
    vocab *values = vocab_new();
    size_t *of = array_new(d->n, sizeof *of);
    int rc = values && of ? 0 : tells_error_nomem(err, NULL, 0);
    char buf[256];
    for (size_t i = 0; rc == 0 && i < d->n; i++) {
        const char *v = col >= 0 ? example_column(&d->ex[i], col, buf, sizeof buf) : "";
        long k = vocab_intern(values, v, strlen(v));
        if (k < 0)
            rc = tells_error_nomem(err, NULL, 0);
        of[i] = (size_t)k;
    }
    size_t *order = rc == 0 ? vocab_sorted_ids(values) : NULL;
    if (rc == 0 && !order)
        rc = tells_error_nomem(err, NULL, 0);
    for (size_t j = 0; rc == 0 && j < vocab_size(values); j++) {
        size_t k = order[j], n = 0;
        size_t *rows = array_new(d->n, sizeof *rows);
        if (!rows) {
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        for (size_t i = 0; i < d->n; i++)
            if (of[i] == k)
                rows[n++] = i;
        char name[256];
        if (col < 0)
            snprintf(name, sizeof name, "%s", d->source);
        else if (name_by_file)
            snprintf(name, sizeof name, "%s:%s", d->source, vocab_str(values, k));
        else
            snprintf(name, sizeof name, "%s", vocab_str(values, k));
        if (add_group(rep, d, name, rows, n) < 0) {
            free(rows);
            rc = tells_error_nomem(err, NULL, 0);
        }
    }
    free(order);
    free(of);
    vocab_free(values);
    return rc;
}

int audit_report_add_batch(audit_report *rep, const char *path, const char *group_column,
                           bool name_by_file, tells_error *err)
{
    if (ARRAY_RESERVE(rep->batches, rep->batch_cap, rep->nbatches + 1) < 0)
        return tells_error_nomem(err, NULL, 0);
    /* Each batch in a block of its own: the groups point into it. */
    dataset *d = malloc(sizeof *d);
    if (!d)
        return tells_error_nomem(err, NULL, 0);
    if (dataset_load(d, path, err) < 0) {
        free(d);
        return -1;
    }
    rep->batches[rep->nbatches++] = d;
    /* By id, as the reference (audit_reference_load). */
    if (dataset_sort_by_id(d, NULL, err) < 0 || dataset_require_examples(d, err) < 0)
        return -1;
    long col = group_column ? dataset_column(d, group_column) : -1;
    if (group_column && col < 0)
        return tells_error_set(err, d->source, 1, "no column named '%s'", group_column);
    return make_groups(rep, d, col, name_by_file, err);
}

int audit_report_run(audit_report *rep, const audit_reference *ref,
                     const audit_options *o, tells_error *err)
{
    for (size_t i = 0; i < rep->ngroups; i++) {
        audit_group *g = &rep->groups[i];
        if (o->progress) {
            char msg[320];
            snprintf(msg, sizeof msg, "auditing %s (%zu examples)", g->name, g->n);
            o->progress(msg, o->progress_user);
        }
        if (audit_group_run(g, ref, o, err) < 0)
            return -1;
    }
    return 0;
}

void audit_report_free(audit_report *rep)
{
    for (size_t i = 0; i < rep->ngroups; i++)
        audit_group_free(&rep->groups[i]);
    free(rep->groups);
    for (size_t i = 0; i < rep->nbatches; i++) {
        dataset_free(rep->batches[i]);
        free(rep->batches[i]);
    }
    free(rep->batches);
    memset(rep, 0, sizeof *rep);
}

static void write_summary(FILE *fp, const audit_group *g)
{
    for (size_t i = 0; i < g->nf; i++) {
        const finding *f = &g->f[i];
        /* Tokens are many: only those that matter are listed. */
        if (strncmp(f->check, "token:", 6) == 0 && !f->significant)
            continue;
        fprintf(fp, "%s\t%s\t%.6f\t", g->name, f->shown, f->batch);
        if (strcmp(f->check, "duplicates") == 0 || strcmp(f->check, "near_duplicates") == 0 ||
            strcmp(f->check, "shared_ids") == 0)
            fputs("-", fp);
        else
            fprintf(fp, "%.6f", f->reference);
        if (f->tested) {
            char p[64], q[64];
            pvalue_format(f->test.p, 3, p, sizeof p);
            pvalue_format(f->q, 3, q, sizeof q);
            fprintf(fp, "\t%.6f\t", f->test.statistic);
            if (isnan(f->test.df))
                fputs("-", fp);
            else
                fprintf(fp, "%g", f->test.df);
            fprintf(fp, "\t%s\t%s\t%s", p, q, f->significant ? "yes" : "no");
        } else
            fputs("\t-\t-\t-\t-\t-", fp);
        fprintf(fp, "\t%s\n", f->detail);
    }
}

int audit_summary_write(FILE *fp, void *report, tells_error *err)
{
    const audit_report *rep = report;
    fputs("group\tcheck\tbatch\treference\tstatistic\tdf\tp_value\tq_value\t"
          "significant\tdetail\n", fp);
    for (size_t i = 0; i < rep->ngroups; i++)
        write_summary(fp, &rep->groups[i]);
    return out_status(fp, err);
}

static void write_flags(FILE *fp, const audit_group *g)
{
    for (size_t i = 0; i < g->n; i++) {
        const example_flags *e = &g->ex[i];
        const example *x = &g->data->ex[e->row];
        fprintf(fp, "%s\t%s\t%s\t%.6f\t%s\n", g->name, x->id,
                vocab_str(g->data->labels, x->label), e->p_gold,
                e->nflags ? e->flags : "-");
    }
}

int audit_flags_write(FILE *fp, void *report, tells_error *err)
{
    const audit_report *rep = report;
    fputs("group\tid\tgold\tp_gold\tflags\n", fp);
    for (size_t i = 0; i < rep->ngroups; i++)
        write_flags(fp, &rep->groups[i]);
    return out_status(fp, err);
}

/* ---- gates ---- */

static const char *const gate_names[AUDIT_NGATES] = {
    "any", "predictability", "tokens", "tell-share", "balance", "length", "duplicates",
    "heuristics"
};

const char *audit_gate_name(audit_gate g)
{
    return gate_names[g];
}

int audit_gate_find(const char *name)
{
    for (int g = 0; g < AUDIT_NGATES; g++)
        if (strcmp(name, gate_names[g]) == 0)
            return g;
    return -1;
}

/* The gate a finding belongs to, by its check's name; AUDIT_GATE_ANY for
   none but "any". */
static audit_gate gate_of(const finding *f)
{
    static const struct { const char *prefix; audit_gate gate; } map[] = {
        {"predictability", AUDIT_GATE_PREDICTABILITY},
        {"self_predictability", AUDIT_GATE_PREDICTABILITY},
        {"token:", AUDIT_GATE_TOKENS}, {"tell_share", AUDIT_GATE_TELL_SHARE},
        {"label_balance", AUDIT_GATE_BALANCE}, {"length:", AUDIT_GATE_LENGTH},
        {"duplicates", AUDIT_GATE_DUPLICATES}, {"near_duplicates", AUDIT_GATE_DUPLICATES},
        {"shared_ids", AUDIT_GATE_DUPLICATES},
        {"heuristic:", AUDIT_GATE_HEURISTICS},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strncmp(f->check, map[i].prefix, strlen(map[i].prefix)) == 0)
            return map[i].gate;
    return AUDIT_GATE_ANY;
}

bool audit_gate_fails(const finding *f, unsigned gates)
{
    audit_gate g = gate_of(f);
    /* Duplicates have no test: any is too many. */
    bool hit = g == AUDIT_GATE_DUPLICATES ? f->batch > 0 : f->significant;
    return hit && (gates & 1u << AUDIT_GATE_ANY ||
                   (g != AUDIT_GATE_ANY && gates & 1u << g));
}
