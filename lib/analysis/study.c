#include <config.h>
#include "analysis/study.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/baselines.h"
#include "analysis/capability.h"
#include "analysis/report.h"
#include "analysis/studydata.h"
#include "base/alloc.h"
#include "base/lineio.h"
#include "base/npy.h"
#include "base/outfile.h"
#include "base/prepared.h"
#include "model/classifier.h"
#include "model/embed.h"
#include "stats/ranktest.h"

/* The MedNLI study's settings, and the main job's. */
enum {
    PMI_MIN_COUNT = 5, TOKEN_MIN_COUNT = 5, VECTOR_DIM = 100, VECTOR_EPOCH = 20,
    HELDOUT_BUCKET = 100000, BOOTSTRAP_SAMPLES = 2000, PREDICT_BATCH = 512
};
#define PMI_SMOOTHING 100.0
#define AFLITE_TRAIN_FRACTION 0.4
/* k = 500 of MedNLI's 14,049 training pairs, scaled to the corpus. */
#define AFLITE_K_PER_PAIR (500.0 / 14049.0)

void study_config_default(study_config *c)
{
    memset(c, 0, sizeof *c);
    c->name = "corpus";
    c->prep.tok.kind = TOKENIZER_DEFAULT;
    c->prep.format = FORMAT_AUTO;
    c->prep.fields = CORPUS_FIELDS_DEFAULT;
    c->heur.general = true;
    c->folds = 5;
    c->threads = 1;
    c->seed = 1;
    c->alpha = 0.05;
    c->token_alpha = 0.01;
    c->figures = true;
    c->gnuplot = "gnuplot";
}

typedef struct run {
    const study_config *c;
    const char *dir;
    study_result *r;
    char *prepared;            /* DIR/prepared.tsv */
    const char *input;         /* the prepared corpus the steps read: the
                                  given one, or DIR/prepared.tsv */
    dataset all;               /* all.tsv, once written */
    bool all_loaded;
    npy_matrix x;              /* the hypothesis vectors */
} run;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void say(const run *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const run *u, const char *fmt, ...)
{
    if (!u->c->progress)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    u->c->progress(msg, u->c->progress_user);
}

/* DIR/name, or NULL with err set. */
static char *in_dir(const run *u, const char *name, tells_error *err)
{
    size_t n = strlen(u->dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (!p)
        tells_error_nomem(err, NULL, 0);
    else
        snprintf(p, n, "%s/%s", u->dir, name);
    return p;
}

/* ---- the corpus ---- */

/* A prepared TSV given as it is: copied into the folder, so that the
   folder holds all the study read. */
/* Copies from into to line by line; with split_all, the split column of
   every row after the header becomes "all". A write error is out_commit's
   to report. */
static int copy_lines(const char *from, const char *to, bool split_all, tells_error *err)
{
    line_reader lr;
    if (line_reader_open(&lr, from, 0, err) < 0)
        return -1;
    out_file o;
    if (out_open(&o, to, err) < 0) {
        line_reader_close(&lr);
        return -1;
    }
    char *line;
    size_t len;
    int rc;
    while ((rc = line_reader_next(&lr, &line, &len, err)) == 1) {
        char *tab = split_all && lr.lineno > 1 ? memchr(line, '\t', len) : NULL;
        char *tab2 = tab ? memchr(tab + 1, '\t', len - (size_t)(tab + 1 - line)) : NULL;
        if (tab2)
            fprintf(o.fp, "%.*s\tall%s\n", (int)(tab - line), line, tab2);
        else if (fwrite(line, 1, len, o.fp) != len || putc('\n', o.fp) == EOF)
            break;
    }
    line_reader_close(&lr);
    if (rc < 0) {
        out_abort(&o);
        return -1;
    }
    return out_commit(&o, err);
}

static int copy_file(const char *from, const char *to, tells_error *err)
{
    return copy_lines(from, to, false, err);
}

/* Prepares inputs (as tells-prep does with the study's options) into
   path. */
static int prepare_inputs(const study_config *c, const prep_input *in, size_t n,
                          const char *path, tells_error *err)
{
    phrase_set *ps = NULL;
    if (prep_load_phrases((const char *const *)c->phrase_files, c->nphrase_files,
                          c->mesh_terms, &c->prep.tok, &ps, err) < 0)
        return -1;
    prep_options po = c->prep;
    po.phrases = ps;
    int rc = prep_run(&po, in, n, path, NULL, NULL, err);
    phrase_set_free(ps);
    return rc;
}

static int step_prepare(run *u, tells_error *err)
{
    study_result *r = u->r;
    const study_config *c = u->c;
    if (!(u->prepared = in_dir(u, "prepared.tsv", err)))
        return -1;
    /* A prepared TSV is read where it is, so that messages name it (and
       copied into the folder); standard input only through the copy. */
    bool direct = c->prepared && strcmp(c->prepared, "-") != 0;
    int rc = c->prepared ? copy_file(c->prepared, u->prepared, err)
                         : prepare_inputs(c, c->inputs, c->ninputs, u->prepared, err);
    u->input = direct ? c->prepared : u->prepared;
    if (rc < 0 || dataset_load(&r->data, u->input, err) < 0 ||
        dataset_require_examples(&r->data, err) < 0)
        return -1;
    r->nclasses = vocab_size(r->data.labels);
    if (r->nclasses < 2)
        return tells_error_set(err, direct ? c->prepared : NULL, 0,
                               "one class only ('%s'): nothing to study",
                               vocab_str(r->data.labels, 0));
    if (r->nclasses > STUDY_MAX_CLASSES)
        return tells_error_set(err, direct ? c->prepared : NULL, 0,
                               "%zu classes: the study serves at most %d (AFLite's models "
                               "need memory that grows with the square of the classes)",
                               r->nclasses, STUDY_MAX_CLASSES);
    r->class_order = vocab_sorted_ids(r->data.labels);
    r->class_n = array_new(r->nclasses, sizeof *r->class_n);
    if (!r->class_order || !r->class_n)
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < r->data.n; i++)
        r->class_n[r->data.ex[i].label]++;
    return 0;
}

/* ---- tokens, lengths, heuristics ---- */

static int write_pmi(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    const study_result *r = ctx;
    return pmi_write(&r->pmi, &r->tokens, STUDY_PMI_TOP, true, fp);
}

static int write_competency(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    const study_result *r = ctx;
    return competency_write(fp, &r->comp, &r->tokens, 0, false, 3);
}

static int write_out(const run *u, const char *name, out_writer w, void *ctx,
                     tells_error *err)
{
    char *path = in_dir(u, name, err);
    if (!path)
        return -1;
    int rc = out_write(path, w, ctx, err);
    free(path);
    return rc;
}

static int step_tokens(run *u, tells_error *err)
{
    study_result *r = u->r;
    if (counts_init(&r->tokens, FIELD_HYPOTHESIS) < 0)
        return tells_error_nomem(err, NULL, 0);
    if (counts_add_prepared(&r->tokens, u->input, false, u->c->threads, err) < 0)
        return -1;
    /* The report and pmi.tsv show a class's first STUDY_PMI_TOP tokens. */
    pmi_options po = {.binary = false, .min_count = PMI_MIN_COUNT, .smoothing = PMI_SMOOTHING,
                      .top = STUDY_PMI_TOP};
    if (pmi_compute(&r->tokens, &po, &r->pmi) < 0)
        return tells_error_nomem(err, NULL, 0);
    competency_options co;
    competency_options_default(&co);
    co.class_prior = u->c->class_prior;
    co.min_count = TOKEN_MIN_COUNT;
    co.alpha = u->c->token_alpha;
    if (competency_compute(&r->tokens, &co, &r->comp, err) < 0)
        return -1;
    if (write_out(u, "pmi.tsv", write_pmi, r, err) < 0)
        return -1;
    return write_out(u, "competency.tsv", write_competency, r, err);
}

static int write_lengths(FILE *fp, void *ctx, tells_error *err)
{
    return lengths_write(ctx, true, fp, err);
}

