/* The MeSH tree file: "Tree Number<TAB>Desc Ui<TAB>Term" per line,
   with an optional header line and byte-order mark; tree numbers; and
   the lexicon-file format the tree file shares with the lists of
   tells-heur (tab-separated columns, '#' comments). As in concepts.h,
   the readers set err, and line_seen and mesh_tree_add_terms, which can
   fail only for lack of memory, leave the report to their callers. */
#ifndef TELLS_MESH_H
#define TELLS_MESH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "base/lineio.h"
#include "text/phrase.h"
#include "base/vocab.h"

/* ---- lexicon files ---- */

/* Called with the fields of one line; r names the file and line. */
typedef int (*lexicon_row)(void *ctx, char **field, const line_reader *r,
                           tells_error *err);
/* Reads a lexicon file: skips a byte-order mark, blank lines and lines
   starting with '#', checks UTF-8, splits each line at tabs into exactly
   ncols (at most 4) non-empty fields named by names[] in messages (0:
   the whole line is field[0]), and calls row for each line. Returns the
   number of lines read, or -1. */
long lexicon_read(const char *path, size_t ncols, const char *const *names,
                  lexicon_row row, void *ctx, tells_error *err);

/* The keys a lexicon file gave, with the line each was first given on,
   to refuse duplicates. */
typedef struct line_seen {
    vocab *keys;
    long *line;
    size_t cap;
} line_seen;

int line_seen_init(line_seen *s);
void line_seen_free(line_seen *s);
/* 0 when key is new (and now recorded at line), the line it was first
   given on when not, -1 when out of memory. */
long line_seen_add(line_seen *s, const char *key, size_t len, long line);

/* ---- the tree file ---- */

typedef struct mesh_entry {
    char *tree;   /* e.g. "C08.381.677" */
    char *ui;     /* descriptor, e.g. "D011014" */
    char *term;   /* e.g. "Pneumonia" */
    long line;
} mesh_entry;

typedef struct mesh_tree {
    mesh_entry *v;
    size_t n;
} mesh_tree;

/* Loads and checks the file (a lexicon file): three non-empty columns,
   a well-formed tree number, no tree number twice. */
int mesh_tree_load(const char *path, mesh_tree *out, tells_error *err);
void mesh_tree_free(mesh_tree *m);

/* A capital letter and digits, then groups of '.' and digits
   ("C08.381.677"). */
bool mesh_valid_tree_number(const char *s);
/* A tree prefix: a category letter ("C") or a tree number. */
bool mesh_valid_tree_prefix(const char *s);
/* Whether tree number anc is a proper ancestor of tree number desc: a
   prefix of it ending on a '.' boundary (C08.381 of C08.381.677, not of
   C08.3810). */
bool mesh_tree_ancestor(const char *anc, const char *desc);
/* Whether tree lies under prefix: it is the prefix, a descendant of it,
   or in its category when the prefix is one letter. */
bool mesh_tree_under(const char *tree, const char *prefix);
/* The uninverted form of a term with exactly one ", " ("Anemia, Sickle
   Cell" -> "Sickle Cell Anemia") into buf; false when there is none. */
bool mesh_uninvert(const char *term, char *buf, size_t size);

/* Adds every term to ps, tokenised with opt, and also the uninverted
   form of terms such as "Anemia, Sickle Cell" ("sickle cell anemia"),
   since running text uses that order. */
int mesh_tree_add_terms(const mesh_tree *m, phrase_set *ps,
                        const tok_options *opt);

#endif
