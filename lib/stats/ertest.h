/* Scores across models and seeds as ER-Test reports them (Joshi et al.
   2022, Findings of EMNLP; code INK-USC/ER-Test): the normalised failure
   rate of functional tests, min-max scaled per test across the compared
   models, and the mean and sample standard deviation (ddof 1, as the
   authors' scripts/process_neptune_results.py) of a score across seeds. */
#ifndef TELLS_ERTEST_H
#define TELLS_ERTEST_H

#include <stdio.h>

#include "base/error.h"

/* A model's file: name NULL for a file that is its own model (named as
   display_name shows it); files with the same name are seeds of one
   model. */
typedef struct model_file {
    const char *name;
    const char *path;
} model_file;

/* Splits "NAME=FILE" (NAME non-empty, without '/') from a plain FILE. */
model_file model_file_parse(char *arg);
/* The FILE of such an argument, without changing it. */
const char *model_file_path(const char *arg);

/* Reads tells-run tables of functional tests (the summary, --by-template
   or a --tree report without a before model), one per model and seed,
   and writes per test and model the seeds, the mean failure rate and
   its standard deviation, and the normalised failure rate (F - min) /
   (max - min) with F the model's mean failure rate and min, max over
   the models (0 for every model when they are equal, as scikit-learn's
   MinMaxScaler) with its standard deviation across seeds, then per
   model the same averaged over the tests (key "(all)"). A test is named
   by the columns before the first of templates, cases and tests; its
   failure rate is (cases - passed) / cases, or failures / tests. Every
   file must hold the same tests, each once; tells-run's "(all)" total
   row is not a test. A model name (or a file's, when it names its own
   model) with a tab or line end is a usage error. */
int normalized_failure_report(const model_file *files, size_t nfiles, FILE *fp,
                              tells_error *err);

/* Means and standard deviations across seeds. Each file is a model: a
   metrics table of tells-stat (header "system metric class value
   support"), whose systems are the seeds, summarised per metric and
   class; or numbers, one per line or in column (NULL: none) of a TSV,
   one per seed. Writes "system metric class seeds mean sd" (sd nan for
   one seed; seeds counts the finite values). */
int seeds_report(char *const *paths, size_t npaths, const char *column, FILE *fp,
                 tells_error *err);

#endif
