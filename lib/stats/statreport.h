/* The reports of tells-stat: each reads its files (prediction files,
   files of numbers, a table of p-values), runs metrics or a test and
   writes one table to fp. Files are paths ("-" is stdin), named in the
   output as display_name shows them. */
#ifndef TELLS_STATREPORT_H
#define TELLS_STATREPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/error.h"
#include "stats/metrics.h"
#include "stats/stattest.h"

typedef struct statreport_settings {
    metric_kind metric;        /* compared by the resampling tests [accuracy] */
    size_t samples;            /* resamples [10000] */
    unsigned long seed;        /* of GSL's mt19937 [1] */
    alternative alt;           /* [two-sided] */
    bool scores;               /* friedman: blocks are lines of number files,
                                  not examples */
    bool details;              /* metrics: per-class rows too */
    bool multi;                /* gold and predicted cells are label sets */
    /* Columns of numbers (welch: one for both files, or one per file;
       friedman --scores: one), or the p-value column of fdr [p_value]. */
    const char *column[2];
    int ncolumns;
    double alpha;              /* fdr: level of the reject column; friedman
                                  --nemenyi: of the critical difference [0.05] */
    const char *groups;        /* contrast: the groups file */
    int digits;                /* significant digits of p-values [2] */
    const label_set *labels;   /* the fixed label set, or NULL */
    bool no_continuity;        /* mcnemar, wilcoxon: no continuity correction */
    bool no_ties;              /* friedman: no tie correction */
    bool nemenyi;              /* friedman: the Nemenyi post-hoc test too */
} statreport_settings;

void statreport_defaults(statreport_settings *s);

typedef enum { RESAMPLE_BOOTSTRAP, RESAMPLE_PERMUTATION } resample_kind;

/* "system metric class value support" for each of nfiles systems. */
int statreport_metrics(const statreport_settings *s, char *const *files, size_t nfiles,
                       FILE *fp, tells_error *err);
/* Contrast-set consistency of each system over s->groups, in the metrics
   table. */
int statreport_contrast(const statreport_settings *s, char *const *files, size_t nfiles,
                        FILE *fp, tells_error *err);

/* The tests write "test statistic df p_value detail". McNemar's exact
   and chi-squared tests of systems files[0] and files[1]. */
int statreport_mcnemar(const statreport_settings *s, char *const *files, FILE *fp,
                       tells_error *err);
/* The paired bootstrap or the permutation test of s->metric of
   files[0] minus files[1]. */
int statreport_resample(const statreport_settings *s, resample_kind kind,
                        char *const *files, FILE *fp, tells_error *err);
/* Friedman's test of k >= 3 systems and their mean ranks: blocks are
   examples, or with s->scores the lines of files of numbers. */
int statreport_friedman(const statreport_settings *s, char *const *files, size_t k,
                        FILE *fp, tells_error *err);
/* Cochran's Q of k >= 3 systems' per-example correctness. */
int statreport_cochran(const statreport_settings *s, char *const *files, size_t k,
                       FILE *fp, tells_error *err);

typedef enum { PAIRED_WILCOXON, PAIRED_T } paired_kind;
/* The Wilcoxon signed-rank test or the paired t-test of two files of
   numbers (line j of one with line j of the other), or of two columns of
   one file (nfiles 1). */
int statreport_paired(const statreport_settings *s, paired_kind kind, char *const *files,
                      size_t nfiles, FILE *fp, tells_error *err);

/* Welch's t-test of two files of numbers, or with two columns of one
   file (nfiles 1). */
int statreport_welch(const statreport_settings *s, char *const *files, size_t nfiles,
                     FILE *fp, tells_error *err);
/* The table of p-values at path with the columns p_adjusted, reject and
   fdr (Benjamini-Hochberg) added. */
int statreport_fdr(const statreport_settings *s, const char *path, FILE *fp,
                   tells_error *err);

#endif
