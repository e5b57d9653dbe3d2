#include <config.h>
#include "analysis/baselines.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/lineio.h"
#include "base/outfile.h"
#include "model/evaluate.h"

static const char *const MODEL_NAME[] = {
    [MODEL_MAJORITY] = "majority", [MODEL_FASTTEXT] = "fasttext"
};

void comparison_config_default(comparison_config *c)
{
    memset(c, 0, sizeof *c);
    c->train = "train";
    c->run_majority = c->run_fasttext = true;
    c->input = INPUT_HYPOTHESIS;
    c->ft = ft_classifier_args();
}

void comparison_free(comparison *cmp)
{
    for (size_t i = 0; i < cmp->n; i++) {
        comparison_entry *e = &cmp->entry[i];
        predictions_free(&e->pred);
        for (size_t k = 0; e->part_pred && k < cmp->nparts; k++)
            predictions_free(&e->part_pred[k]);
        free(e->part_pred);
    }
    free(cmp->entry);
    for (size_t k = 0; cmp->part_ids && k < cmp->nparts; k++)
        id_set_free(&cmp->part_ids[k]);
    free(cmp->part_ids);
    free(cmp->part_name);
    free(cmp->part_unknown);
    ft_free(cmp->model);
    memset(cmp, 0, sizeof *cmp);
}

/* A new entry, its predictions still empty; NULL when out of memory. */
static comparison_entry *add_entry(comparison *cmp, const char *model, const char *split)
{
    if (ARRAY_RESERVE(cmp->entry, cmp->cap, cmp->n + 1) < 0)
        return NULL;
    comparison_entry *e = &cmp->entry[cmp->n++];
    memset(e, 0, sizeof *e);
    e->model = model;
    e->split = split;
    return e;
}

static void progress(const comparison_config *c, const char *msg)
{
    if (c->progress)
        c->progress(msg, c->progress_user);
}

/* The splits to evaluate, as split ids (*n of them, at least one): those
   given, or every split but the training one in the byte order of their
   names (not the order first met, which the rows' order would set). */
static int eval_splits(const dataset *d, const comparison_config *c, size_t train,
                       size_t **out, size_t *n, tells_error *err)
{
    const vocab *splits = d->splits;
    size_t max = c->eval ? c->neval : vocab_size(splits);
    *n = 0;
    if (!(*out = array_new(max, sizeof **out)))
        return tells_error_nomem(err, NULL, 0);
    if (!c->eval) {
        size_t *byname = vocab_sorted_ids(splits);
        if (!byname)
            return tells_error_nomem(err, NULL, 0);
        for (size_t k = 0; k < vocab_size(splits); k++)
            if (byname[k] != train)
                (*out)[(*n)++] = byname[k];
        free(byname);
        if (*n == 0) {
            tells_error_set(err, d->source, 0, "no split to evaluate on besides '%s'",
                            vocab_str(splits, train));
            tells_error_tag(err, TELLS_E_NO_EVAL_SPLIT, vocab_str(splits, train));
            return -1;
        }
        return 0;
    }
    if (c->neval == 0)
        return tells_error_usage(err, "no split to evaluate on");
    for (size_t k = 0; k < c->neval; k++) {
        long s = vocab_find(splits, c->eval[k], strlen(c->eval[k]));
        if (s < 0)
            return tells_error_set(err, d->source, 0, "no split named '%s'", c->eval[k]);
        (*out)[(*n)++] = (size_t)s;
    }
    return 0;
}

/* The model layer's view of one model of the comparison. */
static baseline_config model_config(const comparison_config *c, model_kind kind)
{
    return (baseline_config){
        .kind = kind,
        .input = c->input,
        .majority_from_eval = c->majority_from_eval,
        .ft = c->ft,
        .tune = c->tune,
        .group = c->group,
        .jobs = c->jobs,
        .progress = c->progress,
        .progress_user = c->progress_user,
    };
}

/* The entries of one model: cross-validation, or one per evaluated
   split. One fastText model trained on the whole split predicts every
   evaluated split, and is the one keep_model keeps. */
/* The given predictions as the model's entries: cross-validation's of
   the training rows (with their folds, dealt as fastText's would be),
   or each evaluated split's. */
