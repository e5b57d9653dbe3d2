/* A C interface to fastText (libfasttext, C++). This header and
   ftshim.cc are the only places that know fastText is C++: every
   exception becomes an error return (out of memory for std::bad_alloc, a
   data error "fastText: what it said" for the rest). Models are checked
   with model/ftbin.h before libfasttext reads them. */
#ifndef TELLS_FTSHIM_H
#define TELLS_FTSHIM_H

#include <stddef.h>
#include <stdio.h>

#include "base/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ft_model ft_model;

typedef struct ft_train_args {
    const char *mode;    /* "supervised", "skipgram" or "cbow" */
    int word_ngrams;     /* 0 = fastText's default for the mode */
    int epoch;           /* 0 = default */
    double lr;           /* 0 = default */
    int dim;             /* 0 = default; FT_DIM_CLASSIFIER below */
    int min_count;       /* 0 = default */
    int threads;         /* 0 = default (12 in fastText; pass 1 to be
                            deterministic) */
    int seed;            /* fastText's -seed */
    int bucket;          /* 0 = sized to the training text: 4 rows per
                            distinct word or character n-gram, from 1,000
                            to fastText's 2,000,000 (none when the mode
                            uses no n-grams) */
    const char *const *centres; /* skipgram: only these words (non-NULL
                            strings) are trained as centres (their rows
                            and their character n-grams' rows learn to
                            predict their contexts); every word of the
                            text is still a context and a negative; on
                            one thread, whatever `threads` says. NULL:
                            every word, as fastText trains */
    size_t ncentres;
} ft_train_args;

/* The hidden units of tells' classifiers (the baselines, PVI, the audit,
   the ADE models): 10, as in fastText's paper (Joulin et al. 2017, "Bag
   of Tricks for Efficient Text Classification"), or the labels less one
   when there are more than 11, at most FT_CLASSIFIER_DIM_MAX (fastText's
   own 100). A fastText classifier's scores are B A x, with B of K rows
   (the labels) and A of dim columns, and softmax does not change when
   every score gets the same term; so a dim of at least K - 1 can
   represent every model a larger one can. Training still ends at a
   somewhat different fit (the start, the factored steps), and trains 2
   to 3 times faster than at fastText's 100. */
enum { FT_CLASSIFIER_DIM = 10, FT_CLASSIFIER_DIM_MAX = 100 };
/* ft_train_args.dim of ft_classifier_args: K - 1 for K labels, from
   FT_CLASSIFIER_DIM to FT_CLASSIFIER_DIM_MAX, settled by
   fasttext_train_rows (model/baseline.h) from the dataset's labels.
   ft_train takes dim >= 0 only. */
enum { FT_DIM_CLASSIFIER = -1 };

#ifndef __cplusplus
/* The settings the classifiers start from: supervised, word bigrams,
   FT_DIM_CLASSIFIER, one thread (deterministic); the rest fastText's.
   (C only: the shim does not need it.) */
static inline ft_train_args ft_classifier_args(void)
{
    return (ft_train_args){.mode = "supervised", .word_ngrams = 2, .dim = FT_DIM_CLASSIFIER,
                           .threads = 1};
}
#endif

/* Trains on a complete file in fastText's format (supervised:
   "__label__X text" per line). NULL with err set on failure. */
ft_model *ft_train(const char *input_path, const ft_train_args *args, tells_error *err);
/* Loads a .bin model after ftbin_check has found it whole and sound;
   NULL with err set ("PATH: what is wrong") otherwise. The file is
   opened once and libfasttext parses the very bytes the check read
   (model/ftbin.h's tape), so a file that changes meanwhile cannot feed
   it anything unchecked; one that shrinks is "PATH: the fastText model
   changed while it was read". */
ft_model *ft_load(const char *path, tells_error *err);
/* ft_load's second half, for the tests: loads from fp, the file a
   ftbin_check_tape of it recorded in tape (still open), named path in
   messages. */
struct ftbin_tape;
ft_model *ft_load_checked(FILE *fp, const char *path, const struct ftbin_tape *tape,
                          tells_error *err);
/* Writes to fp, as ft_write would, the model that joins models[0..n-1]
   (n >= 1), trained on one text with the same settings but the seed and
   the dimension: models[0]'s settings and dictionary, the dimensions
   summed, and each input and output row the models' rows side by side,
   so that a word's vector is its vectors from each, one after the
   other. The joined model is never in memory: its rows are written from
   the models'. The models must have the same words in the same order
   and the same rows (an error before anything is written if not).
   0, or -1 with err set (a write error names no file). */
int ft_write_joined(ft_model *const *models, int n, FILE *fp, tells_error *err);
/* Writes the model as .bin to fp, byte for byte what fastText's
   saveModel writes; -1 with a write error (no file named) when fp fails.
   An out_writer for base/outfile.h's out_write. */
int ft_write(ft_model *m, FILE *fp, tells_error *err);
void ft_free(ft_model *m);

int ft_dimension(const ft_model *m);
int ft_nlabels(const ft_model *m);
/* Label i without fastText's "__label__" prefix; valid while m lives. */
const char *ft_label(const ft_model *m, int i);
/* Probability of every label (probs has ft_nlabels entries, indexed
   like ft_label) for one line of text. */
int ft_predict(ft_model *m, const char *text, float *probs, tells_error *err);
/* The words of the model's dictionary (labels excluded), in its order;
   ft_word gives a copy (free it), NULL when out of memory. */
int ft_nwords(const ft_model *m);
char *ft_word(const ft_model *m, int i);
/* A word's vector in out (ft_dimension numbers), as fastText computes
   it: the mean of the word's row and its character n-grams' rows, or of
   the n-grams alone for a word the model does not know. 1 when the word
   has a vector, 0 when it has none (out zeroed: an unknown word and no
   n-grams, or a label of the model), -1 with err set on failure. */
int ft_word_vector(ft_model *m, const char *word, float *out, tells_error *err);

#ifdef __cplusplus
}
#endif

#endif
