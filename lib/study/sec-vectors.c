/* Word vectors (skipgram, trained on the corpus unless given) and every
   hypothesis as the average of its words' vectors (hypothesis.npy). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fields.h"
#include "base/lineio.h"
#include "base/npy.h"
#include "model/embed.h"
#include "study/sec-vectors.h"

/* 100 dimensions in two parts of 50, trained side by side on two of
   --threads and joined (model/embed.h): the same bytes on any number of
   threads. One model of 50 made AFLite's easy partition less stable
   between seeds than one of 100; two of 50 side by side were as stable
   (doc/tells-study.h2m, WORD VECTORS). */
enum { VECTOR_DIM = 100, VECTOR_PARTS = 2 };

/* The ids of the rows of --embeddings, in order, each once: lines of
   text (blank lines and ids with a tab are errors, since every line is
   a row) or a .npy array of strings (base/npy.h). */
typedef struct row_ids {
    vocab *ids;
    const char *file;
} row_ids;

static int add_row_id(const char *id, size_t len, size_t index, void *ctx, tells_error *err)
{
    row_ids *r = ctx;
    if (len == 0 || memchr(id, '\t', len))
        return tells_error_set(err, r->file, 0, "item %zu: %s", index + 1,
                               len ? "an id with a tab" : "an empty id (one id per row)");
    long k = vocab_find(r->ids, id, len);
    if (k >= 0)
        return tells_error_set(err, r->file, 0, "item %zu: id '%s' again (first item %ld)",
                               index + 1, id, k + 1);
    return vocab_intern(r->ids, id, len) < 0 ? tells_error_nomem(err, r->file, 0) : 0;
}

static int read_row_ids(const char *path, vocab *ids, tells_error *err)
{
    row_ids r = {ids, path};
    size_t n = strlen(path);
    if (n > 4 && strcmp(path + n - 4, ".npy") == 0)
        return npy_read_strings(path, add_row_id, &r, err);
    line_reader lr;
    if (line_reader_open(&lr, path, 0, err) < 0)
        return -1;
    char *line;
    size_t len;
    int got, rc = 0;
    while (rc == 0 && (got = line_reader_next(&lr, &line, &len, err)) == 1) {
        if (text_line_check(line, len, lr.name, lr.lineno, err) < 0)
            rc = -1;
        else if (len == 0 || memchr(line, '\t', len))
            rc = tells_error_set(err, lr.name, lr.lineno, "%s",
                                 len ? "an id with a tab" : "an empty line (one id per row)");
        else {
            long k = vocab_find(ids, line, len);
            if (k >= 0)
                rc = tells_error_set(err, lr.name, lr.lineno, "id '%s' again (first on line "
                                     "%ld)", line, k + 1);
            else if (vocab_intern(ids, line, len) < 0)
                rc = tells_error_nomem(err, lr.name, lr.lineno);
        }
    }
    if (got < 0)
        rc = -1;
    line_reader_close(&lr);
    return rc;
}

/* hypothesis.npy: v's rows in the input's order. */
static int write_hypotheses(const study *s, const vectors_state *v, tells_error *err)
{
    study_rows out = {s, &v->x};
    return study_write(s, "hypothesis.npy", study_write_input_order, &out, err);
}

/* The embeddings given (--embeddings): one finite row per example of
   the corpus, in its order, or reordered from the id file's. */
static int given_embeddings(study *s, vectors_state *v, tells_error *err)
{
    const study_config *c = s->cfg;
    const dataset *d = &s->data;
    npy_matrix x = {0};
    if (npy_read(c->embeddings, &x, err) < 0)
        return -1;
    vocab *ids = NULL;
    int rc = 0;
    size_t r, k;
    if (x.rows != d->n)
        rc = tells_error_set(err, c->embeddings, 0, "%zu rows for the corpus's %zu examples "
                             "(one row per example)", x.rows, d->n);
    else if (npy_find_nonfinite(x.data, x.rows, x.cols, &r, &k))
        rc = tells_error_set(err, c->embeddings, 0, "row %zu, column %zu is not a finite "
                             "number", r + 1, k + 1);
    if (rc == 0 && c->embeddings_ids) {
        if (!(ids = vocab_new()))
            rc = tells_error_nomem(err, NULL, 0);
        else if (read_row_ids(c->embeddings_ids, ids, err) < 0)
            rc = -1;
        else if (vocab_size(ids) != x.rows)
            rc = tells_error_set(err, c->embeddings_ids, 0, "%zu ids for the %zu rows of %s",
                                 vocab_size(ids), x.rows, c->embeddings);
    }
    /* Without ids, the rows are in the input's order. */
    if (rc == 0 && !c->embeddings_ids)
        rc = study_rows_from_input(s, &x, err);
    if (rc == 0 && c->embeddings_ids) {
        /* Row i of the corpus is the row of its id in the id file. */
        float *y = array_new(x.rows * x.cols, sizeof *y);
        if (!y)
            rc = tells_error_nomem(err, NULL, 0);
        for (size_t i = 0; rc == 0 && i < d->n; i++) {
            long j = vocab_find(ids, d->ex[i].id, strlen(d->ex[i].id));
            if (j < 0)
                rc = tells_error_set(err, c->embeddings_ids, 0, "no row for id '%s' (line "
                                     "%ld of %s)", d->ex[i].id, d->ex[i].line, d->source);
            else
                memcpy(y + i * x.cols, x.data + (size_t)j * x.cols, x.cols * sizeof *y);
        }
        if (rc == 0) {
            free(x.data);
            x.data = y;
        } else
            free(y);
    }
    vocab_free(ids);
    if (rc < 0) {
        npy_free(&x);
        return -1;
    }
    v->x = x;
    return write_hypotheses(s, v, err);
}

