/* The corpus, prepared as tells-prep prepares it (or a prepared TSV as
   it is), and which split trains and which is scored. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/outfile.h"
#include "model/folds.h"
#include "study/core.h"

static int load_corpus(study *s, tells_error *err)
{
    const study_config *c = s->cfg;
    if (!(s->prepared = study_path(s, "prepared.tsv", err)))
        return -1;
    /* A prepared TSV is read where it is, so that messages name it (and
       copied into the folder); standard input only through the copy. */
    bool direct = c->prepared && strcmp(c->prepared, "-") != 0;
    if (c->id_key && c->prepared)
        return tells_error_setk(err, TELLS_ERR_USAGE, NULL, 0,
                                "keyed ids need the corpus as it was distributed: a prepared "
                                "TSV keeps its ids (tells-prep --id-key makes one with keyed ids)");
    if (c->id_key && redact_key_load(&s->id_key, c->id_key, err) < 0)
        return -1;
    int rc = c->prepared ? study_copy_lines(c->prepared, s->prepared, false, err)
                         : study_prepare_inputs(s, c->inputs, c->ninputs, s->prepared, err);
    s->input = direct ? c->prepared : s->prepared;
    if (rc < 0 || dataset_load(&s->data, s->input, err) < 0 ||
        dataset_require_examples(&s->data, err) < 0)
        return -1;
    /* The rows in the order of their ids, whatever the input's order:
       fastText reads its training rows in order, and the resamples and
       first-met orders follow the rows. */
    if (dataset_sort_by_id(&s->data, &s->data_pos, err) < 0)
        return -1;
    /* --redact: the tokens shown, counted over the corpus and the batches
       (a batch's own token is shown when it is frequent enough). */
    if (c->redact && !(s->gate = redact_gate_new(&s->data, c->min_examples, err)))
        return -1;
    for (size_t b = 0; c->redact && b < c->nbatches; b++) {
        char *path = study_batch_file(s, b, err);
        dataset bd;
        int brc = path ? dataset_load(&bd, path, err) : -1;
        free(path);
        if (brc < 0)
            return -1;
        brc = redact_gate_add(s->gate, &bd, err);
        dataset_free(&bd);
        if (brc < 0)
            return -1;
    }
    s->nclasses = vocab_size(s->data.labels);
    if (s->nclasses < 2)
        return tells_error_set(err, direct ? c->prepared : NULL, 0,
                               "one class only ('%s'): nothing to study",
                               vocab_str(s->data.labels, 0));
    if (s->nclasses > STUDY_MAX_CLASSES)
        return tells_error_set(err, direct ? c->prepared : NULL, 0,
                               "%zu classes: the study serves at most %d (AFLite's models "
                               "need memory that grows with the square of the classes)",
                               s->nclasses, STUDY_MAX_CLASSES);
    s->class_order = vocab_sorted_ids(s->data.labels);
    s->class_n = array_new(s->nclasses, sizeof *s->class_n);
    if (!s->class_order || !s->class_n)
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < s->data.n; i++)
        s->class_n[s->data.ex[i].label]++;
    return 0;
}

/* Which split trains and which is scored (model/folds.h: split_design),
   else cross-validation. */
static int choose_evaluation(study *s, tells_error *err)
{
    const study_config *c = s->cfg;
    const vocab *sp = s->data.splits;
    const char *train = NULL, *eval = NULL;
    int d = split_design(sp, c->train, c->eval, &train, &eval, err);
    if (d < 0)
        return -1;
    if (d == 1) {
        snprintf(s->train, sizeof s->train, "%s", train);
        snprintf(s->eval, sizeof s->eval, "%s", eval);
        return 0;
    }
    s->cv = true;
    s->folds = c->folds;
    /* One split: folds within it; several without train: within all. */
    snprintf(s->train, sizeof s->train, "%s", vocab_size(sp) == 1 ? vocab_str(sp, 0) : "all");
    snprintf(s->eval, sizeof s->eval, "cv");
    if (s->data.n < s->folds)
        return tells_error_set(err, NULL, 0, "the corpus's %zu examples cannot make %zu "
                               "folds", s->data.n, s->folds);
    return 0;
}

/* folds.tsv: every row's part in the study's evaluations, for a model
   trained elsewhere. role: train or eval with a training split (the
   rows of other splits "-"), cv without; fold: its fold (1 to K) in the
   cross-fitting over every row that PVI and the partitions use (and,
   without a training split, the baselines). */
typedef struct folds_out {
    const study *s;
    const size_t *fold;
    const size_t *row;     /* the study's row of the input's j-th */
} folds_out;

static int write_folds(FILE *fp, void *ctx, tells_error *err)
{
    const folds_out *f = ctx;
    const dataset *d = &f->s->data;
    long train = vocab_find(d->splits, f->s->train, strlen(f->s->train)),
         eval = vocab_find(d->splits, f->s->eval, strlen(f->s->eval));
    fputs("id\tsplit\trole\tfold\n", fp);
    /* In the input's order, as prepared.tsv and hypothesis.npy. */
    for (size_t j = 0; j < d->n; j++) {
        size_t i = f->row[j];
        const example *e = &d->ex[i];
        const char *role = f->s->cv ? "cv" : (long)e->split == train ? "train"
                           : (long)e->split == eval ? "eval" : "-";
        fprintf(fp, "%s\t%s\t%s\t%zu\n", e->id, vocab_str(d->splits, e->split), role,
                f->fold[i] + 1);
    }
    return out_status(fp, err);
}

