#include <config.h>
#include "evaluate.h"

#include <stdlib.h>
#include <string.h>

void scores_free(scores *s)
{
    free(s->confusion);
    free(s->precision);
    free(s->recall);
    free(s->f1);
    free(s->support);
    memset(s, 0, sizeof *s);
}

static double ratio(size_t a, size_t b) { return b ? (double)a / (double)b : 0.0; }

int scores_compute(scores *s, const dataset *d, const predictions *p,
                   id_set *subset)
{
    memset(s, 0, sizeof *s);
    size_t L = vocab_size(d->labels);
    s->nlabels = L;
    s->confusion = calloc(L > 0 ? L * L : 1, sizeof *s->confusion);
    s->precision = calloc(L ? L : 1, sizeof *s->precision);
    s->recall = calloc(L ? L : 1, sizeof *s->recall);
    s->f1 = calloc(L ? L : 1, sizeof *s->f1);
    s->support = calloc(L ? L : 1, sizeof *s->support);
    size_t *predicted = calloc(L ? L : 1, sizeof *predicted);
    if (!s->confusion || !s->precision || !s->recall || !s->f1 || !s->support ||
        !predicted) {
        free(predicted);
        scores_free(s);
        return -1;
    }
    size_t correct = 0;
    for (size_t i = 0; i < p->n; i++) {
        const example *e = &d->ex[p->row[i]];
        if (subset && !id_set_match(subset, e->id, strlen(e->id)))
            continue;
        s->n++;
        s->confusion[e->label * L + p->pred[i]]++;
        s->support[e->label]++;
        predicted[p->pred[i]]++;
        correct += e->label == p->pred[i];
    }
    /* As scikit-learn: a metric with a zero denominator is 0, and the
       macro average runs over labels present in gold or predictions. */
    size_t present = 0;
    double f1_sum = 0;
    for (size_t l = 0; l < L; l++) {
        size_t tp = s->confusion[l * L + l];
        s->precision[l] = ratio(tp, predicted[l]);
        s->recall[l] = ratio(tp, s->support[l]);
        double pr = s->precision[l] + s->recall[l];
        s->f1[l] = pr > 0 ? 2 * s->precision[l] * s->recall[l] / pr : 0.0;
        if (s->support[l] || predicted[l]) {
            present++;
            f1_sum += s->f1[l];
        }
    }
    s->accuracy = ratio(correct, s->n);
    s->micro_f1 = s->accuracy;
    s->macro_f1 = present ? f1_sum / (double)present : 0.0;
    free(predicted);
    return 0;
}

void scores_write_confusion(const scores *s, const dataset *d, FILE *fp)
{
    size_t *order = vocab_sorted_ids(d->labels);
    size_t L = s->nlabels;
    if (!order)
        return;
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
}

void scores_write_per_class(const scores *s, const dataset *d, FILE *fp)
{
    size_t *order = vocab_sorted_ids(d->labels);
    if (!order)
        return;
    fputs("class\tprecision\trecall\tf1\tsupport\n", fp);
    for (size_t i = 0; i < s->nlabels; i++) {
        size_t l = order[i];
        fprintf(fp, "%s\t%.6f\t%.6f\t%.6f\t%zu\n", vocab_str(d->labels, l),
                s->precision[l], s->recall[l], s->f1[l], s->support[l]);
    }
    free(order);
}
