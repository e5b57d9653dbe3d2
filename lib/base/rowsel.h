/* Row selection (tells-split): the rows of a prepared TSV whose id is
   listed in an id file (or is not), or whose split is named (or is not),
   in input order. The ids of the id files that no row had are kept, for
   the caller to report and to write out. */
#ifndef TELLS_ROWSEL_H
#define TELLS_ROWSEL_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"
#include "base/idfile.h"
#include "base/prepared.h"

typedef struct row_selection {
    const char *keep_path, *drop_path;  /* id files, or NULL */
    const char *splits, *exclude;       /* comma-separated split names, or NULL */
    const char *within;                 /* the id files apply to this split's
                                           rows only; the others pass, or NULL */
    id_set keep, drop;                  /* filled by row_selection_load */
} row_selection;

/* A comma-separated list of split names: at least one, none empty.
   0, or -1 with the usage error "invalid split list 'LIST'". */
int split_list_check(const char *list, tells_error *err);

/* Loads the id files named in s (keep first); the split lists must have
   passed split_list_check. */
int row_selection_load(row_selection *s, tells_error *err);
void row_selection_free(row_selection *s);

/* Whether row is selected; its id is marked as seen in both id sets. */
bool row_selection_wants(row_selection *s, const prepared_row *row);

/* Copies the header (unless no_header) and the selected rows of the
   prepared TSV at path to out; then, when missing is not NULL, writes
   there the ids of the id files that no row had, one per line, those of
   the keep file first. A write error on out is an error here; one on
   missing shows when the caller commits that file. An input without
   rows is an error ("no examples in the input"), and so is, with an id
   file, an id on two rows ("duplicate id 'ID' (first on line N)"), and a
   split named in splits, exclude or within that no row has ("no split
   named 'test' (the input has dev, train)"). */
int row_selection_copy(row_selection *s, const char *path, bool no_header, FILE *out,
                       FILE *missing, tells_error *err);

/* The ids of both id files that no row had (after row_selection_copy). */
size_t row_selection_unseen(const row_selection *s);

#endif
