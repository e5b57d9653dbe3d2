/* Metrics over prediction files (stats/metrics.h): tallies, accuracy,
   per-class and averaged F1, their table, contrast sets. The files are
   read in predfile.c. */
#include <config.h>
#include "stats/metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/lineio.h"
#include "base/alloc.h"
#include "base/fields.h"

int metric_parse(const char *name, metric_kind *k)
{
    for (int i = METRIC_ACCURACY; i <= METRIC_MICRO_F1; i++)
        if (strcmp(name, metric_name((metric_kind)i)) == 0) {
            *k = (metric_kind)i;
            return 0;
        }
    return -1;
}

const char *metric_name(metric_kind k)
{
    switch (k) {
    case METRIC_MACRO_F1: return "macro_f1";
    case METRIC_MICRO_F1: return "micro_f1";
    default: return "accuracy";
    }
}

int tally_init(tally *t, size_t nlabels)
{
    memset(t, 0, sizeof *t);
    t->nlabels = nlabels;
    t->tp = array_new(nlabels, sizeof *t->tp);
    t->fp = array_new(nlabels, sizeof *t->fp);
    t->fn = array_new(nlabels, sizeof *t->fn);
    if (!t->tp || !t->fp || !t->fn) {
        tally_free(t);
        return -1;
    }
    return 0;
}

int tally_init_for(tally *t, const pred_data *d)
{
    if (tally_init(t, vocab_size(d->labels)) < 0)
        return -1;
    t->fixed = d->fixed_labels;
    return 0;
}

void tally_free(tally *t)
{
    free(t->tp);
    free(t->fp);
    free(t->fn);
    memset(t, 0, sizeof *t);
}

void tally_clear(tally *t)
{
    memset(t->tp, 0, t->nlabels * sizeof *t->tp);
    memset(t->fp, 0, t->nlabels * sizeof *t->fp);
    memset(t->fn, 0, t->nlabels * sizeof *t->fn);
    t->correct = t->n = 0;
}

void tally_copy(tally *dst, const tally *src)
{
    memcpy(dst->tp, src->tp, src->nlabels * sizeof *dst->tp);
    memcpy(dst->fp, src->fp, src->nlabels * sizeof *dst->fp);
    memcpy(dst->fn, src->fn, src->nlabels * sizeof *dst->fn);
    dst->correct = src->correct;
    dst->n = src->n;
}

void tally_add(tally *t, const uint32_t *g, size_t ng, const uint32_t *p,
               size_t np, long w)
{
    t->n += w;
    if (ng == 1 && np == 1) {   /* the single-label case, kept short */
        if (g[0] == p[0]) {
            t->tp[g[0]] += w;
            t->correct += w;
        } else {
            t->fp[p[0]] += w;
            t->fn[g[0]] += w;
        }
        return;
    }
    if (pred_same_set(g, ng, p, np))
        t->correct += w;
    size_t i = 0, j = 0;   /* merge of two ascending sets */
    while (i < ng || j < np) {
        if (j == np || (i < ng && g[i] < p[j]))
            t->fn[g[i++]] += w;
        else if (i == ng || p[j] < g[i])
            t->fp[p[j++]] += w;
        else {
            t->tp[g[i]] += w;
            i++;
            j++;
        }
    }
}

void tally_add_system(tally *t, const pred_data *d, size_t sys)
{
    size_t n = pred_n(d);
    for (size_t i = 0; i < n; i++) {
        const uint32_t *g, *p;
        size_t ng = pred_set(d, 0, i, &g), np = pred_set(d, sys + 1, i, &p);
        tally_add(t, g, ng, p, np, 1);
    }
}

/* a / b, 0 when b is 0 (scikit-learn's zero_division default). */
static double ratio(double a, double b) { return b != 0.0 ? a / b : 0.0; }

/* F1 as 2 tp / (2 tp + fp + fn): equal to 2PR / (P + R) and 0 when that
   is undefined. */
static double f1_of(double tp, double fp, double fn)
{
    return ratio(2.0 * tp, 2.0 * tp + fp + fn);
}

