/* CSV and TSV records through libcsv, with the line each record starts
   on: a header row's worth of plumbing shared by the corpus reader and
   the template runner's tables. Quoted CSV fields may span lines; TSV
   has no quoting. A UTF-8 byte-order mark on the first line is skipped,
   CRLF line ends are accepted and a NUL byte is an error. The first
   record is the header: its names must be valid UTF-8, and no name but
   the empty one may stand twice (header_names_check). */
#ifndef TELLS_CSVREC_H
#define TELLS_CSVREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/error.h"
#include "base/lineio.h"

typedef struct csv_rec_reader csv_rec_reader;

typedef struct csv_rec {
    char **field;       /* NUL-terminated copies, valid until the next call */
    size_t *len;
    size_t n;
    long line;          /* where the record starts */
} csv_rec;

/* path "-" is standard input; tsv selects tab-separated, unquoted. */
int csv_rec_open(csv_rec_reader **r, const char *path, bool tsv, size_t max_line,
                 tells_error *err);
/* 1 with a record, 0 at end, -1 on error. */
int csv_rec_next(csv_rec_reader *r, csv_rec *rec, tells_error *err);
/* csv_rec_next for the rows under a header: a record must have ncol
   fields, each valid UTF-8 without NUL. */
int csv_rec_next_row(csv_rec_reader *r, csv_rec *rec, size_t ncol, tells_error *err);
/* Index of the header column named name, -1 when absent (or when name
   is empty: unnamed columns cannot be asked for). */
long csv_rec_column(const csv_rec *header, const char *name);
/* The file name for messages ("stdin" for "-"). */
const char *csv_rec_name(const csv_rec_reader *r);
void csv_rec_close(csv_rec_reader *r);

/* Writes s as one quoted CSV field (libcsv's quoting); -1 on error. */
int csv_write_field(FILE *fp, const char *s);

#endif