static int given_model(comparison *cmp, const comparison_config *c, size_t train,
                       const size_t *evals, size_t nevals, tells_error *err)
{
    const dataset *d = cmp->data;
    const char *model = cmp->predicted_by;
    int rc = 0;
    for (size_t k = 0; rc == 0 && k < (c->folds ? 1 : nevals); k++) {
        size_t n;
        size_t *rows = split_rows(d, c->folds ? train : evals[k], &n);
        size_t *fold = c->folds && rows ? array_new(n, sizeof *fold) : NULL;
        comparison_entry *e = rows && (!c->folds || fold)
            ? add_entry(cmp, model, c->folds ? "cv" : vocab_str(d->splits, evals[k])) : NULL;
        if (!e)
            rc = tells_error_nomem(err, NULL, 0);
        cv_plan plan = {c->folds, (unsigned long)c->ft.seed, c->group};
        if (rc == 0 && c->folds)
            rc = cv_assign(d, rows, n, &plan, fold, err);
        if (rc == 0)
            rc = ext_predictions_rows(c->given, c->given_corpus, d, rows, n, fold, &e->pred,
                                      err);
        if (rc < 0 && e)
            cmp->n--;
        free(rows);
        free(fold);
    }
    return rc;
}

static int run_model(comparison *cmp, const comparison_config *c, model_kind kind,
                     size_t train, const size_t *evals, size_t nevals, tells_error *err)
{
    const dataset *d = cmp->data;
    if (kind == MODEL_FASTTEXT && c->given)
        return given_model(cmp, c, train, evals, nevals, err);
    const char *model = MODEL_NAME[kind];
    baseline_config bc = model_config(c, kind);
    size_t ntrain;
    size_t *train_rows = split_rows(d, train, &ntrain);
    int rc = train_rows ? 0 : tells_error_nomem(err, NULL, 0);
    if (rc == 0 && c->folds) {
        comparison_entry *e = add_entry(cmp, model, "cv");
        cv_plan plan = {c->folds, (unsigned long)c->ft.seed, c->group};
        rc = e ? baseline_cross_validate(d, train_rows, ntrain, &plan, &bc, &e->pred, err)
               : tells_error_nomem(err, NULL, 0);
        if (rc < 0 && e)
            cmp->n--;
    }
    ft_model *m = NULL;
    model_fit fit = {.train_accuracy = NAN};
    if (rc == 0 && kind == MODEL_FASTTEXT && (!c->folds || c->keep_model)) {
        char msg[96];
        snprintf(msg, sizeof msg, "training fastText on %zu examples", ntrain);
        progress(c, msg);
        if (!(m = baseline_train(d, train_rows, ntrain, &bc, &fit, err)))
            rc = -1;
    }
    for (size_t k = 0; rc == 0 && !c->folds && k < nevals; k++) {
        size_t neval;
        size_t *rows = split_rows(d, evals[k], &neval);
        comparison_entry *e = rows ? add_entry(cmp, model, vocab_str(d->splits, evals[k]))
                                   : NULL;
        if (!e)
            rc = tells_error_nomem(err, NULL, 0);
        else if (m) {
            rc = fasttext_predict_rows(m, d, rows, neval, c->input, &e->pred, err);
            if (rc == 0)
                e->pred.fit = fit;
        }
        else
            rc = baseline_fit_predict(d, train_rows, ntrain, rows, neval, &bc, &e->pred,
                                      err);
        if (rc < 0 && e)
            cmp->n--;
        free(rows);
    }
    free(train_rows);
    if (rc == 0 && c->keep_model && m)
        cmp->model = m;
    else
        ft_free(m);
    return rc;
}

/* Majority's predictions of one partition's rows of entry e: the
   majority label of those rows, per fold with cross-validation. */
static int partition_majority(const comparison *cmp, const comparison_config *c,
                              const comparison_entry *e, const id_set *ids, predictions *out,
                              tells_error *err)
{
    const dataset *d = cmp->data;
    const predictions *p = &e->pred;
    size_t *rows = array_new(p->n, sizeof *rows), *group = array_new(p->n, sizeof *group);
    const size_t *fold = p->fold;   /* cross-validation's */
    int rc = rows && group ? 0 : tells_error_nomem(err, NULL, 0);
    size_t m = 0;
    for (size_t j = 0; rc == 0 && j < p->n; j++) {
        const char *id = d->ex[p->row[j]].id;
        if (vocab_find(ids->ids, id, strlen(id)) < 0)
            continue;
        rows[m] = p->row[j];
        group[m++] = fold ? fold[j] : 0;
    }
    if (rc == 0)
        rc = predict_group_majority(d, rows, group, m, fold ? c->folds : 1, out, err);
    free(rows);
    free(group);
    return rc;
}

/* With majority_from_eval, the partitions' own majority predictions for
   every majority entry. */
static int run_partition_majority(comparison *cmp, const comparison_config *c,
                                  tells_error *err)
{
    for (size_t i = 0; i < cmp->n; i++) {
        comparison_entry *e = &cmp->entry[i];
        if (strcmp(e->model, MODEL_NAME[MODEL_MAJORITY]) != 0 || !cmp->nparts)
            continue;
        if (!(e->part_pred = array_new(cmp->nparts, sizeof *e->part_pred)))
            return tells_error_nomem(err, NULL, 0);
        for (size_t k = 0; k < cmp->nparts; k++)
            if (partition_majority(cmp, c, e, &cmp->part_ids[k], &e->part_pred[k], err) < 0)
                return -1;
    }
    return 0;
}

