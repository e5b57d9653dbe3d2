#include <config.h>
#include "model/baseline.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/outfile.h"
#include "base/tasks.h"
#include "base/tempfile.h"
#include "model/pairfeat.h"

int baseline_input_parse(const char *name, baseline_input *in)
{
    if (strcmp(name, "hypothesis") == 0)
        *in = INPUT_HYPOTHESIS;
    else if (strcmp(name, "pair") == 0)
        *in = INPUT_PAIR;
    else if (strcmp(name, "pair-features") == 0)
        *in = INPUT_PAIR_FEATURES;
    else if (strcmp(name, "premise") == 0)
        *in = INPUT_PREMISE;
    else
        return -1;
    return 0;
}

const char *baseline_input_name(baseline_input in)
{
    return in == INPUT_PAIR            ? "pair"
           : in == INPUT_PAIR_FEATURES ? "pair-features"
           : in == INPUT_PREMISE       ? "premise"
                                       : "hypothesis";
}

void predictions_free(predictions *p)
{
    free(p->row);
    free(p->pred);
    free(p->prob);
    free(p->fold);
    memset(p, 0, sizeof *p);
}

size_t *split_rows(const dataset *d, size_t split, size_t *n)
{
    size_t *rows = malloc((d->n ? d->n : 1) * sizeof *rows);
    *n = 0;
    for (size_t i = 0; rows && i < d->n; i++)
        if (d->ex[i].split == split)
            rows[(*n)++] = i;
    return rows;
}

int majority_label(const dataset *d, const size_t *rows, size_t n, size_t *label,
                   tells_error *err)
{
    size_t nl = vocab_size(d->labels);
    size_t *count = array_new(nl, sizeof *count);
    size_t best = 0;
    if (!count)
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < n; i++)
        count[d->ex[rows[i]].label]++;
    for (size_t l = 1; l < nl; l++)
        if (count[l] > count[best] ||
            (count[l] == count[best] &&
             strcmp(vocab_str(d->labels, l), vocab_str(d->labels, best)) < 0))
            best = l;
    free(count);
    *label = best;
    return 0;
}

/* Predictions for n rows, with room for probabilities when probs. */
static int predictions_alloc(predictions *p, size_t n, size_t nlabels, bool probs,
                             tells_error *err)
{
    memset(p, 0, sizeof *p);
    p->n = n;
    p->nlabels = nlabels;
    p->row = array_new(n, sizeof *p->row);
    p->pred = array_new(n, sizeof *p->pred);
    if (probs)
        p->prob = n && nlabels > SIZE_MAX / n ? NULL : array_new(n * nlabels, sizeof *p->prob);
    if (!p->row || !p->pred || (probs && !p->prob)) {
        predictions_free(p);
        return tells_error_nomem(err, NULL, 0);
    }
    return 0;
}

