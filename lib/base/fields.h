/* Tab-separated rows: one splitter and one set of messages for every
   tab-separated format tells reads (prepared TSV, prediction files,
   counts files, MeSH and lexicon files). Fields are split in place: each
   becomes a NUL-terminated string inside the line. */
#ifndef TELLS_FIELDS_H
#define TELLS_FIELDS_H

#include <stddef.h>

#include "base/error.h"

/* Splits line (len bytes) at tabs into at most max fields, the last of
   which then holds the rest of the line, tabs and all; field[i] and
   flen[i] (flen may be NULL) get each field. Returns the number of
   fields (at least 1). */
size_t tab_split(char *line, size_t len, char **field, size_t *flen, size_t max);

/* The fields of one row, for formats whose column count the header
   decides. */
typedef struct tab_row {
    char **field;
    size_t *len;
    size_t n, cap;
} tab_row;

void tab_row_free(tab_row *row);
/* Splits line at every tab; -1 when out of memory (err names file and
   line). */
int tab_row_split(tab_row *row, char *line, size_t len, const char *file, long lineno,
                  tells_error *err);

/* Field k (from 0) of a tab-joined string, not modified; NULL when it has
   fewer fields. *len gets the field's length. */
const char *tab_field_at(const char *s, size_t k, size_t *len);

/* A line of a text format: valid UTF-8 without NUL bytes. 0, or -1 with
   "invalid UTF-8" or "NUL byte in input" at file:lineno. */
int text_line_check(const char *line, size_t len, const char *file, long lineno,
                    tells_error *err);

/* A header row's column names (n of them): valid UTF-8 without NUL
   (text_line_check's messages) and no name twice: "duplicate column
   'NAME' (columns I and J)", counted from 1. Empty names may repeat:
   unnamed columns (as spreadsheets and pandas write them) cannot be
   asked for by name. 0, or -1 with err at file:lineno. */
int header_names_check(char *const *name, const size_t *len, size_t n, const char *file,
                       long lineno, tells_error *err);

/* header_names_check for a tab-separated header line (not modified). */
int header_line_check(const char *line, size_t len, const char *file, long lineno,
                      tells_error *err);

/* The message for a row with the wrong number of columns:
   "expected N tab-separated columns, found M", or with the columns'
   names (a comma-separated list) "expected N tab-separated columns
   (NAMES)" and, for one column, "expected one column (NAME), found a
   tab". Returns -1. */
int tab_columns_error(tells_error *err, const char *file, long lineno, size_t want,
                      size_t found, const char *names);

#endif