static int step_lengths(run *u, tells_error *err)
{
    study_result *r = u->r;
    if (lengths_init(&r->lengths) < 0)
        return tells_error_nomem(err, NULL, 0);
    if (lengths_add_prepared(&r->lengths, u->input, FIELD_HYPOTHESIS, false, err) < 0 ||
        write_out(u, "len.tsv", write_lengths, &r->lengths, err) < 0)
        return -1;
    size_t n = 0, k = vocab_size(r->lengths.classes);
    for (size_t c = 0; c < k; c++)
        n += r->lengths.cls[c].n;
    double *x = array_new(n, sizeof *x);
    size_t *g = array_new(n, sizeof *g);
    if (!x || !g) {
        free(x);
        free(g);
        return tells_error_nomem(err, NULL, 0);
    }
    size_t i = 0;
    for (size_t c = 0; c < k; c++)
        for (size_t j = 0; j < r->lengths.cls[c].n; j++) {
            x[i] = r->lengths.cls[c].len[j];
            g[i++] = c;
        }
    int rc = kruskal_wallis(x, g, n, k, &r->kw, err);
    r->kw_tested = rc == 0;
    free(x);
    free(g);
    return rc;
}

static int step_heuristics(run *u, tells_error *err)
{
    study_result *r = u->r;
    if (heuristic_set_open(&r->hs, &u->c->heur, err) < 0)
        return -1;
    r->hs_open = true;
    char *pairs = in_dir(u, "heur-pairs.tsv", err);
    if (!pairs)
        return -1;
    out_file po;
    int rc = out_open(&po, pairs, err);
    free(pairs);
    if (rc < 0)
        return -1;
    heur_count_options o = {.pairs = po.fp};
    char *input = (char *)u->input;
    if (heur_count_files(&r->hs, &input, 1, &o, &r->tally, err) < 0) {
        out_abort(&po);
        return -1;
    }
    if (out_commit(&po, err) < 0)
        return -1;
    heur_table t = {&r->hs, &r->tally, EXPECT_UNIFORM, 2};
    if (write_out(u, "heur.tsv", heur_table_write, &t, err) < 0)
        return -1;
    r->heur = array_new(r->hs.n, sizeof *r->heur);
    if (!r->heur)
        return tells_error_nomem(err, NULL, 0);
    for (size_t h = 0; h < r->hs.n; h++)
        if (heur_test(&r->tally, h, EXPECT_UNIFORM, &r->heur[h], err) < 0)
            return -1;
    return 0;
}

/* ---- baselines ---- */

/* The entry of model on the evaluated split. */
static const comparison_entry *entry_of(const comparison *cmp, const char *model,
                                        const char *split)
{
    for (size_t i = 0; i < cmp->n; i++)
        if (strcmp(cmp->entry[i].model, model) == 0 && strcmp(cmp->entry[i].split, split) == 0)
            return &cmp->entry[i];
    return NULL;
}

typedef struct table_out {
    comparison *cmp;
    bool details;
} table_out;

static int write_table(FILE *fp, void *ctx, tells_error *err)
{
    table_out *t = ctx;
    return comparison_write_table(fp, t->cmp, t->details, err);
}

static int write_predictions(FILE *fp, void *ctx, tells_error *err)
{
    return comparison_write_predictions(fp, ctx, err);
}

static void forward_progress(const char *msg, void *user)
{
    const run *u = user;
    say(u, "  %s", msg);
}

static void comparison_setup(const run *u, comparison_config *cc)
{
    comparison_config_default(cc);
    cc->train = u->r->train;
    cc->folds = u->r->cv ? u->r->folds : 0;
    cc->ft.seed = (int)u->c->seed;
    cc->progress = u->c->progress ? forward_progress : NULL;
    cc->progress_user = (void *)u;
}

/* Which split trains and which is scored: train and test (dev, or the
   first other split) when there are such, else cross-validation. */
static int choose_evaluation(run *u, tells_error *err)
{
    study_result *r = u->r;
    const study_config *c = u->c;
    const vocab *sp = r->data.splits;
    size_t ns = vocab_size(sp);
    const char *names[2] = {c->train, c->eval};
    for (int k = 0; k < 2; k++)
        if (names[k] && vocab_find(sp, names[k], strlen(names[k])) < 0) {
            char have[512] = "";
            for (size_t s = 0; s < ns; s++)
                snprintf(have + strlen(have), sizeof have - strlen(have), "%s%s", s ? ", " : "",
                         vocab_str(sp, s));
            return tells_error_set(err, NULL, 0, "no split named '%s' in the corpus (its "
                                   "splits: %s)", names[k], have);
        }
    if (c->train && c->eval && strcmp(c->train, c->eval) == 0)
        return tells_error_usage(err, "split '%s' cannot both train and be evaluated",
                                 c->train);
    const char *train = c->train ? c->train : vocab_find(sp, "train", 5) >= 0 ? "train" : NULL;
    if (train && ns >= 2) {
        const char *eval = c->eval;
        if (!eval && vocab_find(sp, "test", 4) >= 0 && strcmp(train, "test") != 0)
            eval = "test";
        if (!eval && vocab_find(sp, "dev", 3) >= 0 && strcmp(train, "dev") != 0)
            eval = "dev";
        for (size_t s = 0; !eval && s < ns; s++)
            if (strcmp(vocab_str(sp, s), train) != 0)
                eval = vocab_str(sp, s);
        snprintf(r->train, sizeof r->train, "%s", train);
        snprintf(r->eval, sizeof r->eval, "%s", eval);
        return 0;
    }
    if (c->eval)
        return tells_error_usage(err, "an evaluated split '%s' needs another split to "
                                 "train on", c->eval);
    r->cv = true;
    r->folds = c->folds;
    /* One split: folds within it; several without train: within all. */
    snprintf(r->train, sizeof r->train, "%s", ns == 1 ? vocab_str(sp, 0) : "all");
    snprintf(r->eval, sizeof r->eval, "cv");
    if (r->data.n < r->folds)
        return tells_error_set(err, NULL, 0, "the corpus's %zu examples cannot make %zu "
                               "folds", r->data.n, r->folds);
    return 0;
}

/* The data the comparisons run on: the corpus, or all.tsv when the folds
   go over several splits. */
static const dataset *comparison_data(const run *u, const dataset *all)
{
    return u->r->cv && strcmp(u->r->train, "all") == 0 ? all : &u->r->data;
}

/* Correctness of an entry's predictions, in the order of the evaluated
   rows (which the first entry fixed). */
static int correctness(study_result *r, const dataset *d, const comparison_entry *e,
                       unsigned char **right, tells_error *err)
{
    const predictions *p = &e->pred;
    if (!r->eval_row) {
        r->neval = p->n;
        r->eval_row = array_new(p->n, sizeof *r->eval_row);
        if (!r->eval_row)
            return tells_error_nomem(err, NULL, 0);
        for (size_t i = 0; i < p->n; i++)
            r->eval_row[i] = p->row[i];
    } else if (p->n != r->neval)
        return tells_error_set(err, NULL, 0, "models scored different rows");
    *right = array_new(p->n, sizeof **right);
    if (!*right)
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < p->n; i++) {
        if (p->row[i] != r->eval_row[i])
            return tells_error_set(err, NULL, 0, "models scored different rows");
        (*right)[i] = p->pred[i] == d->ex[p->row[i]].label;
    }
    return 0;
}

static double mean_of(const unsigned char *x, size_t n)
{
    size_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return n ? (double)s / (double)n : NAN;
}

static void discordant(const unsigned char *a, const unsigned char *b, size_t n,
                       unsigned long *only_a, unsigned long *only_b)
{
    *only_a = *only_b = 0;
    for (size_t i = 0; i < n; i++) {
        *only_a += a[i] && !b[i];
        *only_b += b[i] && !a[i];
    }
}