int predict_constant(const dataset *d, const size_t *rows, size_t n, size_t label,
                     predictions *out, tells_error *err)
{
    if (predictions_alloc(out, n, vocab_size(d->labels), false, err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        out->row[i] = rows[i];
        out->pred[i] = label;
    }
    return 0;
}

int predict_group_majority(const dataset *d, const size_t *rows, const size_t *group,
                           size_t n, size_t ngroups, predictions *out, tells_error *err)
{
    size_t *members = array_new(n, sizeof *members);
    if (!members || predictions_alloc(out, n, vocab_size(d->labels), false, err) < 0) {
        free(members);
        return tells_error_nomem(err, NULL, 0);
    }
    int rc = 0;
    for (size_t g = 0; rc == 0 && g < ngroups; g++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (group[i] == g)
                members[m++] = rows[i];
        size_t label = 0;
        if (m && (rc = majority_label(d, members, m, &label, err)) < 0)
            break;
        for (size_t i = 0; i < n; i++)
            if (group[i] == g) {
                out->row[i] = rows[i];
                out->pred[i] = label;
            }
    }
    free(members);
    if (rc < 0)
        predictions_free(out);
    return rc;
}

/* The text a model reads of e, into *text (grown; *cap its size); -1 out
   of memory. */
static int example_text(const example *e, baseline_input in, char **text, size_t *cap)
{
    if (in == INPUT_PAIR_FEATURES)
        return pair_features(e->premise, e->hypothesis, text, cap);
    size_t need = strlen(e->premise) + strlen(e->hypothesis) + sizeof PAIR_SEPARATOR + 3;
    if (ARRAY_RESERVE(*text, *cap, need) < 0)
        return -1;
    if (in == INPUT_PAIR)
        snprintf(*text, *cap, "%s " PAIR_SEPARATOR " %s", e->premise, e->hypothesis);
    else
        snprintf(*text, *cap, "%s", in == INPUT_PREMISE ? e->premise : e->hypothesis);
    return 0;
}

ft_model *fasttext_train_text(train_text_writer write, void *ctx, const ft_train_args *args,
                              tells_error *err)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/tells-fasttext.XXXXXX", temp_dir()) >=
        (int)sizeof path) {
        tells_error_io(err, temp_dir(), 0, "cannot create a temporary file: name too long");
        return NULL;
    }
    int fd = temp_create(path, NULL, err);
    if (fd < 0)
        return NULL;
    FILE *fp = fdopen(fd, "w");
    if (!fp) {
        tells_error_io(err, path, 0, "cannot open: %s", strerror(errno));
        close(fd);
        temp_remove(path);
        return NULL;
    }
    tells_error e;
    tells_error_clear(&e);
    errno = 0;
    bool failed = write(fp, ctx, &e) < 0 || fflush(fp) != 0 || ferror(fp);
    int write_errno = errno;
    off_t written = ftello(fp);
    if (fclose(fp) != 0 && !failed) {
        failed = true;
        write_errno = errno;
    }
    /* fastText reads whatever the file holds: it must be all of it. */
    struct stat st;
    ft_model *m = NULL;
    if (failed) {
        if (e.kind == TELLS_ERR_NONE && write_errno)
            tells_error_io(&e, path, 0, "write error: %s", strerror(write_errno));
        else if (e.kind == TELLS_ERR_NONE)
            tells_error_io(&e, path, 0, "write error");
    } else if (written < 0 || stat(path, &st) != 0 || st.st_size != written) {
        tells_error_io(&e, path, 0, "write error: the file is incomplete");
    } else if (written == 0) {
        tells_error_set(&e, NULL, 0, "no text to train fastText on");
    } else {
        m = ft_train(path, args, &e);
    }
    temp_remove(path);
    if (!m && err)
        *err = e;
    return m;
}

typedef struct rows_text {
    const dataset *d;
    const size_t *rows;
    size_t n;
    baseline_input in;
} rows_text;

/* "__label__LABEL text" per row. */
static int write_rows(FILE *fp, void *ctx, tells_error *err)
{
    const rows_text *t = ctx;
    char *text = NULL;
    size_t cap = 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < t->n; i++) {
        const example *e = &t->d->ex[t->rows[i]];
        if (example_text(e, t->in, &text, &cap) < 0)
            rc = tells_error_nomem(err, NULL, 0);
        else if (fprintf(fp, "__label__%s %s\n", vocab_str(t->d->labels, e->label), text) < 0)
            rc = -1;
    }
    free(text);
    return rc;
}

ft_model *fasttext_train_rows(const dataset *d, const size_t *rows, size_t n,
                              baseline_input in, const ft_train_args *args,
                              tells_error *err)
{
    for (size_t l = 0; l < vocab_size(d->labels); l++)
        if (strpbrk(vocab_str(d->labels, l), " \t\v\f\r")) {
            tells_error_set(err, d->source, 0, "label '%s' contains a space, "
                            "which fastText labels cannot", vocab_str(d->labels, l));
            return NULL;
        }
    if (n == 0) {
        tells_error_set(err, d->source, 0, "no examples to train fastText on");
        return NULL;
    }
    /* fastText reads the rows in order: by id, so that any order of the
       input trains the same model. */
    size_t *by_id = dataset_rows_by_id(d, rows, n);
    if (!by_id) {
        tells_error_nomem(err, NULL, 0);
        return NULL;
    }
    rows_text t = {d, by_id, n, in};
    ft_train_args a = *args;
    if (in == INPUT_PAIR_FEATURES)
        a.word_ngrams = 1;   /* n-grams of features mean nothing */
    if (a.dim == FT_DIM_CLASSIFIER) {
        /* The labels less one, within FT_CLASSIFIER_DIM..._MAX. */
        size_t k = vocab_size(d->labels), dim = k > 0 ? k - 1 : 0;
        a.dim = dim < FT_CLASSIFIER_DIM       ? FT_CLASSIFIER_DIM
                : dim > FT_CLASSIFIER_DIM_MAX ? FT_CLASSIFIER_DIM_MAX
                                              : (int)dim;
    }
    ft_model *m = fasttext_train_text(write_rows, &t, &a, err);
    free(by_id);
    return m;
}

