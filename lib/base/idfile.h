/* Id files: one example id per line (AFLite partitions, filters). */
#ifndef TELLS_IDFILE_H
#define TELLS_IDFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"
#include "base/vocab.h"

typedef struct id_set {
    vocab *ids;
    bool *seen;     /* per id: matched by some input row */
} id_set;

/* Blank lines are ignored; an id with a tab, or invalid UTF-8, is an error.
   An id listed twice counts once. A .npy file (by its name ending in
   .npy, or a regular file by its first bytes) is read as NumPy saves an
   array of strings (base/npy.h: '<U10', as the MedNLI study's
   partition_ids files, or '|S10'): one id per item, empty items ignored,
   an item with a tab or line break an error. */
int id_set_load(id_set *s, const char *path, tells_error *err);
void id_set_free(id_set *s);
/* Whether id is in the set; marks it as seen. */
bool id_set_match(id_set *s, const char *id, size_t len);
/* Number of ids (0 for a set never loaded: ids NULL). */
size_t id_set_size(const id_set *s);
/* Number of ids never matched. */
size_t id_set_unseen(const id_set *s);
/* Writes the ids never matched, one per line, in file order; -1 on a
   write error. */
int id_set_write_unseen(const id_set *s, FILE *fp);

/* Writes ids[0..n) one per line to path atomically, and beside it
   path.sha256, the file's SHA-256 in sha256sum's format ("HEX  NAME",
   NAME without folders, so that `sha256sum -c` runs where the files
   are). Both are written before either is renamed into place. */
int idfile_write(const char *path, const char *const *ids, size_t n, tells_error *err);

#endif