static int step_baselines(run *u, const dataset *all, tells_error *err)
{
    study_result *r = u->r;
    const dataset *d = comparison_data(u, all);
    comparison_config cc;
    comparison_setup(u, &cc);
    comparison cmp = {0};
    if (comparison_run(&cmp, d, &cc, err) < 0)
        return -1;
    table_out t = {&cmp, true};
    int rc = write_out(u, "baseline.tsv", write_table, &t, err);
    if (rc == 0)
        rc = write_out(u, "predictions.tsv", write_predictions, &cmp, err);
    const comparison_entry *maj = entry_of(&cmp, "majority", r->eval);
    const comparison_entry *ft = entry_of(&cmp, "fasttext", r->eval);
    if (rc == 0 && (!maj || !ft))
        rc = tells_error_set(err, NULL, 0, "no scores of split '%s'", r->eval);
    r->model[0].name = "majority";
    r->model[1].name = "hypothesis";
    r->model[2].name = "pair";
    if (rc == 0)
        rc = correctness(r, d, maj, &r->model[0].right, err);
    if (rc == 0)
        rc = correctness(r, d, ft, &r->model[1].right, err);
    if (rc == 0) {
        size_t L = vocab_size(d->labels);
        r->confusion = array_new(L * L, sizeof *r->confusion);
        if (!r->confusion)
            rc = tells_error_nomem(err, NULL, 0);
        for (size_t i = 0; rc == 0 && i < ft->pred.n; i++)
            r->confusion[d->ex[ft->pred.row[i]].label * L + ft->pred.pred[i]]++;
    }
    comparison_free(&cmp);
    if (rc < 0)
        return -1;

    /* The premise and hypothesis together, on the same rows. */
    comparison_setup(u, &cc);
    cc.input = INPUT_PAIR;
    cc.run_majority = false;
    if (comparison_run(&cmp, d, &cc, err) < 0)
        return -1;
    t.details = false;
    rc = write_out(u, "pair-baseline.tsv", write_table, &t, err);
    const comparison_entry *pair = entry_of(&cmp, "fasttext", r->eval);
    if (rc == 0 && !pair)
        rc = tells_error_set(err, NULL, 0, "no scores of split '%s'", r->eval);
    if (rc == 0)
        rc = correctness(r, d, pair, &r->model[2].right, err);
    comparison_free(&cmp);
    if (rc < 0)
        return -1;
    for (int m = 0; m < 3; m++)
        r->model[m].accuracy = mean_of(r->model[m].right, r->neval);
    discordant(r->model[1].right, r->model[0].right, r->neval, &r->hyp_only_b,
               &r->hyp_only_c);
    discordant(r->model[2].right, r->model[1].right, r->neval, &r->pair_b, &r->pair_c);
    unsigned long seed = u->c->seed;
    if (paired_diff_interval(r->model[1].right, r->model[0].right, r->neval,
                             BOOTSTRAP_SAMPLES, seed, 0.95, &r->hyp_vs_majority, err) < 0 ||
        paired_diff_interval(r->model[2].right, r->model[1].right, r->neval,
                             BOOTSTRAP_SAMPLES, seed, 0.95, &r->pair_vs_hyp, err) < 0)
        return -1;
    /* Each model's accuracy with its own interval (against no model). */
    unsigned char *zero = array_new(r->neval, 1);
    if (!zero)
        return tells_error_nomem(err, NULL, 0);
    for (int m = 0; m < 3 && rc == 0; m++)
        rc = paired_diff_interval(r->model[m].right, zero, r->neval, BOOTSTRAP_SAMPLES, seed,
                                  0.95, &r->model[m].ci, err);
    free(zero);
    return rc;
}

/* ---- vectors and AFLite ---- */

static int step_vectors(run *u, npy_matrix *x, tells_error *err)
{
    study_result *r = u->r;
    char *vectors = NULL;
    int rc = 0;
    if (u->c->vectors) {
        vectors = strdup(u->c->vectors);
        if (!vectors)
            rc = tells_error_nomem(err, NULL, 0);
    } else if (!(vectors = in_dir(u, "vectors.bin", err))) {
        rc = -1;
    } else {
        ft_train_args a = {.mode = "skipgram", .dim = VECTOR_DIM, .epoch = VECTOR_EPOCH,
                           .threads = 1, .seed = (int)u->c->seed};
        rc = embed_train_vectors(&r->data, vectors, &a, err);
    }
    embed_options eo = {.input = EMBED_HYPOTHESIS, .pair = EMBED_PAIR_SUM};
    embed_stats st;
    if (rc == 0)
        rc = embed_dataset(&r->data, vectors, &eo, x, &st, err);
    free(vectors);
    if (rc == 0)
        rc = write_out(u, "hypothesis.npy", npy_write_matrix, x, err);
    return rc;
}

typedef struct aflite_watch {
    aflite_record *rec;
    study_result *r;
} aflite_watch;

/* Records each round, and keeps the first round's scores (every example
   is scored then) for the report's histogram. */
static int watch_round(const aflite_round *a, void *user, tells_error *err)
{
    aflite_watch *w = user;
    if (aflite_record_round(a, w->rec, err) < 0)
        return -1;
    if (a->round == 1)
        for (size_t i = 0; i < a->examples; i++)
            w->r->first_scores[a->rows[i]] =
                a->held[i] ? (double)a->correct[i] / (double)a->held[i] : 0.0;
    return 0;
}

static int write_ids(const run *u, const char *name, const aflite_record *rec, bool easy,
                     tells_error *err)
{
    char *path = in_dir(u, name, err);
    if (!path)
        return -1;
    int rc = aflite_write_ids(path, rec, easy, err);
    free(path);
    return rc;
}

static int step_aflite(run *u, npy_matrix *x, tells_error *err)
{
    study_result *r = u->r;
    const dataset *d = &r->data;
    int *y = NULL;
    size_t classes;
    if (aflite_classes(d, &y, &classes, err) < 0)
        return -1;
    aflite_options ao;
    aflite_options_default(&ao);
    ao.train_size = aflite_train_size(AFLITE_TRAIN_FRACTION, d->n);
    /* As the main job computes it: (500 N + 7024) / 14049, at least 1. */
    ao.cutoff = (500 * d->n + 7024) / 14049;
    if (ao.cutoff == 0)
        ao.cutoff = 1;
    ao.seed = u->c->seed;
    ao.lr.threads = u->c->threads;
    aflite_record rec;
    char *scores = in_dir(u, "aflite-scores.tsv", err);
    r->first_scores = array_new(d->n, sizeof *r->first_scores);
    r->easy = array_new(d->n, sizeof *r->easy);
    int rc = 0;
    if (!scores || !r->first_scores || !r->easy)
        rc = scores ? tells_error_nomem(err, NULL, 0) : -1;
    if (rc == 0 && ao.train_size >= d->n)
        rc = tells_error_set(err, NULL, 0, "the corpus's %zu examples are too few for AFLite",
                             d->n);
    if (rc == 0)
        rc = aflite_record_init(&rec, d, scores, err);
    if (rc < 0) {
        free(y);
        free(scores);
        return -1;
    }
    aflite_watch w = {&rec, r};
    ao.round_done = watch_round;
    ao.user = &w;
    uint64_t *keys = aflite_row_keys(d);
    ao.row_keys = keys;
    rc = keys ? aflite_run(x->data, x->rows, x->cols, y, classes, &ao, &rec.result, err)
              : tells_error_nomem(err, NULL, 0);
    free(keys);
    if (rc == 0)
        rc = write_ids(u, "easy.ids", &rec, true, err);
    if (rc == 0)
        rc = write_ids(u, "difficult.ids", &rec, false, err);
    if (rc == 0)
        rc = out_write(scores, aflite_write_scores, &rec, err);
    if (rc == 0)
        rc = write_out(u, "aflite.tsv", aflite_write_rounds, &rec, err);
    if (rc == 0) {
        for (size_t i = 0; i < d->n; i++) {
            r->easy[i] = rec.result.removed_in[i] != 0;
            r->neasy += r->easy[i];
        }
        r->nrounds = rec.nrounds;
        r->rounds = array_new(rec.nrounds, sizeof *r->rounds);
        if (!r->rounds)
            rc = tells_error_nomem(err, NULL, 0);
        else
            memcpy(r->rounds, rec.rounds, rec.nrounds * sizeof *r->rounds);
    }
    aflite_record_free(&rec);
    free(scores);
    free(y);
    return rc;
}

