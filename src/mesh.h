/* The MeSH tree file: "Tree Number<TAB>Desc Ui<TAB>Term" per line,
   with an optional header line and byte-order mark. */
#ifndef TELLS_MESH_H
#define TELLS_MESH_H

#include <stddef.h>

#include "error.h"
#include "phrase.h"

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

/* Loads and checks the file: three non-empty columns, a well-formed
   tree number, no tree number twice. */
int mesh_tree_load(const char *path, mesh_tree *out, tells_error *err);
void mesh_tree_free(mesh_tree *m);

/* Adds every term to ps, tokenised with opt, and also the uninverted
   form of terms such as "Anemia, Sickle Cell" ("sickle cell anemia"),
   since running text uses that order. */
int mesh_tree_add_terms(const mesh_tree *m, phrase_set *ps,
                        const tok_options *opt);

#endif