double tally_metric(const tally *t, metric_kind k)
{
    if (k == METRIC_ACCURACY)
        return ratio((double)t->correct, (double)t->n);
    double tp = 0, fp = 0, fn = 0, f1 = 0;
    size_t present = 0;
    for (size_t c = 0; c < t->nlabels; c++) {
        if (!t->fixed && t->tp[c] + t->fp[c] + t->fn[c] == 0)
            continue;
        present++;
        tp += (double)t->tp[c];
        fp += (double)t->fp[c];
        fn += (double)t->fn[c];
        f1 += f1_of((double)t->tp[c], (double)t->fp[c], (double)t->fn[c]);
    }
    if (k == METRIC_MICRO_F1)
        return f1_of(tp, fp, fn);
    return ratio(f1, (double)present);
}

void tally_class(const tally *t, size_t c, double *precision, double *recall,
                 double *f1)
{
    double tp = (double)t->tp[c], fp = (double)t->fp[c], fn = (double)t->fn[c];
    *precision = ratio(tp, tp + fp);
    *recall = ratio(tp, tp + fn);
    *f1 = f1_of(tp, fp, fn);
}

static int by_label_name(const void *a, const void *b, void *labels)
{
    const class_metrics *x = a, *y = b;
    const vocab *v = labels;
    size_t lx = vocab_len(v, x->label), ly = vocab_len(v, y->label);
    int c = memcmp(vocab_str(v, x->label), vocab_str(v, y->label), lx < ly ? lx : ly);
    return c ? c : (lx > ly) - (lx < ly);
}

int metrics_compute(const pred_data *d, size_t sys, metrics *m, tells_error *err)
{
    memset(m, 0, sizeof *m);
    size_t nl = vocab_size(d->labels);
    tally t;
    if (tally_init_for(&t, d) < 0)
        return tells_error_nomem(err, NULL, 0);
    tally_add_system(&t, d, sys);
    m->cls = array_new(nl, sizeof *m->cls);
    if (!m->cls) {
        tally_free(&t);
        return tells_error_nomem(err, NULL, 0);
    }
    double n = (double)t.n, tr = 0, tp = 0, fp = 0, fn = 0, sum_tp = 0,
           sum_tt = 0, sum_pp = 0, errors = 0;
    for (size_t c = 0; c < nl; c++) {
        double ctp = (double)t.tp[c], cfp = (double)t.fp[c], cfn = (double)t.fn[c];
        if (!t.fixed && ctp + cfp + cfn == 0)
            continue;
        class_metrics *cm = &m->cls[m->nclasses++];
        cm->label = (uint32_t)c;
        cm->precision = ratio(ctp, ctp + cfp);
        cm->recall = ratio(ctp, ctp + cfn);
        cm->f1 = f1_of(ctp, cfp, cfn);
        cm->support = t.tp[c] + t.fn[c];
        m->macro_precision += cm->precision;
        m->macro_recall += cm->recall;
        m->macro_f1 += cm->f1;
        tp += ctp;
        fp += cfp;
        fn += cfn;
        errors += cfp + cfn;
        /* gold count t_c = tp + fn, predicted count p_c = tp + fp */
        tr += ctp;
        sum_tp += (ctp + cfn) * (ctp + cfp);
        sum_tt += (ctp + cfn) * (ctp + cfn);
        sum_pp += (ctp + cfp) * (ctp + cfp);
    }
    if (!t.fixed)
        qsort_r(m->cls, m->nclasses, sizeof *m->cls, by_label_name, d->labels);
    m->n = t.n;
    m->accuracy = ratio((double)t.correct, n);
    m->macro_precision = ratio(m->macro_precision, (double)m->nclasses);
    m->macro_recall = ratio(m->macro_recall, (double)m->nclasses);
    m->macro_f1 = ratio(m->macro_f1, (double)m->nclasses);
    m->micro_precision = ratio(tp, tp + fp);
    m->micro_recall = ratio(tp, tp + fn);
    m->micro_f1 = f1_of(tp, fp, fn);
    m->hamming_loss = m->nclasses ? errors / (n * (double)m->nclasses) : NAN;
    /* Cohen's kappa (p_o - p_e) / (1 - p_e), scaled by n^2. */
    double kden = n * n - sum_tp;
    m->kappa = kden != 0 ? (n * tr - sum_tp) / kden : NAN;
    /* Matthews correlation, multiclass as scikit-learn (Gorodkin's R_K). */
    double cov_yy = n * n - sum_tt, cov_pp = n * n - sum_pp;
    m->mcc = cov_yy * cov_pp != 0 ? (n * tr - sum_tp) / sqrt(cov_yy * cov_pp) : 0.0;
    tally_free(&t);
    return 0;
}

void metrics_free(metrics *m)
{
    free(m->cls);
    memset(m, 0, sizeof *m);
}