int fasttext_predict_rows(ft_model *m, const dataset *d, const size_t *rows,
                          size_t n, baseline_input in, predictions *out,
                          tells_error *err)
{
    size_t nl = vocab_size(d->labels);
    int mn = ft_nlabels(m);
    /* The model's labels as dataset labels (-1: unknown to the data). */
    long *map = malloc((size_t)(mn > 0 ? mn : 1) * sizeof *map);
    float *probs = malloc((size_t)(mn > 0 ? mn : 1) * sizeof *probs);
    char *text = NULL;
    size_t cap = 0;
    int rc = map && probs ? predictions_alloc(out, n, nl, true, err)
                          : tells_error_nomem(err, NULL, 0);
    for (int k = 0; rc == 0 && k < mn; k++)
        map[k] = vocab_find(d->labels, ft_label(m, k), strlen(ft_label(m, k)));
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const example *e = &d->ex[rows[i]];
        if (example_text(e, in, &text, &cap) < 0) {
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        if (ft_predict(m, text, probs, err) < 0) {
            rc = -1;
            if (err && !err->file[0]) {
                snprintf(err->file, sizeof err->file, "%s", d->source);
                err->line = e->line;
            }
            break;
        }
        out->row[i] = rows[i];
        /* The most probable label the data knows; ties to the lower id. */
        long best = -1;
        for (int k = 0; k < mn; k++) {
            if (map[k] < 0)
                continue;
            out->prob[i * nl + (size_t)map[k]] = probs[k];
            if (best < 0 || probs[k] > out->prob[i * nl + (size_t)best] ||
                (probs[k] == out->prob[i * nl + (size_t)best] && map[k] < best))
                best = map[k];
        }
        out->pred[i] = best < 0 ? 0 : (size_t)best;
    }
    if (rc < 0)
        predictions_free(out);
    free(map);
    free(probs);
    free(text);
    return rc;
}

static int write_model(FILE *fp, void *m, tells_error *err)
{
    return ft_write(m, fp, err);
}

const char *fasttext_model_path(const char *path)
{
    return path && strcmp(path, "-") == 0 ? "./-" : path;
}

int fasttext_save(ft_model *m, const char *path, tells_error *err)
{
    return out_write(fasttext_model_path(path), write_model, m, err);
}

/* The settings tune tries, fastText's default first. */
static const struct {
    int epoch;
    double lr;
} TUNE_GRID[] = {{5, 0.1}, {10, 0.25}, {25, 0.5}};

/* The share of rows m gets right, and (loss not NULL) its mean log loss
   on them, -ln p(gold), the gold label's probability floored at 1e-12. */
static int rows_accuracy(ft_model *m, const dataset *d, const size_t *rows, size_t n,
                         baseline_input in, double *acc, double *loss, tells_error *err)
{
    predictions p;
    if (fasttext_predict_rows(m, d, rows, n, in, &p, err) < 0)
        return -1;
    size_t right = 0;
    double sum = 0;
    for (size_t i = 0; i < p.n; i++) {
        size_t gold = d->ex[p.row[i]].label;
        right += p.pred[i] == gold;
        double q = p.prob[i * p.nlabels + gold];
        sum -= log(q > 1e-12 ? q : 1e-12);
    }
    *acc = n ? (double)right / (double)n : NAN;
    if (loss)
        *loss = n ? sum / (double)n : NAN;
    predictions_free(&p);
    return 0;
}