/* Hypothesis-only accuracy on the evaluated rows, in full and by AFLite
   partition, and the difficult partition against the full set. */
static int partition_scores(run *u, tells_error *err)
{
    study_result *r = u->r;
    unsigned char *in = array_new(r->neval, 1);
    if (!in)
        return tells_error_nomem(err, NULL, 0);
    const unsigned char *right = r->model[1].right;
    int rc = 0;
    for (int p = 0; p < 3 && rc == 0; p++) {
        size_t n = 0;
        for (size_t i = 0; i < r->neval; i++) {
            bool easy = r->easy[r->eval_row[i]];
            in[i] = p == 0 || (p == 1) == easy;
            n += in[i];
        }
        r->part_n[p] = n;
        r->part_accuracy[p] = NAN;
        if (n == 0)
            continue;
        unsigned char *sub = array_new(n, 1), *zero = array_new(n, 1);
        if (!sub || !zero) {
            free(sub);
            free(zero);
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        for (size_t i = 0, k = 0; i < r->neval; i++)
            if (in[i])
                sub[k++] = right[i];
        r->part_accuracy[p] = mean_of(sub, n);
        rc = paired_diff_interval(sub, zero, n, BOOTSTRAP_SAMPLES, u->c->seed, 0.95,
                                  &r->part_ci[p], err);
        free(sub);
        free(zero);
        if (rc == 0 && p == 2) {
            rc = subset_diff_interval(right, in, r->neval, BOOTSTRAP_SAMPLES, u->c->seed,
                                      0.95, &r->difficult_vs_full, err);
            r->difficult_tested = rc == 0;
        }
    }
    free(in);
    return rc;
}

/* all.tsv: every row in one split "all", for cross-validation over every
   row as the MedNLI study scored AFLite's partitions. */
static int write_all(const char *from, const char *to, tells_error *err)
{
    return copy_lines(from, to, true, err);
}

/* Keeps the cross-validated hypothesis-only predictions of every row
   (partitions.tsv's model): PVI's g_x (step_measures). Rows of all.tsv
   are the corpus's, labels mapped by name. */
static int keep_cv_predictions(study_result *r, const comparison *cmp, const dataset *all,
                               tells_error *err)
{
    const comparison_entry *e = entry_of(cmp, "fasttext", "cv");
    size_t n = r->data.n, L = r->nclasses;
    if (!e || !e->pred.prob || e->pred.n != n || all->n != n)
        return tells_error_set(err, NULL, 0, "no cross-validated predictions of every row");
    r->m.cv_prob = array_new(n * L, sizeof *r->m.cv_prob);
    r->m.cv_pred = array_new(n, sizeof *r->m.cv_pred);
    long *map = array_new(vocab_size(all->labels), sizeof *map);
    int rc = r->m.cv_prob && r->m.cv_pred && map ? 0 : tells_error_nomem(err, NULL, 0);
    for (size_t l = 0; rc == 0 && l < vocab_size(all->labels); l++)
        map[l] = vocab_find(r->data.labels, vocab_str(all->labels, l),
                            strlen(vocab_str(all->labels, l)));
    for (size_t j = 0; rc == 0 && j < n; j++) {
        size_t i = e->pred.row[j];
        r->m.cv_pred[i] = (size_t)map[e->pred.pred[j]];
        for (size_t l = 0; l < e->pred.nlabels; l++)
            r->m.cv_prob[i * L + (size_t)map[l]] = e->pred.prob[j * e->pred.nlabels + l];
    }
    free(map);
    return rc;
}

static int step_partitions(run *u, const dataset *all, tells_error *err)
{
    study_result *r = u->r;
    char *easy = in_dir(u, "easy.ids", err), *difficult = in_dir(u, "difficult.ids", err);
    /* A partition AFLite left empty (nothing easy, or nothing left) has
       nothing to score. */
    comparison_partition parts[2];
    size_t np = 0;
    if (r->neasy > 0)
        parts[np++] = (comparison_partition){"easy", easy};
    if (r->neasy < r->data.n)
        parts[np++] = (comparison_partition){"difficult", difficult};
    comparison_config cc;
    comparison_setup(u, &cc);
    cc.train = "all";
    cc.folds = u->c->folds;
    cc.parts = parts;
    cc.nparts = np;
    comparison cmp = {0};
    int rc = easy && difficult ? comparison_run(&cmp, all, &cc, err) : -1;
    if (rc == 0) {
        table_out t = {&cmp, false};
        rc = write_out(u, "partitions.tsv", write_table, &t, err);
        if (rc == 0)
            rc = keep_cv_predictions(r, &cmp, all, err);
        comparison_free(&cmp);
    }
    free(easy);
    free(difficult);
    return rc;
}

/* With train and test splits: one hypothesis-only model, kept, scored
   on test in full and on each partition (tells-run --eval's table). */
static int step_heldout(run *u, tells_error *err)
{
    study_result *r = u->r;
    if (vocab_find(r->data.splits, "train", 5) < 0 || vocab_find(r->data.splits, "test", 4) < 0)
        return 0;
    comparison_config cc;
    comparison_setup(u, &cc);
    cc.train = "train";
    const char *test = "test";
    cc.eval = &test;
    cc.neval = 1;
    cc.folds = 0;
    cc.ft.bucket = HELDOUT_BUCKET;
    cc.keep_model = true;
    comparison cmp = {0};
    if (comparison_run(&cmp, &r->data, &cc, err) < 0)
        return -1;
    table_out t = {&cmp, false};
    char *model = in_dir(u, "hypothesis.bin", err);
    int rc = model ? write_out(u, "hypothesis-baseline.tsv", write_table, &t, err) : -1;
    if (rc == 0)
        rc = fasttext_save(cmp.model, model, err);
    comparison_free(&cmp);
    classifier *c = NULL;
    heldout h = {0};
    /* Only the partitions with rows of the test split. */
    partition parts[2] = {{0}};
    size_t np = 0;
    const char *names[2] = {"easy", "difficult"};
    for (int p = 0; p < 2 && rc == 0; p++) {
        size_t rows = 0;
        for (size_t i = 0; i < r->data.n; i++)
            rows += r->easy[i] == (p == 0) &&
                    strcmp(vocab_str(r->data.splits, r->data.ex[i].split), "test") == 0;
        if (rows == 0)
            continue;
        char *path = in_dir(u, p ? "difficult.ids" : "easy.ids", err);
        rc = path ? partition_load(&parts[np], names[p], strlen(names[p]), path, err) : -1;
        np += rc == 0;
        free(path);
    }
    if (rc == 0)
        rc = classifier_open_fasttext(&c, model, err);
    if (rc == 0)
        rc = heldout_select(&h, &r->data, "test", err);
    if (rc == 0)
        rc = heldout_predict(&h, false, c, PREDICT_BATCH, err);
    if (c) {
        if (rc == 0)
            rc = classifier_finish(c, err);
        else
            classifier_abort(c);
    }
    if (rc == 0) {
        char *path = in_dir(u, "heldout.tsv", err);
        out_file o;
        rc = path ? out_open(&o, path, err) : -1;
        if (rc == 0) {
            rc = report_partitions(o.fp, &h, parts, np, err);
            if (rc == 0)
                rc = out_commit(&o, err);
            else
                out_abort(&o);
        }
        free(path);
    }
    heldout_free(&h);
    for (int p = 0; p < 2; p++)
        partition_free(&parts[p]);
    free(model);
    return rc;
}

/* ---- log-odds, PVI and cartography ---- */

static int write_logodds(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    const study_result *r = ctx;
    return logodds_write(fp, &r->m.logodds, &r->tokens, STUDY_PMI_TOP);
}

static int write_pvi(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    const study_result *r = ctx;
    return pvi_write_examples(fp, &r->data, &r->m.pvi);
}

static int write_pvi_summary(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    const study_result *r = ctx;
    return pvi_write_summary(fp, &r->data, &r->m.pvi);
}

static int write_carto(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    const study_result *r = ctx;
    return carto_write_table(fp, &r->m.carto, &r->m.cstats);
}

/* compare-partitions.tsv: each partition's size and the hypothesis-only
   accuracy on it, then its Jaccard overlap with every partition. */
static int write_compare(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    const study_measures *m = ctx;
    fputs("partition\tn\taccuracy\tci_low\tci_high", fp);
    for (int b = 0; b < STUDY_NPARTS; b++)
        fprintf(fp, "\tjaccard_%s", m->name[b]);
    fputc('\n', fp);
    for (int a = 0; a < STUDY_NPARTS; a++) {
        fprintf(fp, "%s\t%zu", m->name[a], m->n[a]);
        if (m->n[a])
            fprintf(fp, "\t%.6f\t%.6f\t%.6f", m->accuracy[a], m->ci[a].low, m->ci[a].high);
        else
            fputs("\t-\t-\t-", fp);
        for (int b = 0; b < STUDY_NPARTS; b++)
            fprintf(fp, "\t%.6f", m->jaccard[a][b]);
        fputc('\n', fp);
    }
    return ferror(fp) ? -1 : 0;
}

static int write_region_ids(const run *u, const char *name, carto_region region,
                            tells_error *err)
{
    char *path = in_dir(u, name, err);
    if (!path)
        return -1;
    int rc = carto_write_ids(path, &u->r->m.carto, &u->r->m.cstats, region, 0.33, err);
    free(path);
    return rc;
}

static int write_pvi_ids(const run *u, const char *name, bool low, tells_error *err)
{
    char *path = in_dir(u, name, err);
    if (!path)
        return -1;
    int rc = pvi_write_ids(path, &u->r->data, &u->r->m.pvi, 0.0, low, err);
    free(path);
    return rc;
}

/* The hypothesis-only accuracy on each partition and the overlaps. */
static int compare_partitions(run *u, tells_error *err)
{
    study_result *r = u->r;
    study_measures *m = &r->m;
    size_t n = r->data.n;
    static const char *const names[STUDY_NPARTS] = {
        "aflite-easy", "aflite-difficult", "low-pvi", "high-pvi", "carto-easy",
        "carto-ambiguous", "carto-hard"};
    const carto_region regions[3] = {CARTO_EASY, CARTO_AMBIGUOUS, CARTO_HARD};
    unsigned char *right = array_new(n, 1), *zero = array_new(n, 1), *sub = array_new(n, 1);
    int rc = right && zero && sub ? 0 : tells_error_nomem(err, NULL, 0);
    for (int p = 0; rc == 0 && p < STUDY_NPARTS; p++) {
        m->name[p] = names[p];
        if (!(m->in[p] = array_new(n, 1)))
            rc = tells_error_nomem(err, NULL, 0);
    }
    /* The carto rows are the dataset's: carto_train keeps its order. */
    for (int k = 0; rc == 0 && k < 3; k++)
        if (carto_select(&m->carto, &m->cstats, regions[k], 0.33, m->in[4 + k], err) ==
            (size_t)-1)
            rc = -1;
    size_t right_n = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        m->in[0][i] = r->easy[i];
        m->in[1][i] = !r->easy[i];
        m->in[2][i] = m->pvi.pvi[i] < 0;
        m->in[3][i] = !m->in[2][i];
        right[i] = m->pvi.pred[i] == r->data.ex[i].label;
        right_n += right[i];
    }
    m->full_accuracy = n ? (double)right_n / (double)n : NAN;
    for (int a = 0; rc == 0 && a < STUDY_NPARTS; a++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (m->in[a][i])
                sub[k++] = right[i];
        m->n[a] = k;
        m->accuracy[a] = NAN;
        if (k) {
            m->accuracy[a] = mean_of(sub, k);
            rc = paired_diff_interval(sub, zero, k, BOOTSTRAP_SAMPLES, u->c->seed, 0.95,
                                      &m->ci[a], err);
        }
        for (int b = 0; rc == 0 && b < STUDY_NPARTS; b++) {
            size_t both = 0, either = 0;
            for (size_t i = 0; i < n; i++) {
                both += m->in[a][i] && m->in[b][i];
                either += m->in[a][i] || m->in[b][i];
            }
            m->jaccard[a][b] = either ? (double)both / (double)either : 0.0;
        }
    }
    free(right);
    free(zero);
    free(sub);
    return rc;
}