void metrics_write_header(FILE *fp)
{
    fputs("system\tmetric\tclass\tvalue\tsupport\n", fp);
}

static void row(FILE *fp, const char *sys, const char *metric, const char *cls,
                double v, long support)
{
    if (isnan(v))
        fprintf(fp, "%s\t%s\t%s\tnan\t%ld\n", sys, metric, cls, support);
    else
        fprintf(fp, "%s\t%s\t%s\t%.6f\t%ld\n", sys, metric, cls, v, support);
}

void metrics_write(FILE *fp, const pred_data *d, size_t sys, const metrics *m,
                   bool details)
{
    const char *s = d->names[sys];
    if (d->multi_label) {
        row(fp, s, "subset_accuracy", "-", m->accuracy, m->n);
        row(fp, s, "hamming_loss", "-", m->hamming_loss, m->n);
    } else
        row(fp, s, "accuracy", "-", m->accuracy, m->n);
    row(fp, s, "macro_precision", "-", m->macro_precision, m->n);
    row(fp, s, "macro_recall", "-", m->macro_recall, m->n);
    row(fp, s, "macro_f1", "-", m->macro_f1, m->n);
    row(fp, s, "micro_precision", "-", m->micro_precision, m->n);
    row(fp, s, "micro_recall", "-", m->micro_recall, m->n);
    row(fp, s, "micro_f1", "-", m->micro_f1, m->n);
    if (!d->multi_label) {
        row(fp, s, "kappa", "-", m->kappa, m->n);
        row(fp, s, "mcc", "-", m->mcc, m->n);
    }
    fprintf(fp, "%s\tlabels\t", s);
    for (size_t c = 0; c < m->nclasses; c++)
        fprintf(fp, "%s%s", c ? "," : "", vocab_str(d->labels, m->cls[c].label));
    fprintf(fp, "%s\t%zu\t%ld\n", m->nclasses ? "" : "-", m->nclasses, m->n);
    if (!details)
        return;
    for (size_t c = 0; c < m->nclasses; c++) {
        const class_metrics *cm = &m->cls[c];
        const char *name = vocab_str(d->labels, cm->label);
        row(fp, s, "precision", name, cm->precision, cm->support);
        row(fp, s, "recall", name, cm->recall, cm->support);
        row(fp, s, "f1", name, cm->f1, cm->support);
    }
}

void contrast_free(contrast_groups *g)
{
    free(g->orig);
    free(g->off);
    free(g->member);
    memset(g, 0, sizeof *g);
}

/* The header of a contrast file: 0, or -1 with err set. */
static int contrast_header(line_reader *r, tells_error *err)
{
    char *line;
    size_t len;
    int rc = line_reader_header(r, &line, &len, err);
    if (rc == 1 && text_line_check(line, len, r->name, 1, err) < 0)
        rc = -1;
    if (rc == 0)
        return tells_error_set(err, r->name, 0, "empty input: expected a header "
                               "'original<TAB>contrast'");
    if (rc < 0)
        return rc;
    return strncmp(line, "original\tcontrast", 17) == 0 &&
                   (line[17] == '\0' || line[17] == '\t')
               ? 0
               : tells_error_set(err, r->name, 1, "the header must start with "
                                 "'original<TAB>contrast'");
}

/* What contrast_load gathers: each original's group, and the (group,
   contrast) pairs in the order read. */
typedef struct contrast_pairs {
    long *group_of;       /* per id: its group as an original, or -1 */
    size_t *pair_g, *pair_m, pg_cap, pm_cap, npairs;
    size_t orig_cap;
    tab_row cells;
} contrast_pairs;

/* A line of a contrast file: an original, a new group unless seen
   before, and its contrasts. */