/* Loads the id files and counts the ids no row of the dataset has. */
static int load_partitions(comparison *cmp, const comparison_config *c, tells_error *err)
{
    const dataset *d = cmp->data;
    cmp->part_name = array_new(c->nparts, sizeof *cmp->part_name);
    cmp->part_ids = array_new(c->nparts, sizeof *cmp->part_ids);
    cmp->part_unknown = array_new(c->nparts, sizeof *cmp->part_unknown);
    if (!cmp->part_name || !cmp->part_ids || !cmp->part_unknown)
        return tells_error_nomem(err, NULL, 0);
    for (size_t k = 0; k < c->nparts; k++) {
        id_set *ids = &cmp->part_ids[k];
        if (id_set_load(ids, c->parts[k].path, err) < 0)
            return -1;
        cmp->part_name[k] = c->parts[k].name;
        cmp->nparts++;
        for (size_t i = 0; i < d->n; i++)
            id_set_match(ids, d->ex[i].id, strlen(d->ex[i].id));
        cmp->part_unknown[k] = id_set_unseen(ids);
    }
    return 0;
}

/* A partition must have rows in every evaluated split: scores over no
   rows would read as zeros. */
static int check_partitions(const comparison *cmp, const comparison_config *c,
                            const size_t *splits, size_t nsplits, tells_error *err)
{
    const dataset *d = cmp->data;
    for (size_t k = 0; k < cmp->nparts; k++)
        for (size_t j = 0; j < nsplits; j++) {
            size_t found = 0;
            for (size_t i = 0; i < d->n && !found; i++)
                found = d->ex[i].split == splits[j] &&
                        vocab_find(cmp->part_ids[k].ids, d->ex[i].id,
                                   strlen(d->ex[i].id)) >= 0;
            if (!found)
                return tells_error_set(err, display_name(c->parts[k].path), 0,
                                       "partition '%s' has no row of split '%s'%s",
                                       cmp->part_name[k], vocab_str(d->splits, splits[j]),
                                       c->folds ? "" : " (evaluate on the splits it "
                                       "covers with --eval)");
        }
    return 0;
}

/* Training needs two examples and two classes. */
static int check_training_split(const dataset *d, size_t train, tells_error *err)
{
    size_t n = 0, label = 0;
    bool two_classes = false;
    for (size_t i = 0; i < d->n; i++) {
        if (d->ex[i].split != train)
            continue;
        if (n++ == 0)
            label = d->ex[i].label;
        else if (d->ex[i].label != label)
            two_classes = true;
    }
    const char *name = vocab_str(d->splits, train);
    if (n < 2)
        return tells_error_set(err, d->source, 0, "split '%s' has one example: too few "
                               "to train on", name);
    if (!two_classes)
        return tells_error_set(err, d->source, 0, "split '%s' has examples of one class "
                               "only ('%s'): nothing to learn", name,
                               vocab_str(d->labels, label));
    return 0;
}

int comparison_run(comparison *cmp, const dataset *d, const comparison_config *c,
                   tells_error *err)
{
    memset(cmp, 0, sizeof *cmp);
    cmp->data = d;
    cmp->input = c->input;
    cmp->predicted_by = !c->run_fasttext ? MODEL_NAME[MODEL_MAJORITY]
                        : c->given ? (c->given_name ? c->given_name : "given")
                                   : MODEL_NAME[MODEL_FASTTEXT];
    if (dataset_require_examples(d, err) < 0)
        return -1;
    long train = vocab_find(d->splits, c->train, strlen(c->train));
    if (train < 0)
        return tells_error_set(err, d->source, 0, "no split named '%s' to train on",
                               c->train);
    size_t *evals = NULL, nevals = 0;
    size_t cv_split = (size_t)train;
    int rc = c->folds ? 0 : eval_splits(d, c, (size_t)train, &evals, &nevals, err);
    if (rc == 0)
        rc = check_training_split(d, (size_t)train, err);
    if (rc == 0)
        rc = load_partitions(cmp, c, err);
    if (rc == 0)
        rc = c->folds ? check_partitions(cmp, c, &cv_split, 1, err)
                      : check_partitions(cmp, c, evals, nevals, err);
    if (rc == 0 && c->run_majority)
        rc = run_model(cmp, c, MODEL_MAJORITY, (size_t)train, evals, nevals, err);
    if (rc == 0 && c->run_majority && c->majority_from_eval)
        rc = run_partition_majority(cmp, c, err);
    if (rc == 0 && c->run_fasttext)
        rc = run_model(cmp, c, MODEL_FASTTEXT, (size_t)train, evals, nevals, err);
    free(evals);
    if (rc < 0)
        comparison_free(cmp);
    return rc;
}

