/* A C interface to fastText (libfasttext, C++). This header and
   ftshim.cc are the only places that know fastText is C++: every
   exception becomes an error return with a message. */
#ifndef TELLS_FTSHIM_H
#define TELLS_FTSHIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ft_model ft_model;

typedef struct ft_train_args {
    const char *mode;    /* "supervised", "skipgram" or "cbow" */
    int word_ngrams;     /* 0 = fastText's default for the mode */
    int epoch;           /* 0 = default */
    double lr;           /* 0 = default */
    int dim;             /* 0 = default */
    int min_count;       /* 0 = default */
    int threads;         /* 0 = default (12 in fastText; pass 1 to be
                            deterministic) */
    int seed;            /* fastText's -seed */
    int bucket;          /* 0 = default (2,000,000 n-gram buckets) */
} ft_train_args;

/* Trains on a file in fastText's format (supervised: "__label__X text"
   per line). Returns NULL with a message in err on failure. */
ft_model *ft_train(const char *input_path, const ft_train_args *args,
                   char *err, size_t errlen);
/* Loads a .bin model, checking its header and that it was read whole. */
ft_model *ft_load(const char *path, char *err, size_t errlen);
/* Writes the model as .bin to path (not atomically: see model_save). */
int ft_save(ft_model *m, const char *path, char *err, size_t errlen);
void ft_free(ft_model *m);

int ft_dimension(const ft_model *m);
int ft_nlabels(const ft_model *m);
/* Label i without fastText's "__label__" prefix; valid while m lives. */
const char *ft_label(const ft_model *m, int i);
/* Probability of every label (probs has ft_nlabels entries, indexed
   like ft_label) for one line of text. */
int ft_predict(ft_model *m, const char *text, float *probs, char *err,
               size_t errlen);
/* A word's vector (subword vectors for unknown words when the model has
   them) and fastText's sentence vector; out has ft_dimension entries. */
int ft_word_vector(ft_model *m, const char *word, float *out);
/* Whether word is in the model's vocabulary, and whether the model has
   character n-grams (so that an unknown word still gets a vector). */
int ft_word_known(const ft_model *m, const char *word);
int ft_has_subwords(const ft_model *m);
int ft_sentence_vector(ft_model *m, const char *text, float *out);

#ifdef __cplusplus
}
#endif

#endif