/* The threads of the fits side by side. */
static size_t fit_threads(const baseline_config *c)
{
    return tasks_threads(c->jobs < BASELINE_MAX_JOBS ? (int)c->jobs : BASELINE_MAX_JOBS);
}

/* One setting of the grid: trained on `in`, its log loss on `val`. */
typedef struct grid_fit {
    ft_train_args args;
    double loss;
    int rc;
    tells_error err;
} grid_fit;

typedef struct grid_work {
    const dataset *d;
    const size_t *in;
    size_t nin;
    const size_t *val;
    size_t nval;
    const baseline_config *c;
    grid_fit *g;
} grid_work;

static void grid_task(void *ctx, size_t k, size_t thread)
{
    (void)thread;
    const grid_work *w = ctx;
    grid_fit *g = &w->g[k];
    ft_model *m = fasttext_train_rows(w->d, w->in, w->nin, w->c->input, &g->args, &g->err);
    double acc;
    g->rc = m ? rows_accuracy(m, w->d, w->val, w->nval, w->c->input, &acc, &g->loss, &g->err)
              : -1;
    ft_free(m);
}

/* c->tune: the epochs and learning rate of TUNE_GRID of the least log
   loss on a fifth of the training rows (by c->group) when trained on the
   rest; the configured ones when the rows make fewer than 5 groups. Above
   the cap (c->tune_rows) the groups are dealt into K > 5 folds, as many
   as leave about the cap's rows in five of them, and only those five are
   used: the fifth held out and four trained on. Up to the cap K is 5 and
   every row takes part. */
static int tune(const dataset *d, const size_t *train, size_t ntrain, const baseline_config *c,
                ft_train_args *best, model_fit *f, tells_error *err)
{
    *best = c->ft;
    f->tuned = false;
    size_t *fold = array_new(ntrain, sizeof *fold), *in = array_new(ntrain, sizeof *in);
    size_t *val = array_new(ntrain, sizeof *val);
    size_t cap = c->tune_rows ? c->tune_rows : BASELINE_TUNE_ROWS;
    size_t K = ntrain > cap ? (5 * ntrain + cap - 1) / cap : 5;
    cv_plan plan = {K, (unsigned long)c->ft.seed, c->group};
    tells_error inner;
    int rc = fold && in && val ? 0 : tells_error_nomem(err, NULL, 0);
    int dealt = rc == 0 ? cv_assign(d, train, ntrain, &plan, fold, &inner) : 0;
    if (dealt < 0 && inner.kind != TELLS_ERR_NOMEM && plan.folds > 5) {
        /* Fewer groups than K (a few premises with thousands of
           hypotheses each): every row, in five folds. */
        plan.folds = 5;
        dealt = cv_assign(d, train, ntrain, &plan, fold, &inner);
    }
    if (dealt < 0)
        rc = inner.kind == TELLS_ERR_NOMEM ? tells_error_nomem(err, NULL, 0) : 1;
    size_t nin = 0, nval = 0;
    for (size_t i = 0; rc == 0 && i < ntrain; i++) {
        if (fold[i] == 0)
            val[nval++] = train[i];
        else if (fold[i] < 5)
            in[nin++] = train[i];
    }
    /* By log loss, not accuracy: the probabilities serve too (PVI), and
       the most accurate setting is often an overconfident one. The grid's
       fits side by side (c->jobs), chosen in grid order. */
    enum { NGRID = sizeof TUNE_GRID / sizeof *TUNE_GRID };
    grid_fit g[NGRID];
    grid_work w = {d, in, nin, val, nval, c, g};
    for (size_t k = 0; k < NGRID; k++) {
        g[k].args = c->ft;
        g[k].args.epoch = TUNE_GRID[k].epoch;
        g[k].args.lr = TUNE_GRID[k].lr;
        g[k].rc = 0;
        tells_error_clear(&g[k].err);
    }
    if (rc == 0)
        tasks_run(fit_threads(c), NGRID, grid_task, &w);
    double top = INFINITY;
    for (size_t k = 0; rc == 0 && k < NGRID; k++) {
        if (g[k].rc < 0) {
            *err = g[k].err;
            rc = -1;
        } else if (g[k].loss < top) {
            top = g[k].loss;
            *best = g[k].args;
            f->tuned = true;
            f->tune_rows = nin + nval;
        }
    }
    free(fold);
    free(in);
    free(val);
    return rc < 0 ? -1 : 0;
}