static int folds_file(study *s, tells_error *err)
{
    const dataset *d = &s->data;
    size_t *rows = array_new(d->n, sizeof *rows), *fold = array_new(d->n, sizeof *fold),
           *row = study_input_rows(s);
    int rc = rows && fold && row ? 0 : tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; rc == 0 && i < d->n; i++)
        rows[i] = i;
    cv_plan plan = {s->cfg->folds, s->cfg->seed, s->cfg->group};
    if (rc == 0)
        rc = cv_assign(d, rows, d->n, &plan, fold, err);
    folds_out f = {s, fold, row};
    if (rc == 0)
        rc = study_write(s, "folds.tsv", write_folds, &f, err);
    free(rows);
    free(fold);
    free(row);
    return rc;
}

/* A given model's name (--model-name, or its file's name with blanks
   and control characters as '_': detail's key=value pairs are split at
   spaces) and its entries' in comparisons, "given:NAME", which no model
   of tells' own is called. */
static void model_name(char *name, size_t size, char *entry, size_t esize, const char *from)
{
    snprintf(name, size, "%s", from);
    for (char *p = name; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == 0x7f)
            *p = '_';
    snprintf(entry, esize, "given:%s", name);
}

/* Predictions of every row (cross-fitted), with a gold probability above
   0: PVI takes its logarithm. */
static int read_every_row(study *s, ext_predictions *x, const char *path, tells_error *err)
{
    if (ext_predictions_read(x, path, &s->data, err) < 0 ||
        ext_predictions_cover(x, &s->data, NULL, err) < 0)
        return -1;
    for (size_t i = 0; i < s->data.n; i++) {
        size_t y = s->data.ex[i].label;
        if (!(x->prob[i * x->nlabels + y] > 0))
            return tells_error_set(err, x->file, x->line[i], "p_%s, the gold label's "
                                   "probability, is 0 for id '%s': PVI takes its logarithm "
                                   "(give probabilities before rounding)",
                                   vocab_str(s->data.labels, y), s->data.ex[i].id);
    }
    return 0;
}

/* The hypothesis-only predictions given, read and checked against the
   corpus: the cross-fitted ones for every row, with a gold probability
   above 0 (PVI takes its logarithm); with a training split, the
   evaluated split's too. */
static int given_predictions(study *s, tells_error *err)
{
    const study_config *c = s->cfg;
    if (!c->hypothesis_predictions) {
        if (c->hypothesis_eval_predictions)
            return tells_error_usage(err, "--hypothesis-eval-predictions needs "
                                     "--hypothesis-predictions (every row, cross-fitted)");
        return 0;
    }
    if (s->cv && c->hypothesis_eval_predictions)
        return tells_error_set(err, c->hypothesis_eval_predictions, 0, "the study "
                               "cross-validates (the corpus has no training split and "
                               "another): --hypothesis-predictions alone gives its model");
    if (!s->cv && !c->hypothesis_eval_predictions)
        return tells_error_set(err, c->hypothesis_predictions, 0, "the study trains on '%s' "
                               "and scores '%s': give that model's predictions of '%s' with "
                               "--hypothesis-eval-predictions too (folds.tsv's role)",
                               s->train, s->eval, s->eval);
    s->given = true;
    const char *name = c->model_name;
    if (!name) {
        name = strrchr(c->hypothesis_predictions, '/');
        name = name ? name + 1 : c->hypothesis_predictions;
    }
    model_name(s->given_name, sizeof s->given_name, s->given_entry, sizeof s->given_entry,
               name);
    if (read_every_row(s, &s->given_cv, c->hypothesis_predictions, err) < 0)
        return -1;
    if (!s->cv && (ext_predictions_read(&s->given_eval, c->hypothesis_eval_predictions,
                                        &s->data, err) < 0 ||
                   ext_predictions_cover(&s->given_eval, &s->data, s->eval, err) < 0))
        return -1;
    return 0;
}

/* The premise-aware predictions given: of every row when the study
   cross-validates, else of the evaluated split. */
static int given_pair(study *s, tells_error *err)
{
    const study_config *c = s->cfg;
    if (!c->pair_predictions)
        return 0;
    s->given_pair = true;
    const char *name = c->model_name;
    if (!name) {
        name = strrchr(c->pair_predictions, '/');
        name = name ? name + 1 : c->pair_predictions;
    }
    model_name(s->pair_name, sizeof s->pair_name, s->pair_entry, sizeof s->pair_entry, name);
    if (ext_predictions_read(&s->pair_pred, c->pair_predictions, &s->data, err) < 0)
        return -1;
    return ext_predictions_cover(&s->pair_pred, &s->data, s->cv ? NULL : s->eval, err);
}

static int run(study *s, void *state, tells_error *err)
{
    (void)state;
    if (load_corpus(s, err) < 0 || choose_evaluation(s, err) < 0 || folds_file(s, err) < 0 ||
        given_predictions(s, err) < 0 || given_pair(s, err) < 0)
        return -1;
    if (s->cfg->null_predictions) {
        s->given_null = true;
        return read_every_row(s, &s->null_pred, s->cfg->null_predictions, err);
    }
    return 0;
}

const study_section section_prepare = {
    .name = "prepare",
    .writes = "prepared.tsv (tells-prep with the corpus options; a prepared TSV is "
              "copied); folds.tsv: each example's id, split, role (train or eval with a "
              "training split, else cv) and fold (1 to K) in the cross-fitting over every "
              "example, for models trained elsewhere",
    .provides = RES_CORPUS | RES_EVALUATION,
    .run = run,
};
