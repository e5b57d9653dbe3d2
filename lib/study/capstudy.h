/* The bundled capability study (tells-study without a corpus): a
   fastText classifier of adverse drug events trained on the generated
   posts of corpora/ade-posts, run on the ADE templates of
   corpora/ade-templates with the sampling of MacPhail et al.'s study
   (11,265 cases), its pass rates beside its recall on the held-out
   posts. Files: prepared.tsv, baseline.tsv, ade.bin, capabilities.tsv,
   failures.csv, report.html and figures/. */
#ifndef TELLS_CAPSTUDY_H
#define TELLS_CAPSTUDY_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"

typedef struct capstudy_config {
    const char *data;              /* the data folder (corpora/) */
    unsigned long seed;            /* [1] */
    bool figures;                  /* [true] */
    const char *gnuplot;           /* ["gnuplot"] */
    void (*progress)(const char *msg, void *user);
    void *progress_user;
} capstudy_config;

void capstudy_config_default(capstudy_config *c, const char *data);

/* Runs into dir (an existing folder); with print, writes the
   capabilities table there too. */
int capstudy_run(const capstudy_config *c, const char *dir, FILE *print, tells_error *err);

#endif