ft_model *baseline_train(const dataset *d, const size_t *train, size_t ntrain,
                         const baseline_config *c, model_fit *fit, tells_error *err)
{
    ft_train_args args = c->ft;
    model_fit f = {.train_accuracy = NAN};
    f.train_rows = ntrain;
    if (c->tune && tune(d, train, ntrain, c, &args, &f, err) < 0)
        return NULL;
    f.tuned_epoch = f.epoch = args.epoch ? args.epoch : 5;   /* fastText's default */
    if (f.tuned && f.tune_rows < ntrain) {
        /* Tuned on a sample: the updates the chosen epochs make over the
           sample's rows, as under the cap (where they run over every
           row), rounded up to whole epochs. */
        args.epoch = f.epoch =
            (int)ceil((double)f.tuned_epoch * (double)f.tune_rows / (double)ntrain);
    }
    ft_model *m = fasttext_train_rows(d, train, ntrain, c->input, &args, err);
    /* The training rows predicted once more, only when the fit is asked. */
    if (m && fit && rows_accuracy(m, d, train, ntrain, c->input, &f.train_accuracy, NULL,
                                  err) < 0) {
        ft_free(m);
        return NULL;
    }
    f.lr = args.lr > 0 ? args.lr : 0.1;
    if (fit)
        *fit = f;
    return m;
}

int baseline_fit_predict(const dataset *d, const size_t *train, size_t ntrain,
                         const size_t *eval, size_t neval, const baseline_config *c,
                         predictions *out, tells_error *err)
{
    if (c->kind == MODEL_MAJORITY) {
        size_t label;
        if (c->majority_from_eval ? majority_label(d, eval, neval, &label, err) < 0
                                  : majority_label(d, train, ntrain, &label, err) < 0)
            return -1;
        return predict_constant(d, eval, neval, label, out, err);
    }
    if (c->progress) {
        char msg[96];
        snprintf(msg, sizeof msg, "training fastText on %zu examples", ntrain);
        c->progress(msg, c->progress_user);
    }
    model_fit fit;
    ft_model *m = baseline_train(d, train, ntrain, c, &fit, err);
    if (!m)
        return -1;
    int rc = fasttext_predict_rows(m, d, eval, neval, c->input, out, err);
    ft_free(m);
    if (rc == 0)
        out->fit = fit;
    return rc;
}

/* The folds' fits as one: the training rows' share right over all folds,
   and the settings most folds chose (the first of equal counts; by the
   chosen epochs, which folds of different sizes may scale apart). */
static void pool_fits(const model_fit *f, const size_t *ntrain, size_t K, model_fit *out)
{
    double right = 0, n = 0;
    size_t best = 0, best_count = 0;
    for (size_t k = 0; k < K; k++) {
        right += f[k].train_accuracy * (double)ntrain[k];
        n += (double)ntrain[k];
        size_t count = 0;
        for (size_t j = 0; j < K; j++)
            count += f[j].tuned_epoch == f[k].tuned_epoch && f[j].lr == f[k].lr;
        if (count > best_count) {
            best = k;
            best_count = count;
        }
    }
    *out = f[best];
    out->train_accuracy = n > 0 ? right / n : NAN;
    out->folds_tuned = best_count;
}

/* One fold of a cross-validation: its rows, and what its model made. */
typedef struct fold_fit {
    size_t *tr, *te, ntr, nte;
    predictions pred;
    bool done;                 /* pred holds its predictions */
    int rc;
    tells_error err;
} fold_fit;

typedef struct fold_work {
    const dataset *d;
    const baseline_config *c;
    fold_fit *ff;
} fold_work;

static void fold_task(void *ctx, size_t k, size_t thread)
{
    (void)thread;
    const fold_work *w = ctx;
    fold_fit *f = &w->ff[k];
    baseline_config c = *w->c;
    c.progress = NULL;  /* from one thread only: said before the folds */
    f->rc = baseline_fit_predict(w->d, f->tr, f->ntr, f->te, f->nte, &c, &f->pred, &f->err);
    f->done = f->rc == 0;
}

