/* Dataset cartography (Swayamdipta et al. 2020, "Dataset Cartography:
   Mapping and Diagnosing Datasets with Training Dynamics"): how a model's
   probability of every training example's gold label moves over the
   epochs of its training, and the regions of the data map.

   Training dynamics come from any training run, one file per epoch in
   epoch order: the cartography code's dynamics_epoch_K.jsonl (one object
   per line: "guid", "logits_epoch_K" and "gold", a class index; the
   probabilities are the softmax of the logits) or a tells predictions
   TSV (columns id, gold and p_CLASS for every class; other columns are
   ignored). Or carto_train makes them: a softmax regression over the
   rows of an embedding matrix (tells-embed's averaged vectors) trained by
   minibatch SGD, every example's probabilities recorded after each
   epoch.

   Per example, over the E epochs, with p_e its gold probability at epoch
   e and c_e whether the most probable class (the first of equals) was
   the gold one:
     confidence = mean p_e; variability = the population standard
     deviation of p_e (numpy's np.std); correctness = (sum c_e) / E;
     forgetfulness = the times c_e is 1 and c_{e+1} is 0.
   The cartography code stores correctness as the count sum c_e (its plot
   divides by the largest count) and forgetfulness as 1000 for an example
   never right; tells follows the definitions above.
   Regions partition the examples, each in exactly one (the cartography
   code's selection, train_dy_filtering.py, takes the first
   floor(fraction N) + 1 examples by each metric separately, so that its
   regions overlap and miss some examples): with
   m = min(N, floor(fraction N) + 1), ambiguous = the m examples of the
   highest variability; of the others, easy-to-learn = the half of the
   highest confidence (the larger half when they are odd), hard-to-learn
   = the rest. Ties go by id in byte order, so the regions do not depend
   on the order of the rows. */
#ifndef TELLS_CARTO_H
#define TELLS_CARTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/dataset.h"
#include "base/error.h"
#include "base/vocab.h"

/* The largest K of a key logits_epoch_K (2^63 - 1): K plus the number of
   epochs never wraps. */
#define CARTO_EPOCH_MAX INT64_MAX

typedef struct carto_dynamics {
    vocab *ids;                /* examples, in the first epoch's order */
    vocab *classes;            /* class names ("0", "1", ... for logits) */
    size_t *gold;              /* per example: class id */
    size_t n, epochs;
    double **p;                /* [epoch][example]: gold probability */
    unsigned char **right;     /* [epoch][example] */
    /* the reader's state */
    int format;                /* 0 none yet, 1 JSON lines, 2 TSV */
    uint64_t first_epoch;      /* JSON: K of the first file's logits_epoch_K */
    char first_file[1024];
    size_t cap, epoch_cap;
} carto_dynamics;

int carto_dynamics_init(carto_dynamics *d, tells_error *err);
void carto_dynamics_free(carto_dynamics *d);
/* Reads the next epoch's file. Every epoch must hold the first epoch's
   examples, each once, with the same gold label and as many classes;
   logits finite; in a TSV, a row's probabilities one distribution
   (base/number.h: prob_check); in JSON, each key once and epochs
   consecutive. */
int carto_read_epoch(carto_dynamics *d, const char *path, tells_error *err);
/* The epoch files of a training run's folder, in epoch order: its
   regular files whose names do not start with ".", ordered by the last
   number in each name (dynamics_epoch_2.jsonl before
   dynamics_epoch_10.jsonl). A name without a number, two names with the
   same number, or a folder without such files is an error naming the
   folder. *paths (n of them, "DIR/NAME") is freed with
   carto_epoch_files_free. */
int carto_epoch_files(const char *dir, char ***paths, size_t *n, tells_error *err);
void carto_epoch_files_free(char **paths, size_t n);

typedef struct carto_stats {
    double *confidence, *variability, *correctness;
    unsigned *forgetfulness;
} carto_stats;

int carto_compute(const carto_dynamics *d, carto_stats *s, tells_error *err);
void carto_stats_free(carto_stats *s);
/* "id gold confidence variability correctness forgetfulness", 6 decimals. */
int carto_write_table(FILE *fp, const carto_dynamics *d, const carto_stats *s);

typedef enum { CARTO_EASY, CARTO_AMBIGUOUS, CARTO_HARD } carto_region;

/* The size of the ambiguous region: min(n, floor(fraction n) + 1). */
size_t carto_region_size(double fraction, size_t n);
/* region[i] (d->n entries): example i's region, as above. */
int carto_regions(const carto_dynamics *d, const carto_stats *s, double fraction,
                  carto_region *region, tells_error *err);
/* in[i] (n entries) marks the region's examples; returns how many. */
size_t carto_select(const carto_dynamics *d, const carto_stats *s, carto_region region,
                    double fraction, unsigned char *in, tells_error *err);
/* The region's ids in input order, as idfile_write writes them. */
int carto_write_ids(const char *path, const carto_dynamics *d, const carto_stats *s,
                    carto_region region, double fraction, tells_error *err);

typedef struct carto_train_options {
    size_t epochs;             /* [6] */
    size_t batch;              /* examples per step [32] */
    double lr;                 /* step size [0.1] */
    unsigned long seed;        /* the order of the examples in each epoch */
} carto_train_options;

void carto_train_options_default(carto_train_options *o);

/* Trains on every example of ds over x (ds->n rows of dim numbers,
   row-major; its columns standardised first, without changing x) and
   records the dynamics into d (initialised, empty): ids and classes (in
   byte order) from ds. */
int carto_train(const dataset *ds, const float *x, size_t dim, const carto_train_options *o,
                carto_dynamics *d, tells_error *err);

#endif