static int contrast_row(contrast_groups *g, contrast_pairs *cp, const pred_data *d,
                        line_reader *r, char *line, size_t len, tells_error *err)
{
    tab_row *cells = &cp->cells;
    if (text_line_check(line, len, r->name, r->lineno, err) < 0 ||
        tab_row_split(cells, line, len, r->name, r->lineno, err) < 0)
        return -1;
    if (cells->n < 2)
        return tells_error_set(err, r->name, r->lineno,
                               "expected an original id and at least one contrast id");
    size_t group = 0;
    for (size_t c = 0; c < cells->n; c++) {
        if (cells->len[c] == 0)
            return tells_error_set(err, r->name, r->lineno, "empty id");
        long k = vocab_find(d->ids, cells->field[c], cells->len[c]);
        if (k < 0)
            return tells_error_set(err, r->name, r->lineno, "id '%s' is not in %s",
                                   cells->field[c], d->names[0]);
        if (c == 0) {
            if (cp->group_of[k] < 0) {
                if (ARRAY_RESERVE(g->orig, cp->orig_cap, g->ngroups + 1) < 0)
                    return tells_error_nomem(err, r->name, r->lineno);
                cp->group_of[k] = (long)g->ngroups;
                g->orig[g->ngroups++] = (size_t)k;
            }
            group = (size_t)cp->group_of[k];
            continue;
        }
        if (ARRAY_RESERVE(cp->pair_g, cp->pg_cap, cp->npairs + 1) < 0 ||
            ARRAY_RESERVE(cp->pair_m, cp->pm_cap, cp->npairs + 1) < 0)
            return tells_error_nomem(err, r->name, r->lineno);
        cp->pair_g[cp->npairs] = group;
        cp->pair_m[cp->npairs++] = (size_t)k;
    }
    return 0;
}

/* g's members: the pairs by group (a counting sort). */
static int contrast_members(contrast_groups *g, const contrast_pairs *cp, const char *name,
                            tells_error *err)
{
    g->off = calloc(g->ngroups + 1, sizeof *g->off);
    g->member = array_new(cp->npairs, sizeof *g->member);
    size_t *fill = calloc(g->ngroups + 1, sizeof *fill);
    int rc = 0;
    if (!g->off || !g->member || !fill)
        rc = tells_error_nomem(err, name, 0);
    else {
        for (size_t p = 0; p < cp->npairs; p++)
            g->off[cp->pair_g[p] + 1]++;
        for (size_t k = 0; k < g->ngroups; k++)
            g->off[k + 1] += g->off[k];
        for (size_t p = 0; p < cp->npairs; p++)
            g->member[g->off[cp->pair_g[p]] + fill[cp->pair_g[p]]++] = cp->pair_m[p];
    }
    free(fill);
    return rc;
}

int contrast_load(contrast_groups *g, const char *path, const pred_data *d,
                  tells_error *err)
{
    memset(g, 0, sizeof *g);
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0)
        return -1;
    size_t n = pred_n(d);
    contrast_pairs cp = {.group_of = array_new(n, sizeof *cp.group_of)};
    int rc = cp.group_of ? contrast_header(&r, err) : tells_error_nomem(err, r.name, 0);
    for (size_t i = 0; rc == 0 && i < n; i++)
        cp.group_of[i] = -1;
    char *line;
    size_t len;
    while (rc == 0 && (rc = line_reader_next(&r, &line, &len, err)) == 1)
        rc = contrast_row(g, &cp, d, &r, line, len, err) < 0 ? -1 : 0;
    if (rc == 0 && g->ngroups == 0)
        rc = tells_error_set(err, r.name, 0, "no groups");
    if (rc == 0)
        rc = contrast_members(g, &cp, r.name, err);
    line_reader_close(&r);
    free(cp.group_of);
    free(cp.pair_g);
    free(cp.pair_m);
    tab_row_free(&cp.cells);
    if (rc < 0) {
        contrast_free(g);
        return -1;
    }
    return 0;
}

void contrast_eval(const contrast_groups *g, const pred_data *d, size_t sys,
                   contrast_result *r)
{
    memset(r, 0, sizeof *r);
    for (size_t k = 0; k < g->ngroups; k++) {
        bool all = pred_correct(d, sys, g->orig[k]);
        r->originals_correct += all;
        for (size_t j = g->off[k]; j < g->off[k + 1]; j++) {
            bool ok = pred_correct(d, sys, g->member[j]);
            r->contrasts++;
            r->contrasts_correct += ok;
            all = all && ok;
        }
        r->groups++;
        r->consistent += all;
    }
}

void contrast_write(FILE *fp, const pred_data *d, size_t sys,
                    const contrast_result *r)
{
    const char *s = d->names[sys];
    row(fp, s, "consistency", "-", ratio((double)r->consistent, (double)r->groups),
        r->groups);
    row(fp, s, "original_accuracy", "-",
        ratio((double)r->originals_correct, (double)r->groups), r->groups);
    row(fp, s, "contrast_accuracy", "-",
        ratio((double)r->contrasts_correct, (double)r->contrasts), r->contrasts);
}
