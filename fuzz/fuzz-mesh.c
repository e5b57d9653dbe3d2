/* The MeSH tree file (text/mesh.h) as tells-prep --mesh and tells-heur
   read it, the concept index built from it and its synonym files
   (text/concepts.h). Input: the tree file, then optionally a separator
   line and a synonym file. */
#include <config.h>

#include <string.h>

#include "fuzz.h"
#include "text/concepts.h"
#include "text/mesh.h"
#include "text/phrase.h"

static const char *const texts[] = {
    "the patient has sepsis and anemia",
    "history of gastrointestinal_hemorrhage , no vertigo",
    "obesity obesity overweight c01 d007239",
};

static void link_texts(const concept_index *ci)
{
    token_list words, parts;
    concept_hits hits = {0};
    token_list_init(&words);
    token_list_init(&parts);
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        if (text_parts(texts[i], strlen(texts[i]), &words, &parts) < 0 ||
            concept_link(ci, &parts, &hits) < 0)
            fuzz_fail("concept_link", "out of memory");
        for (size_t h = 0; h < hits.n; h++)
            if (hits.v[h].concept >= concept_count(ci) || hits.v[h].start >= hits.v[h].end ||
                hits.v[h].end > parts.n)
                fuzz_fail("concept_link", "a hit out of range");
    }
    concept_hits_free(&hits);
    token_list_free(&words);
    token_list_free(&parts);
}

FUZZ_TARGET(mesh)
{
    fuzz_part part[2];
    size_t nparts = fuzz_split(data, size, part, 2);
    const char *tree = fuzz_file("mtrees.txt", part[0].data, part[0].size);
    tells_error err;
    tells_error_clear(&err);

    mesh_tree m;
    if (fuzz_check(mesh_tree_load(tree, &m, &err), &err, "mesh_tree_load") == 0) {
        for (size_t i = 0; i < m.n; i++)
            if (!mesh_valid_tree_number(m.v[i].tree) || !*m.v[i].ui || !*m.v[i].term)
                fuzz_fail("mesh_tree_load", "an entry it should have refused");
        phrase_set *ps = phrase_set_new();
        tok_options tok = {0};
        if (!ps || mesh_tree_add_terms(&m, ps, &tok) < 0)
            fuzz_fail("mesh_tree_add_terms", "out of memory");
        phrase_set_free(ps);
        mesh_tree_free(&m);
    }

    concept_index *ci = concept_index_load(tree, &err);
    if (!ci) {
        fuzz_check(-1, &err, "concept_index_load");
        return 0;
    }
    if (nparts > 1) {
        const char *syn = fuzz_file("synonyms.tsv", part[1].data, part[1].size);
        fuzz_check(concept_index_add_synonyms(ci, syn, &err), &err,
                   "concept_index_add_synonyms");
    }
    for (size_t c = 0; c < concept_count(ci); c++) {
        if (concept_find_ui(ci, concept_ui(ci, (uint32_t)c)) != (long)c)
            fuzz_fail("concept_index_load", "a descriptor not found by its id");
        for (size_t k = 0; k < concept_ntrees(ci, (uint32_t)c); k++)
            if (concept_find_tree(ci, concept_tree(ci, (uint32_t)c, k)) != (long)c)
                fuzz_fail("concept_index_load", "a tree number not found");
    }
    link_texts(ci);
    concept_index_free(ci);
    return 0;
}
