#include <config.h>
#include "model/evaluate.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "stats/metrics.h"

void scores_free(scores *s)
{
    free(s->confusion);
    free(s->precision);
    free(s->recall);
    free(s->f1);
    free(s->support);
    memset(s, 0, sizeof *s);
}

int scores_compute(scores *s, const dataset *d, const predictions *p,
                   id_set *subset, tells_error *err)
{
    memset(s, 0, sizeof *s);
    size_t L = vocab_size(d->labels);
    s->nlabels = L;
    s->confusion = array_new(L * L, sizeof *s->confusion);
    s->precision = array_new(L, sizeof *s->precision);
    s->recall = array_new(L, sizeof *s->recall);
    s->f1 = array_new(L, sizeof *s->f1);
    s->support = array_new(L, sizeof *s->support);
    tally t;
    if (!s->confusion || !s->precision || !s->recall || !s->f1 || !s->support ||
        tally_init(&t, L) < 0) {
        scores_free(s);
        return tells_error_nomem(err, NULL, 0);
    }
    for (size_t i = 0; i < p->n; i++) {
        const example *e = &d->ex[p->row[i]];
        if (subset && !id_set_match(subset, e->id, strlen(e->id)))
            continue;
        uint32_t gold = (uint32_t)e->label, pred = (uint32_t)p->pred[i];
        tally_add(&t, &gold, 1, &pred, 1, 1);
        s->confusion[gold * L + pred]++;
        s->support[gold]++;
    }
    /* The metrics are tells-stat's, defined as scikit-learn's. */
    for (size_t l = 0; l < L; l++)
        tally_class(&t, l, &s->precision[l], &s->recall[l], &s->f1[l]);
    s->n = (size_t)t.n;
    s->accuracy = tally_metric(&t, METRIC_ACCURACY);
    s->micro_f1 = tally_metric(&t, METRIC_MICRO_F1);
    s->macro_f1 = tally_metric(&t, METRIC_MACRO_F1);
    tally_free(&t);
    return 0;
}

int scores_write_confusion(const scores *s, const dataset *d, FILE *fp, tells_error *err)
{
    size_t *order = vocab_sorted_ids(d->labels);
    size_t L = s->nlabels;
    if (!order)
        return tells_error_nomem(err, NULL, 0);
    fputs("gold", fp);
    for (size_t j = 0; j < L; j++)
        fprintf(fp, "\t%s", vocab_str(d->labels, order[j]));
    putc('\n', fp);
    for (size_t i = 0; i < L; i++) {
        fputs(vocab_str(d->labels, order[i]), fp);
        for (size_t j = 0; j < L; j++)
            fprintf(fp, "\t%zu", s->confusion[order[i] * L + order[j]]);
        putc('\n', fp);
    }
    free(order);
    return 0;
}

int scores_write_per_class(const scores *s, const dataset *d, FILE *fp, tells_error *err)
{
    size_t *order = vocab_sorted_ids(d->labels);
    if (!order)
        return tells_error_nomem(err, NULL, 0);
    fputs("class\tprecision\trecall\tf1\tsupport\n", fp);
    for (size_t i = 0; i < s->nlabels; i++) {
        size_t l = order[i];
        fprintf(fp, "%s\t%.6f\t%.6f\t%.6f\t%zu\n", vocab_str(d->labels, l),
                s->precision[l], s->recall[l], s->f1[l], s->support[l]);
    }
    free(order);
    return 0;
}
