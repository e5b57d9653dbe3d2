#include <config.h>
#include "model/baseline.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"

int baseline_input_parse(const char *name, baseline_input *in)
{
    if (strcmp(name, "hypothesis") == 0)
        *in = INPUT_HYPOTHESIS;
    else if (strcmp(name, "pair") == 0)
        *in = INPUT_PAIR;
    else
        return -1;
    return 0;
}

const char *baseline_input_name(baseline_input in)
{
    return in == INPUT_PAIR ? "pair" : "hypothesis";
}

void predictions_free(predictions *p)
{
    free(p->row);
    free(p->pred);
    free(p->prob);
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

static int write_text(FILE *fp, const example *e, baseline_input in)
{
    if (in == INPUT_PAIR)
        return fprintf(fp, "%s " PAIR_SEPARATOR " %s", e->premise, e->hypothesis);
    return fputs(e->hypothesis, fp);
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
    const char *tmpdir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/tells-fasttext.XXXXXX",
             tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        tells_error_io(err, path, 0, "cannot create: %s", strerror(errno));
        return NULL;
    }
    FILE *fp = fdopen(fd, "w");
    bool bad = !fp;
    if (!fp)
        close(fd);
    for (size_t i = 0; !bad && i < n; i++) {
        const example *e = &d->ex[rows[i]];
        bad = fprintf(fp, "__label__%s ", vocab_str(d->labels, e->label)) < 0 ||
              write_text(fp, e, in) < 0 || putc('\n', fp) == EOF;
    }
    if (fp && fclose(fp) != 0)
        bad = true;
    ft_model *m = NULL;
    char msg[512] = "";
    if (bad)
        tells_error_io(err, path, 0, "write error: %s", strerror(errno));
    else if (!(m = ft_train(path, args, msg, sizeof msg)))
        tells_error_set(err, NULL, 0, "%s", msg);
    unlink(path);
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
    char msg[512];
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const example *e = &d->ex[rows[i]];
        size_t need = strlen(e->premise) + strlen(e->hypothesis) + 16;
        if (ARRAY_RESERVE(text, cap, need) < 0) {
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        if (in == INPUT_PAIR)
            snprintf(text, cap, "%s " PAIR_SEPARATOR " %s", e->premise, e->hypothesis);
        else
            snprintf(text, cap, "%s", e->hypothesis);
        if (ft_predict(m, text, probs, msg, sizeof msg) < 0) {
            rc = tells_error_set(err, d->source, e->line, "%s", msg);
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

int fasttext_save(ft_model *m, const char *path, tells_error *err)
{
    size_t size = strlen(path) + 16;
    char *tmp = malloc(size);
    if (!tmp)
        return tells_error_nomem(err, path, 0);
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path) + 1 : 0;
    snprintf(tmp, size, "%.*s.%s.XXXXXX", dirlen, path, slash ? slash + 1 : path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return tells_error_io(err, path, 0, "cannot create: %s", strerror(e));
    }
    /* mkstemp makes the file 0600; give it the mode a plain create would. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    close(fd);
    char msg[512];
    int rc = 0;
    if (ft_save(m, tmp, msg, sizeof msg) < 0)
        rc = tells_error_io(err, path, 0, "%s", msg);
    else if (rename(tmp, path) != 0)
        rc = tells_error_io(err, path, 0, "cannot write: %s", strerror(errno));
    if (rc < 0)
        unlink(tmp);
    free(tmp);
    return rc;
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
    ft_model *m = fasttext_train_rows(d, train, ntrain, c->input, &c->ft, err);
    if (!m)
        return -1;
    int rc = fasttext_predict_rows(m, d, eval, neval, c->input, out, err);
    ft_free(m);
    return rc;
}

int baseline_cross_validate(const dataset *d, const size_t *rows, size_t n, size_t K,
                            unsigned long seed, const baseline_config *c,
                            predictions *out, tells_error *err)
{
    if (K < 2)
        return tells_error_usage(err, "cross-validation needs at least 2 folds, not %zu", K);
    if (n < K)
        return tells_error_set(err, d->source, 0, "%zu examples cannot make %zu folds", n, K);
    size_t *perm = array_new(n, sizeof *perm);
    size_t *tr = array_new(n, sizeof *tr), *te = array_new(n, sizeof *te);
    size_t *slot = array_new(d->n, sizeof *slot);  /* row -> position */
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    predictions all = {0};
    int rc = perm && tr && te && slot && rng
                 ? predictions_alloc(&all, n, vocab_size(d->labels),
                                     c->kind == MODEL_FASTTEXT, err)
                 : tells_error_nomem(err, NULL, 0);
    if (rc == 0) {
        memcpy(all.row, rows, n * sizeof *all.row);
        for (size_t i = 0; i < n; i++)
            slot[rows[i]] = i;
        memcpy(perm, rows, n * sizeof *perm);
        gsl_rng_set(rng, seed);
        gsl_ran_shuffle(rng, perm, n, sizeof *perm);
    }
    for (size_t k = 0; rc == 0 && k < K; k++) {
        size_t ntr = 0, nte = 0;
        for (size_t i = 0; i < n; i++) {
            if (i % K == k)
                te[nte++] = perm[i];
            else
                tr[ntr++] = perm[i];
        }
        predictions fold;
        rc = baseline_fit_predict(d, tr, ntr, te, nte, c, &fold, err);
        for (size_t j = 0; rc == 0 && j < fold.n; j++) {
            size_t i = slot[fold.row[j]];
            all.pred[i] = fold.pred[j];
            if (all.prob && fold.prob)
                memcpy(all.prob + i * all.nlabels, fold.prob + j * fold.nlabels,
                       all.nlabels * sizeof *all.prob);
        }
        if (rc == 0)
            predictions_free(&fold);
    }
    free(perm);
    free(tr);
    free(te);
    free(slot);
    if (rng)
        gsl_rng_free(rng);
    if (rc < 0) {
        predictions_free(&all);
        return -1;
    }
    *out = all;
    return 0;
}
