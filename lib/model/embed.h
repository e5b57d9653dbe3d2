/* Text embeddings for AFLite: every example of a dataset as the average of
   its token vectors, as the MedNLI study computed them, and fastText
   vectors trained on the dataset's own text.

   Vectors come from a fastText .bin model (recognised by its magic
   number and checked whole before it is read, model/ftbin.h; a token it
   does not know gets the mean of its character n-gram vectors as fastText
   computes it, and only a token none of whose n-grams the model has, or a
   label of the model, is left without a vector) or from a text file: one
   word and its numbers per line, separated by single spaces (fastText's
   .vec, GloVe), valid UTF-8, with an optional first line "WORDS
   DIMENSIONS" that is then checked against the file. Vectors have at most
   EMBED_MAX_DIM numbers. Only the vectors of tokens the dataset uses are
   kept; the numbers of other lines are counted, not parsed. Blank lines
   are skipped; when a word is listed twice the first vector wins. */
#ifndef TELLS_EMBED_H
#define TELLS_EMBED_H

#include <stdbool.h>
#include <stddef.h>

#include "base/dataset.h"
#include "base/error.h"
#include "base/npy.h"
#include "model/ftshim.h"

enum { EMBED_MAX_DIM = 10000 };

typedef enum { EMBED_HYPOTHESIS, EMBED_PREMISE, EMBED_PAIR } embed_input;
/* pair: mean(premise) + mean(hypothesis), as the reference code, or the
   two means side by side (twice the dimensions). */
typedef enum { EMBED_PAIR_SUM, EMBED_PAIR_CONCAT } embed_pair;

/* The mode named name; -1 (no error: the caller knows where the name came
   from) when there is none. */
int embed_input_parse(const char *name, embed_input *in);
int embed_pair_parse(const char *name, embed_pair *p);

typedef struct embed_options {
    embed_input input;
    embed_pair pair;
    bool skip_oov;   /* average over tokens with a vector only; else a
                        token without one counts as a zero vector */
    void (*progress)(const char *msg, void *user);   /* may be NULL */
    void *progress_user;
} embed_options;

typedef struct embed_stats {
    size_t tokens, oov_tokens;   /* token occurrences, and those without a vector */
    size_t types, oov_types;     /* distinct tokens */
    size_t empty;                /* texts with no token (or none with a vector
                                    under skip_oov): zero vectors */
} embed_stats;

/* The matrix of d: a row per example, in d's order; caller frees it
   (npy_free). */
int embed_dataset(const dataset *d, const char *vectors_path, const embed_options *o,
                  npy_matrix *out, embed_stats *st, tells_error *err);

/* Trains fastText skipgram vectors (args->mode is ignored) on the distinct
   premises and hypotheses of d, one text per line, and saves the model
   atomically as a .bin at path. */
int embed_train_vectors(const dataset *d, const char *path, const ft_train_args *args,
                        tells_error *err);
/* embed_train_vectors in `parts` models of args->dim / parts dimensions
   each (args->dim a multiple of parts, from 1 to EMBED_MAX_PARTS), each
   on one fastText thread with a seed of its own drawn from args->seed
   (stats/subsample.h's streams), and saved at path (atomically) as the
   one model of args->dim that joins them (model/ftshim.h's
   ft_write_joined: a word's vector is its parts' vectors one after the
   other; the joined model is written, never held in memory). The parts train side by side on up to
   `threads` threads (each beyond the caller's held from base/tasks.h's
   pool meanwhile), in turn on one: the model is the same bytes on any
   number. (fastText's own threads share one model without locks, so
   that two runs on two threads differ.) */
enum { EMBED_MAX_PARTS = 8 };
int embed_train_vectors_parts(const dataset *d, const char *path, const ft_train_args *args,
                              int parts, size_t threads, tells_error *err);
/* The skipgram epochs for d's distinct texts: enough passes to see about
   EMBED_TOKEN_PASSES tokens, from 1 to 20. A small corpus gets more
   passes, a large one fewer, down to one pass over a corpus of 2.5
   million tokens or more: the step's time is flat from 125,000 tokens to
   2.5 million and grows with the corpus only beyond. (It was at least
   fastText's default 5 until 2026-11: a 540,000-pair corpus of 9.6
   million tokens then read 48 million.) */
enum { EMBED_TOKEN_PASSES = 2500000, EMBED_MIN_EPOCHS = 1, EMBED_MAX_EPOCHS = 20 };
int embed_auto_epochs(const dataset *d);
/* The same for a text of `tokens` tokens (embed_count_text's). */
int embed_epochs_for(size_t tokens);
/* The distinct tokens of d's hypotheses (EMBED_HYPOTHESIS), premises
   (EMBED_PREMISE) or both, in order of first appearance in d's rows:
   for ft_train_args.centres, the words whose vectors embed_dataset will
   read. Free with embed_words_free. */
typedef struct embed_words {
    vocab *types;
    const char **words;   /* words[i] = vocab_str(types, i) */
    size_t n;
} embed_words;
int embed_words_collect(const dataset *d, embed_input in, embed_words *out, tells_error *err);
void embed_words_free(embed_words *w);
/* The tokens of d's distinct premises and hypotheses (the vectors'
   training text), and how many of them are words of w (none when w is
   NULL): one pass for both the epochs and the centres' share. -1 when
   out of memory (err set, when err is not NULL). */
typedef struct embed_text_counts {
    size_t tokens, in_words;
} embed_text_counts;
int embed_count_text(const dataset *d, const embed_words *w, embed_text_counts *c,
                     tells_error *err);
/* Writes the words of the fastText model at bin_path (those in `only`,
   or all when it is NULL) with their vectors as a text .vec at vec_path
   (atomically): "N DIM", then a word and DIM numbers (%.6f) a line, in
   the model's dictionary order. */
int embed_write_vec(const char *bin_path, const char *vec_path, const vocab *only,
                    tells_error *err);

#endif