/* Log-odds over the counted hypotheses; PVI cross-fitted over every row
   with the folds, seed and fastText of the partitions' cross-validation
   (so that g_x's predictions are that model's); cartography of a softmax
   regression over hypothesis.npy; the partitions side by side. */
static int step_measures(run *u, tells_error *err)
{
    study_result *r = u->r;
    study_measures *m = &r->m;
    logodds_options lo = {.min_count = PMI_MIN_COUNT, .prior_scale = 1.0, .top = STUDY_PMI_TOP};
    if (logodds_compute(&r->tokens, &lo, &m->logodds, err) < 0 ||
        write_out(u, "logodds.tsv", write_logodds, r, err) < 0)
        return -1;

    /* PVI's g_x is the cross-validated model of partitions.tsv: the same
       folds and seed, so its probabilities serve (tells-pvi --seed
       SEED prepared.tsv trains the same models and writes pvi.tsv). */
    pvi_options po;
    pvi_options_default(&po);
    po.folds = u->c->folds;
    po.seed = u->c->seed;
    if (pvi_from_probabilities(&r->data, m->cv_prob, m->cv_pred, &po, &m->pvi, err) < 0) {
        /* A class too rare for the folds: the report says so, the rest of
           the study stands. */
        if (err->kind != TELLS_ERR_DATA)
            return -1;
        tells_error_format(err, m->why_not, sizeof m->why_not);
        tells_error_clear(err);
        return 0;
    }
    if (write_out(u, "pvi.tsv", write_pvi, r, err) < 0 ||
        write_out(u, "pvi-summary.tsv", write_pvi_summary, r, err) < 0 ||
        write_pvi_ids(u, "low-pvi.ids", true, err) < 0 ||
        write_pvi_ids(u, "high-pvi.ids", false, err) < 0)
        return -1;

    npy_matrix x = {0};
    char *npy = in_dir(u, "hypothesis.npy", err);
    carto_train_options to;
    carto_train_options_default(&to);
    to.epochs = STUDY_CARTO_EPOCHS;
    to.seed = u->c->seed;
    int rc = npy ? npy_read(npy, &x, err) : -1;
    free(npy);
    if (rc == 0 && x.rows != r->data.n)
        rc = tells_error_set(err, NULL, 0, "hypothesis.npy has %zu rows for %zu examples",
                             x.rows, r->data.n);
    if (rc == 0)
        rc = carto_dynamics_init(&m->carto, err);
    if (rc == 0)
        rc = carto_train(&r->data, x.data, x.cols, &to, &m->carto, err);
    npy_free(&x);
    if (rc == 0)
        rc = carto_compute(&m->carto, &m->cstats, err);
    if (rc == 0)
        rc = write_out(u, "carto.tsv", write_carto, r, err);
    if (rc == 0)
        rc = write_region_ids(u, "carto-easy.ids", CARTO_EASY, err);
    if (rc == 0)
        rc = write_region_ids(u, "carto-ambiguous.ids", CARTO_AMBIGUOUS, err);
    if (rc == 0)
        rc = write_region_ids(u, "carto-hard.ids", CARTO_HARD, err);
    if (rc == 0)
        rc = compare_partitions(u, err);
    if (rc == 0)
        rc = write_out(u, "compare-partitions.tsv", write_compare, m, err);
    m->done = rc == 0;
    return rc;
}

static void study_measures_free(study_measures *m)
{
    free(m->cv_prob);
    free(m->cv_pred);
    logodds_free(&m->logodds);
    pvi_result_free(&m->pvi);
    if (m->carto.ids)
        carto_dynamics_free(&m->carto);
    carto_stats_free(&m->cstats);
    for (int p = 0; p < STUDY_NPARTS; p++)
        free(m->in[p]);
}

/* ---- new batches ---- */