int baseline_cross_validate(const dataset *d, const size_t *rows, size_t n,
                            const cv_plan *plan, const baseline_config *c,
                            predictions *out, tells_error *err)
{
    size_t K = plan->folds;
    if (K < 2)
        return tells_error_usage(err, "cross-validation needs at least 2 folds, not %zu", K);
    if (n < K)
        return tells_error_set(err, d->source, 0, "%zu examples cannot make %zu folds", n, K);
    size_t *slot = array_new(d->n, sizeof *slot);  /* row -> position */
    predictions all = {0};
    int rc = slot
                 ? predictions_alloc(&all, n, vocab_size(d->labels),
                                     c->kind == MODEL_FASTTEXT, err)
                 : tells_error_nomem(err, NULL, 0);
    model_fit *fits = array_new(K, sizeof *fits);
    size_t *ntrain = array_new(K, sizeof *ntrain);
    if (rc == 0 && (!(all.fold = array_new(n, sizeof *all.fold)) || !fits || !ntrain))
        rc = tells_error_nomem(err, NULL, 0);
    if (rc == 0) {
        memcpy(all.row, rows, n * sizeof *all.row);
        for (size_t i = 0; i < n; i++)
            slot[rows[i]] = i;
        rc = cv_assign(d, rows, n, plan, all.fold, err);
    }
    /* The folds side by side (c->jobs), each with its own rows, merged in
       fold order: the same predictions whatever the jobs. */
    fold_fit *ff = rc == 0 ? array_new(K, sizeof *ff) : NULL;
    if (rc == 0 && !ff)
        rc = tells_error_nomem(err, NULL, 0);
    for (size_t k = 0; rc == 0 && k < K; k++) {
        size_t ntr = 0, nte = 0;
        for (size_t i = 0; i < n; i++)
            ntr += all.fold[i] != k;
        nte = n - ntr;
        ff[k].tr = array_new(ntr ? ntr : 1, sizeof *ff[k].tr);
        ff[k].te = array_new(nte ? nte : 1, sizeof *ff[k].te);
        if (!ff[k].tr || !ff[k].te) {
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        for (size_t i = 0; i < n; i++) {
            if (all.fold[i] == k)
                ff[k].te[ff[k].nte++] = rows[i];
            else
                ff[k].tr[ff[k].ntr++] = rows[i];
        }
        tells_error_clear(&ff[k].err);
    }
    if (rc == 0) {
        if (c->progress && c->kind == MODEL_FASTTEXT) {
            char msg[96];
            snprintf(msg, sizeof msg, "training fastText in %zu folds of %zu examples", K, n);
            c->progress(msg, c->progress_user);
        }
        fold_work w = {d, c, ff};
        tasks_run(fit_threads(c), K, fold_task, &w);
    }
    for (size_t k = 0; rc == 0 && k < K; k++) {
        if (ff[k].rc < 0) {
            *err = ff[k].err;
            rc = -1;
            break;
        }
        predictions *fold = &ff[k].pred;
        fits[k] = fold->fit;
        ntrain[k] = ff[k].ntr;
        for (size_t j = 0; j < fold->n; j++) {
            size_t i = slot[fold->row[j]];
            all.pred[i] = fold->pred[j];
            if (all.prob && fold->prob)
                memcpy(all.prob + i * all.nlabels, fold->prob + j * fold->nlabels,
                       all.nlabels * sizeof *all.prob);
        }
    }
    for (size_t k = 0; ff && k < K; k++) {
        if (ff[k].done)
            predictions_free(&ff[k].pred);
        free(ff[k].tr);
        free(ff[k].te);
    }
    free(ff);
    if (rc == 0 && c->kind == MODEL_FASTTEXT)
        pool_fits(fits, ntrain, K, &all.fit);
    free(fits);
    free(ntrain);
    free(slot);
    if (rc < 0) {
        predictions_free(&all);
        return -1;
    }
    *out = all;
    return 0;
}
