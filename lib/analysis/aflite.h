/* AFLite adversarial filtering (Sakaguchi et al. 2020; Le Bras et al.
   2020) over a matrix of example embeddings: while more than m examples
   remain, train n logistic regressions on random train parts of size m
   of the remaining examples, let each predict the examples it did not
   train on, score every example by the fraction of those predictions
   that were right (0 when it was never held out), and remove the k best
   scored examples whose score is at least tau (equal scores in an order
   drawn by the seed and the round from the examples' keys, so that the
   same examples are removed whatever the order of the input rows).
   Stop when fewer than k were removed, fewer than m remain, or at most
   the target size remain. Removed examples are the easy partition, the
   rest the difficult one. */
#ifndef TELLS_AFLITE_H
#define TELLS_AFLITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/dataset.h"
#include "base/error.h"
#include "base/npy.h"
#include "model/embed.h"
#include "model/logreg.h"

typedef struct aflite_round {
    size_t round;              /* 1, 2, ... */
    size_t examples;           /* examples at the start of the round */
    size_t at_tau;             /* of those, scored at least tau */
    size_t removed;
    size_t remaining;          /* after the removal */
    const size_t *rows;        /* the examples (input rows), in the order of
                                  their keys (aflite_options.row_keys) */
    const size_t *in_order;    /* positions in rows, in input order */
    const unsigned *correct;   /* per example: right predictions */
    const unsigned *held;      /* per example: times held out */
    const size_t *chosen;      /* positions in rows of the removed ones */
    const unsigned char *in_train;  /* examples x models: example i was in
                                       model j's training set */
    size_t models;
    double seconds;            /* wall time of the round */
    logreg_stats stats;        /* of the round's training and prediction */
} aflite_round;

typedef struct aflite_options {
    size_t models;             /* n [64] */
    size_t train_size;         /* m [5620] */
    size_t cutoff;             /* k [500] */
    double tau;                /* [0.75] */
    size_t target;             /* stop once at most this many remain; 0: m */
    size_t max_rounds;         /* 0: no limit */
    unsigned long seed;        /* of the draws of the training parts */
    bool cold_start;           /* every round's models start from zero, not
                                  from the last round's (logreg_train) */
    /* The first round's training sets: models x train_size input rows,
       or NULL to draw them. */
    const size_t *first_splits;
    /* Per input row, its key for the draws (subsample_id_key of its id,
       aflite_row_keys), or NULL to key rows by their position. */
    const uint64_t *row_keys;
    logreg_options lr;
    /* Called after each round (may be NULL); a nonzero return stops the
       run with that status, err set by the callback. */
    int (*round_done)(const aflite_round *r, void *user, tells_error *err);
    void *user;
} aflite_options;

void aflite_options_default(aflite_options *o);

typedef struct aflite_result {
    size_t rows;
    size_t *removed_in;        /* per input row: the round that removed it,
                                  0 when it remains (difficult) */
    size_t rounds;
    size_t easy;               /* rows removed */
    logreg_stats stats;        /* summed over rounds */
} aflite_result;

void aflite_result_free(aflite_result *r);

/* Runs AFLite on the rows x dim matrix x (row-major), which is
   overwritten: its columns are centred (which changes no model's
   predictions, the intercept absorbing the shift, and keeps float32
   products accurate), and the remaining rows are moved up after each
   round, so no second copy is needed. y[i] is row i's class, 0 .. classes-1 (byte
   order of the class names, so that ties between classes go as in
   scikit-learn). y is overwritten too. */
int aflite_run(float *x, size_t rows, size_t dim, int *y, size_t classes,
               const aflite_options *o, aflite_result *res, tells_error *err);

/* Reads a splits file: one line per model, train_size distinct 0-based
   row indices below rows, separated by spaces. */
int aflite_read_splits(const char *path, size_t models, size_t train_size, size_t rows,
                       size_t **out, tells_error *err);
/* Writes a round's training sets in that format (input rows); fails on a
   write only, so callers check the stream (out_status). */
int aflite_write_splits(FILE *fp, const aflite_round *r);

/* ---- a dataset's run: its input and its reports ---- */

/* The training size for a fraction of n examples: rounded, at least 1. */
size_t aflite_train_size(double fraction, size_t n);

/* The classes of d's examples for aflite_run: *y (caller frees) gives each
   example the rank of its label among d's labels in byte order, as
   scikit-learn sorts class names. A data error when d has no examples or
   one class only. */
int aflite_classes(const dataset *d, int **y, size_t *classes, tells_error *err);

/* Each example's key for the draws of the training parts, from its id
   (subsample_id_key); the caller frees. NULL when out of memory. */
uint64_t *aflite_row_keys(const dataset *d);

/* Whether the matrix x, read from the file `name`, fits d: a row per
   example, at least one column, every value finite. */
int aflite_check_matrix(const npy_matrix *x, const char *name, const dataset *d,
                        tells_error *err);

/* d's matrix: read from the .npy file embeddings and checked against d, or,
   when embeddings is NULL, computed from the vectors file as embed_dataset
   does with eo. */
int aflite_matrix(const dataset *d, const char *embeddings, const char *vectors,
                  const embed_options *eo, npy_matrix *x, tells_error *err);

/* A run's tables, row by row: a round's counts. */
typedef struct aflite_round_row {
    size_t round, examples, at_tau, removed, remaining;
} aflite_round_row;

/* What a run over a dataset leaves for its reports: the rounds, the
   result, and, when asked for, every example's score in every round it
   was in. The scores wait in a temporary file: a large corpus times many
   rounds need not fit in memory. */
typedef struct aflite_record {
    const dataset *d;
    aflite_result result;      /* aflite_run fills it */
    aflite_round_row *rounds;
    size_t nrounds, cap;
    FILE *spool;               /* the scores, or NULL when not kept */
    const char *scores_name;   /* the scores' file, for messages */
} aflite_record;

/* An empty record of a run over d; scores_name is the file the scores
   table will go to (named in messages about the temporary file), or NULL
   to keep no scores. */
int aflite_record_init(aflite_record *rec, const dataset *d, const char *scores_name,
                       tells_error *err);
/* Records a round; an aflite_options.round_done with rec as its user. */
int aflite_record_round(const aflite_round *r, void *rec, tells_error *err);
void aflite_record_free(aflite_record *rec);

/* The rounds table (an out_writer over an aflite_record): header round,
   examples, at_tau, removed, remaining. Fails on a write only. */
int aflite_write_rounds(FILE *fp, void *rec, tells_error *err);
/* The scores table (an out_writer over an aflite_record that kept them):
   header round, id, score, held_out, removed_in_round; score with 6
   decimals, '-' for an example never removed. */
int aflite_write_scores(FILE *fp, void *rec, tells_error *err);
/* The ids of the easy (removed) or else difficult (remaining) examples, in
   input order, as idfile_write writes them (with a checksum file). */
int aflite_write_ids(const char *path, const aflite_record *rec, bool easy,
                     tells_error *err);

#endif