/* Whether path is a prepared TSV (its first line is the header). */
static bool is_prepared(const char *path)
{
    prepared_reader pr;
    tells_error ignored;
    if (prepared_open(&pr, path, false, &ignored) < 0)
        return false;
    prepared_close(&pr);
    return true;
}

static int step_audit(run *u, tells_error *err)
{
    study_result *r = u->r;
    const study_config *c = u->c;
    if (c->nbatches == 0)
        return 0;
    r->batch = array_new(c->nbatches, sizeof *r->batch);
    if (!r->batch)
        return tells_error_nomem(err, NULL, 0);
    audit_options ao;
    audit_options_default(&ao);
    ao.ft.seed = (int)c->seed;
    ao.heuristics = &r->hs;
    ao.progress = c->progress ? forward_progress : NULL;
    ao.progress_user = (void *)u;
    audit_reference ref;
    memset(&ref, 0, sizeof ref);
    if (audit_reference_load(&ref, u->input, NULL, &ao, err) < 0)
        return -1;
    audit_report rep = {0};
    int rc = 0;
    for (size_t b = 0; b < c->nbatches && rc == 0; b++) {
        const char *given = c->batches[b];
        char name[64];
        snprintf(name, sizeof name, c->nbatches == 1 ? "batch.tsv" : "batch-%zu.tsv", b + 1);
        char *path = in_dir(u, name, err);
        if (!path) {
            rc = -1;
            break;
        }
        if (is_prepared(given))
            rc = copy_file(given, path, err);
        else {
            prep_input in = {"new", given};
            rc = prepare_inputs(c, &in, 1, path, err);
        }
        size_t before = rep.ngroups;
        if (rc == 0)
            rc = audit_report_add_batch(&rep, path, NULL, false, err);
        /* Groups are named by the file the user gave. */
        const char *slash = strrchr(given, '/');
        for (size_t g = before; rc == 0 && g < rep.ngroups; g++)
            snprintf(rep.groups[g].name, sizeof rep.groups[g].name, "%s",
                     slash ? slash + 1 : given);
        free(path);
    }
    if (rc == 0)
        rc = audit_report_run(&rep, &ref, &ao, err);
    if (rc == 0)
        rc = write_out(u, "audit.tsv", audit_summary_write, &rep, err);
    if (rc == 0)
        rc = write_out(u, "flags.tsv", audit_flags_write, &rep, err);
    audit_reference_free(&ref);
    /* The report keeps the findings. */
    r->batch[0].rep = rep;
    r->nbatches = rc == 0 ? 1 : 0;
    if (rc < 0)
        audit_report_free(&rep);
    return rc;
}

/* ---- verdicts ---- */

static const char *label_name(const study_result *r, size_t label)
{
    return vocab_str(r->data.labels, label);
}

static size_t majority_label_of(const study_result *r)
{
    /* The label the majority model answered: the most frequent gold label
       of the rows it was right on is it (it answers one label). */
    for (size_t i = 0; i < r->neval; i++)
        if (r->model[0].right[i])
            return r->data.ex[r->eval_row[i]].label;
    return r->class_order[0];
}

static void percent(char *buf, size_t size, double x)
{
    snprintf(buf, size, "%.1f%%", 100.0 * x);
}

static void pformat(char *buf, size_t size, pvalue p)
{
    pvalue_format(p, 2, buf, size);
}

static const char *eval_words(const study_result *r, char *buf, size_t size)
{
    if (r->cv)
        snprintf(buf, size, "%zu-fold cross-validation over %s", r->folds,
                 strcmp(r->train, "all") == 0 ? "every example" : r->train);
    else
        snprintf(buf, size, "the %s split (trained on %s)", r->eval, r->train);
    return buf;
}

static int verdict_models(study_result *r, tells_error *err)
{
    char a[32], b[32], d[32], lo[32], hi[32], p[64], where[320];
    eval_words(r, where, sizeof where);
    verdict *v = verdicts_add(&r->v, err, "hypothesis_only");
    if (!v)
        return -1;
    v->value = r->model[1].accuracy;
    v->reference = r->model[0].accuracy;
    v->effect = r->hyp_vs_majority.estimate;
    v->ci_low = r->hyp_vs_majority.low;
    v->ci_high = r->hyp_vs_majority.high;
    v->tested = true;
    v->p = mcnemar_exact_greater(r->hyp_only_b, r->hyp_only_c);
    v->direction_ok = v->effect > 0;
    snprintf(v->detail, sizeof v->detail,
             "test=mcnemar_exact_one_sided n=%zu only_hypothesis_right=%lu "
             "only_majority_right=%lu majority_label=%s evaluation=%s",
             r->neval, r->hyp_only_b, r->hyp_only_c, label_name(r, majority_label_of(r)),
             r->cv ? "cross-validation" : r->eval);
    percent(a, sizeof a, v->value);
    percent(b, sizeof b, v->reference);
    snprintf(d, sizeof d, "%+.1f", 100 * v->effect);
    snprintf(lo, sizeof lo, "%+.1f", 100 * v->ci_low);
    snprintf(hi, sizeof hi, "%+.1f", 100 * v->ci_high);
    pformat(p, sizeof p, v->p);
    snprintf(v->sentence, sizeof v->sentence,
             "A fastText model that reads only the hypothesis gets %s of %s right, against "
             "%s for always answering '%s': %s points (95%% interval %s to %s), p = %s "
             "(exact McNemar, one-sided).",
             a, where, b, label_name(r, majority_label_of(r)), d, lo, hi, p);

    if (!(v = verdicts_add(&r->v, err, "premise_and_hypothesis")))
        return -1;
    v->value = r->model[2].accuracy;
    v->reference = r->model[1].accuracy;
    v->effect = r->pair_vs_hyp.estimate;
    v->ci_low = r->pair_vs_hyp.low;
    v->ci_high = r->pair_vs_hyp.high;
    v->tested = true;
    v->p = mcnemar_exact_greater(r->pair_b, r->pair_c);
    v->direction_ok = v->effect > 0;
    snprintf(v->detail, sizeof v->detail,
             "test=mcnemar_exact_one_sided n=%zu only_pair_right=%lu only_hypothesis_right=%lu",
             r->neval, r->pair_b, r->pair_c);
    percent(a, sizeof a, v->value);
    percent(b, sizeof b, v->reference);
    snprintf(d, sizeof d, "%+.1f", 100 * v->effect);
    snprintf(lo, sizeof lo, "%+.1f", 100 * v->ci_low);
    snprintf(hi, sizeof hi, "%+.1f", 100 * v->ci_high);
    pformat(p, sizeof p, v->p);
    snprintf(v->sentence, sizeof v->sentence,
             "Reading the premise too (one bag of the words of both), the same kind of "
             "model gets %s right, against %s for the hypothesis alone: %s points (95%% "
             "interval %s to %s), p = %s.",
             a, b, d, lo, hi, p);
    return 0;
}

static int verdict_tokens(study_result *r, tells_error *err)
{
    const competency_table *t = &r->comp;
    for (size_t i = 0; i < t->n; i++) {
        const competency_row *row = &t->rows[i];
        if (!row->significant)
            continue;
        const char *tok = vocab_str(r->tokens.tokens, row->token);
        const char *cls = vocab_str(r->tokens.classes, row->class_id);
        verdict *v = verdicts_add(&r->v, err, "token:%s:%s", tok, cls);
        if (!v)
            return -1;
        v->value = row->p_hat;
        v->reference = row->p0;
        v->effect = row->p_hat - row->p0;
        v->tested = true;
        v->p = row->p;
        v->direction_ok = row->z > 0;
        snprintf(v->detail, sizeof v->detail,
                 "test=competency_z n=%llu z=%.6f bonferroni_m=%zu threshold=%.3g",
                 (unsigned long long)row->n, row->z, t->tested, t->threshold);
        char p[64];
        pformat(p, sizeof p, v->p);
        snprintf(v->sentence, sizeof v->sentence,
                 "'%s' is in %llu hypotheses, %.0f%% of them %s (%.0f%% expected): z = %.1f, "
                 "p = %s.", tok, (unsigned long long)row->n, 100 * row->p_hat, cls,
                 100 * row->p0, row->z, p);
    }
    return 0;
}