static void write_scores(FILE *fp, const scores *s, const scores *full)
{
    fprintf(fp, "%zu\t%.6f\t%.6f\t%.6f", s->n, s->micro_f1, s->macro_f1, s->accuracy);
    if (full)
        fprintf(fp, "\t%.6f\t%.6f\t%.6f", s->micro_f1 - full->micro_f1,
                s->macro_f1 - full->macro_f1, s->accuracy - full->accuracy);
    putc('\n', fp);
}

int comparison_write_table(FILE *fp, comparison *cmp, bool details, tells_error *err)
{
    const char *input = baseline_input_name(cmp->input);
    bool parts = cmp->nparts > 0;
    fprintf(fp, "model\tinput\tsplit%s\tn\tmicro_f1\tmacro_f1\taccuracy%s\n",
            parts ? "\tpartition" : "",
            parts ? "\tchange_micro_f1\tchange_macro_f1\tchange_accuracy" : "");
    scores *all = array_new(cmp->n, sizeof *all);
    if (!all)
        return tells_error_nomem(err, NULL, 0);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < cmp->n; i++) {
        const comparison_entry *e = &cmp->entry[i];
        if ((rc = scores_compute(&all[i], cmp->data, &e->pred, NULL, err)) < 0)
            break;
        fprintf(fp, "%s\t%s\t%s%s\t", e->model, input, e->split, parts ? "\tfull" : "");
        write_scores(fp, &all[i], parts ? &all[i] : NULL);
        for (size_t k = 0; k < cmp->nparts; k++) {
            scores ps;
            rc = e->part_pred ? scores_compute(&ps, cmp->data, &e->part_pred[k], NULL, err)
                              : scores_compute(&ps, cmp->data, &e->pred, &cmp->part_ids[k],
                                               err);
            if (rc < 0)
                break;
            fprintf(fp, "%s\t%s\t%s\t%s\t", e->model, input, e->split, cmp->part_name[k]);
            write_scores(fp, &ps, &all[i]);
            scores_free(&ps);
        }
    }
    for (size_t i = 0; details && rc == 0 && i < cmp->n; i++) {
        const comparison_entry *e = &cmp->entry[i];
        fprintf(fp, "\n# confusion: %s %s %s (rows gold, columns predicted)\n",
                e->model, input, e->split);
        rc = scores_write_confusion(&all[i], cmp->data, fp, err);
        if (rc == 0) {
            fprintf(fp, "\n# per-class: %s %s %s\n", e->model, input, e->split);
            rc = scores_write_per_class(&all[i], cmp->data, fp, err);
        }
    }
    for (size_t i = 0; i < cmp->n; i++)
        scores_free(&all[i]);
    free(all);
    return rc < 0 ? -1 : out_status(fp, err);
}

int comparison_write_predictions(FILE *fp, const comparison *cmp, tells_error *err)
{
    const dataset *d = cmp->data;
    size_t *order = vocab_sorted_ids(d->labels);
    if (!order)
        return tells_error_nomem(err, NULL, 0);
    /* Cross-validation's predictions say their fold (1 to K). */
    bool folds = false;
    for (size_t i = 0; i < cmp->n; i++)
        folds |= strcmp(cmp->entry[i].model, cmp->predicted_by) == 0 &&
                 cmp->entry[i].pred.fold != NULL;
    fputs("id\tsplit\tgold\tpredicted", fp);
    for (size_t l = 0; l < vocab_size(d->labels); l++)
        fprintf(fp, "\tp_%s", vocab_str(d->labels, order[l]));
    fputs(folds ? "\tfold\n" : "\n", fp);
    for (size_t i = 0; i < cmp->n; i++) {
        const comparison_entry *e = &cmp->entry[i];
        if (strcmp(e->model, cmp->predicted_by) != 0)
            continue;
        const predictions *p = &e->pred;
        for (size_t j = 0; j < p->n; j++) {
            const example *x = &d->ex[p->row[j]];
            fprintf(fp, "%s\t%s\t%s\t%s", x->id, e->split, vocab_str(d->labels, x->label),
                    vocab_str(d->labels, p->pred[j]));
            for (size_t l = 0; l < p->nlabels; l++) {
                double v = p->prob ? p->prob[j * p->nlabels + order[l]]
                                   : (double)(p->pred[j] == order[l]);
                fprintf(fp, "\t%.6f", v);
            }
            if (folds && p->fold)
                fprintf(fp, "\t%zu", p->fold[j] + 1);
            else if (folds)
                fputs("\t-", fp);
            putc('\n', fp);
        }
    }
    free(order);
    return out_status(fp, err);
}
