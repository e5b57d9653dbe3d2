/* How a study was made (study/provenance.c): run.json in its folder, and
   the report's footer. */
#ifndef TELLS_STUDY_PROVENANCE_H
#define TELLS_STUDY_PROVENANCE_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"

typedef struct study_result study;

/* One file the study read: the option that named it, its path, size and
   SHA-256 (hex; "" for standard input, which cannot be read twice). */
typedef struct run_input {
    char option[32];
    char *path;
    long long bytes;
    char sha256[65];
} run_input;

typedef struct run_record {
    double started;            /* seconds since the epoch */
    char started_text[32];     /* ISO 8601, UTC */
    char *cwd;
    run_input *inputs;
    size_t ninputs;
    bool names_only;           /* --redact: paths cut to file names, no cwd */
} run_record;

/* At the start of a study: the time, and every input hashed. */
int provenance_start(study *s, tells_error *err);
/* The footer's lines (HTML): version, command, seed, threads, start,
   inputs with their checksums, libraries. */
void provenance_footer(const study *s, FILE *fp);
/* DIR/run.json, written last: the start and the end, each step's
   seconds, the versions of the libraries (and gnuplot's, from the
   figures' log). */
int provenance_write(study *s, tells_error *err);
void provenance_free(run_record *r);

#endif