static int verdict_length(study_result *r, tells_error *err)
{
    if (!r->kw_tested)
        return 0;
    verdict *v = verdicts_add(&r->v, err, "length");
    if (!v)
        return -1;
    const length_table *lt = &r->lengths;
    size_t k = vocab_size(lt->classes);
    double lo = INFINITY, hi = -INFINITY;
    size_t lo_c = 0, hi_c = 0;
    size_t used = 0;
    used += (size_t)snprintf(v->detail, sizeof v->detail, "test=kruskal_wallis df=%g",
                             r->kw.df);
    size_t *order = vocab_sorted_ids(lt->classes);
    if (!order)
        return tells_error_nomem(err, NULL, 0);
    for (size_t j = 0; j < k; j++) {
        size_t c = order[j];
        double s = 0;
        for (size_t i = 0; i < lt->cls[c].n; i++)
            s += lt->cls[c].len[i];
        double mean = lt->cls[c].n ? s / (double)lt->cls[c].n : NAN;
        if (mean < lo) {
            lo = mean;
            lo_c = c;
        }
        if (mean > hi) {
            hi = mean;
            hi_c = c;
        }
        if (used < sizeof v->detail)
            used += (size_t)snprintf(v->detail + used, sizeof v->detail - used,
                                     " mean_%s=%.3f", vocab_str(lt->classes, c), mean);
    }
    free(order);
    v->value = r->kw.statistic;
    v->effect = hi - lo;
    v->tested = true;
    v->p = r->kw.p;
    char p[64];
    pformat(p, sizeof p, v->p);
    snprintf(v->sentence, sizeof v->sentence,
             "Hypotheses of class %s are longest (%.1f tokens on average) and of class %s "
             "shortest (%.1f): Kruskal-Wallis H = %.1f, p = %s.",
             vocab_str(lt->classes, hi_c), hi, vocab_str(lt->classes, lo_c), lo, v->value, p);
    return 0;
}

static int verdict_heuristics(study_result *r, tells_error *err)
{
    for (size_t h = 0; h < r->hs.n; h++) {
        const heur_result *hr = &r->heur[h];
        verdict *v = verdicts_add(&r->v, err, "heuristic:%s", r->hs.v[h].name);
        if (!v)
            return -1;
        v->value = (double)hr->n;
        const char *top = hr->n ? vocab_str(r->tally.classes, hr->top) : "-";
        size_t K = vocab_size(r->tally.classes);
        if (!hr->tested) {
            snprintf(v->detail, sizeof v->detail, "pairs=%llu", (unsigned long long)hr->n);
            snprintf(v->sentence, sizeof v->sentence,
                     "The %s heuristic holds for %llu pairs: too few to test.",
                     r->hs.v[h].name, (unsigned long long)hr->n);
            continue;
        }
        v->reference = 1.0 / (double)K;
        v->effect = hr->top_share - v->reference;
        v->tested = true;
        v->p = hr->test.p;
        snprintf(v->detail, sizeof v->detail,
                 "test=chi2_uniform chi2=%.6f df=%g top_class=%s top_share=%.6f",
                 hr->test.statistic, hr->test.df, top, hr->top_share);
        char p[64];
        pformat(p, sizeof p, v->p);
        snprintf(v->sentence, sizeof v->sentence,
                 "The %s heuristic holds for %llu pairs, %.0f%% of them %s (%.0f%% if it "
                 "said nothing of the label): chi-squared p = %s.",
                 r->hs.v[h].name, (unsigned long long)hr->n, 100 * hr->top_share, top,
                 100 * v->reference, p);
    }
    return 0;
}

static int verdict_aflite(study_result *r, tells_error *err)
{
    verdict *v = verdicts_add(&r->v, err, "aflite");
    if (!v)
        return -1;
    size_t n = r->data.n;
    v->value = (double)r->neasy / (double)n;
    v->reference = r->part_accuracy[0];
    snprintf(v->detail, sizeof v->detail,
             "easy=%zu difficult=%zu accuracy_full=%.6f accuracy_easy=%.6f "
             "accuracy_difficult=%.6f n_full=%zu n_difficult=%zu",
             r->neasy, n - r->neasy, r->part_accuracy[0], r->part_accuracy[1],
             r->part_accuracy[2], r->part_n[0], r->part_n[2]);
    char share[32];
    percent(share, sizeof share, v->value);
    if (!r->difficult_tested) {
        snprintf(v->sentence, sizeof v->sentence,
                 "AFLite finds %s of the examples easy; no evaluated example is difficult.",
                 share);
        return 0;
    }
    v->effect = r->difficult_vs_full.estimate;
    v->ci_low = r->difficult_vs_full.low;
    v->ci_high = r->difficult_vs_full.high;
    v->tested = true;
    v->p = r->difficult_vs_full.p;
    v->direction_ok = v->effect < 0;
    char a[32], b[32], p[64];
    percent(a, sizeof a, r->part_accuracy[2]);
    percent(b, sizeof b, r->part_accuracy[0]);
    pformat(p, sizeof p, v->p);
    snprintf(v->sentence, sizeof v->sentence,
             "AFLite finds %s of the examples easy for a linear model over word vectors; on "
             "the difficult rest the hypothesis-only model gets %s right, against %s on all "
             "evaluated examples: %+.1f points (95%% interval %+.1f to %+.1f), p = %s "
             "(paired bootstrap).",
             share, a, b, 100 * v->effect, 100 * v->ci_low, 100 * v->ci_high, p);
    return 0;
}

static int verdict_audits(study_result *r, tells_error *err)
{
    for (size_t b = 0; b < r->nbatches; b++) {
        const audit_report *rep = &r->batch[b].rep;
        for (size_t g = 0; g < rep->ngroups; g++) {
            const audit_group *gr = &rep->groups[g];
            for (size_t i = 0; i < gr->nf; i++) {
                const finding *f = &gr->f[i];
                /* Token checks are many: only the findings become rows. */
                if (strncmp(f->check, "token:", 6) == 0 && !f->significant)
                    continue;
                verdict *v = verdicts_add(&r->v, err, "audit:%s:%s", gr->name, f->check);
                if (!v)
                    return -1;
                v->value = f->batch;
                v->reference = f->reference;
                v->effect = f->batch - f->reference;
                v->tested = f->tested;
                v->p = f->test.p;
                v->direction_ok = !f->weaker;
                snprintf(v->detail, sizeof v->detail, "%s", f->detail);
                char p[64];
                pformat(p, sizeof p, v->p);
                if (f->tested)
                    snprintf(v->sentence, sizeof v->sentence,
                             "Batch %s, %s: %.3f against %.3f in the corpus, p = %s.",
                             gr->name, f->check, f->batch, f->reference, p);
                else
                    snprintf(v->sentence, sizeof v->sentence, "Batch %s, %s: %s.", gr->name,
                             f->check, f->detail);
            }
        }
    }
    return 0;
}

