/* The prepared TSV every analysis reads:
   id<TAB>split<TAB>label<TAB>premise<TAB>hypothesis[<TAB>extra...]
   with a header line, text as tokens joined by single spaces. Its
   fields never contain tabs or quotes, so it is read by splitting on
   tabs (faster than a general CSV parser on the hot path of tells-pmi). */
#ifndef TELLS_PREPARED_H
#define TELLS_PREPARED_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"
#include "base/lineio.h"

#define PREPARED_HEADER "id\tsplit\tlabel\tpremise\thypothesis"

enum { PREP_ID, PREP_SPLIT, PREP_LABEL, PREP_PREMISE, PREP_HYPOTHESIS,
       PREP_NFIELDS };

/* The next token of a prepared text at *s (tokens are separated by
   spaces; runs of them and spaces at either end are tolerated), its
   length in *len and *s moved past it; NULL when none is left. */
static inline const char *prepared_next_token(const char **s, size_t *len)
{
    const char *p = *s;
    while (*p == ' ')
        p++;
    const char *b = p;
    while (*p && *p != ' ')
        p++;
    *s = p;
    *len = (size_t)(p - b);
    return p > b ? b : NULL;
}

/* Which text of a row an analysis reads. */
typedef enum { FIELD_HYPOTHESIS, FIELD_PREMISE, FIELD_BOTH } text_field;

/* Parses "hypothesis", "premise" or "both"; -1 otherwise. */
int text_field_parse(const char *name, text_field *f);
const char *text_field_name(text_field f);

typedef struct prepared_row {
    char *field[PREP_NFIELDS];     /* NUL-terminated */
    size_t len[PREP_NFIELDS];
    char *extra;                   /* further columns, tab-joined, or NULL */
    size_t extra_len;
    long lineno;
} prepared_row;

typedef struct prepared_reader {
    line_reader lr;
    bool header;                   /* the input has a header line */
    size_t extra_columns;          /* named in the header beyond the five */
    char *extra_header;            /* their names, tab-joined, or NULL */
    uint64_t range_end;            /* stop before a line starting here; 0 none */
} prepared_reader;

/* With no_header the input is headerless: every line is a row (shards of
   a corpus cut with split(1) or Hadoop Streaming). Else the header must
   be there (an input of blank lines only is empty), valid UTF-8, and
   name no column twice. */
int prepared_open(prepared_reader *r, const char *path, bool no_header,
                  tells_error *err);
/* Whether the file at path opens as a prepared TSV (its first line is
   the header); false for standard input ("-"), which is not read. */
bool prepared_file_is(const char *path);
/* Reads only the lines of a regular file that start in [start, end), for
   one of several threads sharing a file; header and extra_columns come
   from the reader of the first range. Line numbers count from the
   range's first line. */
int prepared_open_range(prepared_reader *r, const char *path,
                        const prepared_reader *first, uint64_t start,
                        uint64_t end, tells_error *err);
/* 1 with a row, 0 at end, -1 on error. The row stays valid until the
   next call. */
int prepared_next(prepared_reader *r, prepared_row *row, tells_error *err);
void prepared_close(prepared_reader *r);

/* Writes the header of r's input back (with its further columns), and
   a row back, as one line each; -1 on a write error. */
int prepared_write_header(FILE *fp, const prepared_reader *r);
int prepared_write_row(FILE *fp, const prepared_row *row);

/* The error for inputs that held no rows at all, "no examples in the
   input", naming the file when there is one; returns -1. */
int prepared_empty_error(tells_error *err, char *const *paths, size_t npaths);

#endif