static int run(study *s, void *state, tells_error *err)
{
    vectors_state *v = state;
    if (s->cfg->embeddings)
        return given_embeddings(s, v, err);
    char *vectors = NULL;
    bool trained = false;
    embed_words centres = {NULL, NULL, 0};
    int rc = 0;
    if (s->cfg->vectors) {
        vectors = strdup(s->cfg->vectors);
        if (!vectors)
            rc = tells_error_nomem(err, NULL, 0);
    } else if (!(vectors = study_path(s, "vectors.bin", err))) {
        rc = -1;
    } else {
        /* Parts, each on one fastText thread: fastText's threads share
           the matrix without locks, so two runs would differ. Buckets
           sized to the corpus's character n-grams (model/ftshim.h),
           epochs to its tokens unless --vector-epochs. Only the
           hypotheses' words are centres (their vectors are the only ones
           read) where they are a small share of the text, as
           --vector-centres says (study.h). */
        ft_train_args a = {.mode = "skipgram", .dim = VECTOR_DIM, .threads = 1,
                           .seed = (int)s->cfg->seed};
        embed_text_counts tc;
        rc = embed_words_collect(&s->data, EMBED_HYPOTHESIS, &centres, err);
        if (rc == 0)
            rc = embed_count_text(&s->data, &centres, &tc, err);
        if (rc == 0) {
            a.epoch = s->cfg->vector_epochs ? s->cfg->vector_epochs : embed_epochs_for(tc.tokens);
            v->epochs = a.epoch;
            v->hypothesis_share = tc.tokens ? (double)tc.in_words / (double)tc.tokens : 1.0;
            if (s->cfg->vector_centres == STUDY_CENTRES_ALL ||
                (s->cfg->vector_centres == STUDY_CENTRES_AUTO &&
                 v->hypothesis_share >= STUDY_CENTRES_SHARE))
                embed_words_free(&centres);
            v->centres = centres.words ? "hypothesis" : "all";
        }
        a.centres = centres.words;
        a.ncentres = centres.n;
        if (rc == 0)
            rc = embed_train_vectors_parts(&s->data, vectors, &a, VECTOR_PARTS,
                                           s->cfg->threads > 0 ? (size_t)s->cfg->threads : 1,
                                           err);
        trained = true;
    }
    embed_options eo = {.input = EMBED_HYPOTHESIS, .pair = EMBED_PAIR_SUM};
    embed_stats st;
    if (rc == 0)
        rc = embed_dataset(&s->data, vectors, &eo, &v->x, &st, err);
    if (rc == 0 && trained && s->cfg->keep_vectors &&
        strcmp(s->cfg->keep_vectors, "vec") == 0) {
        char *vec = study_path(s, "vectors.vec", err);
        rc = vec ? embed_write_vec(vectors, vec, centres.types, err) : -1;
        free(vec);
    }
    /* The model is 100 bytes a row for every word and bucket: not kept
       unless asked for. */
    if (trained && !(s->cfg->keep_vectors && strcmp(s->cfg->keep_vectors, "bin") == 0))
        rc = study_remove(vectors, rc, err);
    free(vectors);
    embed_words_free(&centres);
    return rc == 0 ? write_hypotheses(s, v, err) : rc;
}

static void free_state(void *state)
{
    vectors_state *v = state;
    npy_free(&v->x);
}

const study_section section_vectors = {
    .name = "vectors",
    .writes = "hypothesis.npy (tells-embed), from fastText skipgram vectors (dim 100: two "
              "models of 50 side by side, joined, as tells-embed --parts 2; 1 to 20 epochs: "
              "about 2.5 million tokens seen, or --vector-epochs; the hypotheses' words alone "
              "where they are under a quarter of the text, or --vector-centres) trained on "
              "the corpus unless --vectors; kept only with --keep-vectors (vectors.vec or vectors.bin); or "
              "the --embeddings given",
    .needs = RES_CORPUS,
    .provides = RES_VECTORS,
    .beside = true,
    .state_size = sizeof(vectors_state),
    .run = run,
    .free = free_state,
};