static int verdict_measures(study_result *r, tells_error *err)
{
    const study_measures *m = &r->m;
    if (!m->done)
        return 0;
    verdict *v = verdicts_add(&r->v, err, "v_information");
    if (!v)
        return -1;
    const pvi_mean *all = &m->pvi.all;
    v->value = all->mean;
    v->reference = 0;
    v->effect = all->mean;
    v->ci_low = all->low;
    v->ci_high = all->high;
    v->tested = true;
    v->p = pvalue_from_p(all->p);
    v->direction_ok = all->mean > 0;
    size_t used = (size_t)snprintf(v->detail, sizeof v->detail,
                                   "test=bootstrap_mean_pvi folds=%zu n=%zu", r->cfg->folds,
                                   all->n);
    size_t best = 0;
    for (size_t k = 0; k < r->nclasses; k++) {
        size_t c = r->class_order[k];
        if (used < sizeof v->detail)
            used += (size_t)snprintf(v->detail + used, sizeof v->detail - used,
                                     " v_info_%s=%.6f", label_name(r, c),
                                     m->pvi.by_class[c].mean);
        if (m->pvi.by_class[c].mean > m->pvi.by_class[best].mean)
            best = c;
    }
    char p[64];
    pformat(p, sizeof p, v->p);
    snprintf(v->sentence, sizeof v->sentence,
             "The hypothesis alone gives %.3f bits about the label per example on average "
             "(pointwise V-information of a cross-fitted hypothesis-only fastText model "
             "against the label distribution; 95%% interval %.3f to %.3f), p = %s "
             "(bootstrap); most for class %s (%.3f bits).",
             all->mean, all->low, all->high, p, label_name(r, best),
             m->pvi.by_class[best].mean);

    if (!(v = verdicts_add(&r->v, err, "cartography")))
        return -1;
    double conf = 0;
    for (size_t i = 0; i < m->carto.n; i++)
        conf += m->cstats.confidence[i];
    v->value = m->carto.n ? conf / (double)m->carto.n : NAN;
    snprintf(v->detail, sizeof v->detail,
             "epochs=%zu easy=%zu ambiguous=%zu hard=%zu accuracy_easy=%.6f "
             "accuracy_ambiguous=%.6f accuracy_hard=%.6f accuracy_full=%.6f",
             m->carto.epochs, m->n[4], m->n[5], m->n[6], m->accuracy[4], m->accuracy[5],
             m->accuracy[6], m->full_accuracy);
    snprintf(v->sentence, sizeof v->sentence,
             "A linear model over the averaged hypothesis vectors, trained for %zu epochs, "
             "gives the gold label %.2f probability on average; the cross-validated "
             "hypothesis-only fastText model gets %.1f%% of its easy-to-learn third right, "
             "%.1f%% of the ambiguous and %.1f%% of the hard-to-learn, against %.1f%% of all.",
             m->carto.epochs, v->value, 100 * m->accuracy[4], 100 * m->accuracy[5],
             100 * m->accuracy[6], 100 * m->full_accuracy);

    if (!(v = verdicts_add(&r->v, err, "logodds")))
        return -1;
    size_t used2 = (size_t)snprintf(v->detail, sizeof v->detail, "prior=corpus min_count=%d",
                                    PMI_MIN_COUNT);
    char top[512] = "";
    size_t tused = 0;
    for (size_t i = 0; i < m->logodds.n; i++) {
        const logodds_row *row = &m->logodds.rows[i];
        if (i && m->logodds.rows[i - 1].class_id == row->class_id)
            continue;
        const char *tok = vocab_str(r->tokens.tokens, row->token);
        const char *cls = vocab_str(r->tokens.classes, row->class_id);
        if (used2 < sizeof v->detail)
            used2 += (size_t)snprintf(v->detail + used2, sizeof v->detail - used2,
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

static int step_verdicts(run *u, tells_error *err)
{
    study_result *r = u->r;
    verdicts_init(&r->v, u->c->alpha);
    if (verdict_models(r, err) < 0 || verdict_tokens(r, err) < 0 ||
        verdict_length(r, err) < 0 || verdict_heuristics(r, err) < 0 ||
        verdict_aflite(r, err) < 0 || verdict_audits(r, err) < 0 ||
        verdict_measures(r, err) < 0)
        return -1;
    /* Every token-class pair tried belongs to the family, not only those
       that became rows. */
    size_t m = 0;
    pvalue *extra = array_new(r->comp.n, sizeof *extra);
    if (!extra)
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < r->comp.n; i++)
        if (!r->comp.rows[i].significant)
            extra[m++] = r->comp.rows[i].p;
    int rc = verdicts_adjust(&r->v, extra, m, err);
    free(extra);
    if (rc == 0)
        rc = write_out(u, "summary.tsv", verdicts_write, &r->v, err);
    return rc;
}

/* ---- the run ---- */

static int timed(run *u, const char *name, int (*fn)(run *, tells_error *), tells_error *err)
{
    study_result *r = u->r;
    say(u, "%s", name);
    double t0 = now();
    int rc = fn(u, err);
    if (r->nsteps < STUDY_MAX_STEPS) {
        study_step *s = &r->step[r->nsteps++];
        snprintf(s->name, sizeof s->name, "%s", name);
        s->seconds = now() - t0;
        say(u, "%s: %.2f s", name, s->seconds);
    }
    return rc;
}

/* all.tsv, written and loaded once for the steps that need it. */
static int load_all(run *u, tells_error *err)
{
    if (u->all_loaded)
        return 0;
    char *all = in_dir(u, "all.tsv", err);
    int rc = all ? write_all(u->prepared, all, err) : -1;
    if (rc == 0)
        rc = dataset_load(&u->all, all, err);
    free(all);
    u->all_loaded = rc == 0;
    return rc;
}

static int do_baselines(run *u, tells_error *err)
{
    if (u->r->cv && strcmp(u->r->train, "all") == 0 && load_all(u, err) < 0)
        return -1;
    return step_baselines(u, &u->all, err);
}

static int do_vectors(run *u, tells_error *err) { return step_vectors(u, &u->x, err); }

static int do_aflite(run *u, tells_error *err)
{
    if (step_aflite(u, &u->x, err) < 0)
        return -1;
    return partition_scores(u, err);
}

static int do_partitions(run *u, tells_error *err)
{
    if (load_all(u, err) < 0)
        return -1;
    return step_partitions(u, &u->all, err);
}

static int do_report(run *u, tells_error *err)
{
    return study_report(u->r, u->dir, err);
}

int study_run(const study_config *c, const char *dir, study_result **out, tells_error *err)
{
    *out = NULL;
    study_result *r = calloc(1, sizeof *r);
    if (!r)
        return tells_error_nomem(err, NULL, 0);
    r->cfg = c;
    snprintf(r->name, sizeof r->name, "%s", c->name ? c->name : "corpus");
    run u = {.c = c, .dir = dir, .r = r};
    int rc = timed(&u, "prepare", step_prepare, err);
    if (rc == 0)
        rc = choose_evaluation(&u, err);
    if (rc == 0)
        rc = timed(&u, "tokens", step_tokens, err);
    if (rc == 0)
        rc = timed(&u, "lengths", step_lengths, err);
    if (rc == 0)
        rc = timed(&u, "heuristics", step_heuristics, err);
    if (rc == 0)
        rc = timed(&u, "baselines", do_baselines, err);
    if (rc == 0)
        rc = timed(&u, "vectors", do_vectors, err);
    if (rc == 0)
        rc = timed(&u, "aflite", do_aflite, err);
    if (rc == 0)
        rc = timed(&u, "partitions", do_partitions, err);
    if (rc == 0)
        rc = timed(&u, "heldout", step_heldout, err);
    if (rc == 0)
        rc = timed(&u, "measures", step_measures, err);
    if (rc == 0)
        rc = timed(&u, "audit", step_audit, err);
    if (rc == 0)
        rc = timed(&u, "verdicts", step_verdicts, err);
    if (rc == 0)
        rc = timed(&u, "report", do_report, err);
    npy_free(&u.x);
    if (u.all_loaded)
        dataset_free(&u.all);
    free(u.prepared);
    *out = r;
    return rc;
}

void study_result_free(study_result *r)
{
    if (!r)
        return;
    dataset_free(&r->data);
    free(r->class_order);
    free(r->class_n);
    counts_free(&r->tokens);
    pmi_free(&r->pmi);
    competency_free(&r->comp);
    if (r->lengths.classes)
        lengths_free(&r->lengths);
    if (r->hs_open)
        heuristic_set_free(&r->hs);
    heur_tally_free(&r->tally);
    free(r->heur);
    free(r->eval_row);
    for (int m = 0; m < 3; m++)
        free(r->model[m].right);
    free(r->confusion);
    free(r->rounds);
    free(r->first_scores);
    free(r->easy);
    for (size_t b = 0; b < r->nbatches; b++)
        audit_report_free(&r->batch[b].rep);
    free(r->batch);
    study_measures_free(&r->m);
    verdicts_free(&r->v);
    free(r);
}

const verdicts *study_verdicts(const study_result *r) { return &r->v; }

size_t study_steps(const study_result *r, const study_step **steps)
{
    *steps = r->step;
    return r->nsteps;
}
