/* MeSH entry-term files (text/entryterms.h) with the tree file they
   join, as tells-heur, tells-audit, tells-study and tells-concepts read
   them: the concept index on stems and on exact tokens (text/concepts.h),
   then linking texts as written. Input: the tree file, a separator line,
   the entry-term file, and optionally a separator line and lines of text
   to link. */
#include <config.h>

#include <string.h>

#include "fuzz.h"
#include "text/concepts.h"
#include "text/entryterms.h"

static const char default_texts[] =
    "The patient smokes and has COPD , high blood pressure and a heart attack\n"
    "no shortness of breath ; ALL and all ; Smoking Behavior\n";

static int count_row(void *ctx, const entry_term *t, const line_reader *r, tells_error *err)
{
    (void)r;
    (void)err;
    if (!*t->ui || !*t->name || !*t->concept || !*t->term || !*t->tag)
        fuzz_fail("entry_terms_read", "an empty field it should have refused");
    ++*(long *)ctx;
    return 0;
}

static void link_lines(const concept_index *ci, const uint8_t *text, size_t size)
{
    concept_hits hits;
    concept_hits_init(&hits);
    const char *p = (const char *)text, *end = p + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (concept_link_text(ci, p, len, &hits) < 0)
            fuzz_fail("concept_link_text", "out of memory");
        for (size_t h = 0; h < hits.n; h++)
            if (hits.v[h].concept >= concept_count(ci) || hits.v[h].start >= hits.v[h].end)
                fuzz_fail("concept_link_text", "a hit out of range");
        p += len + (nl != NULL);
    }
    concept_hits_free(&hits);
}

FUZZ_TARGET(mesh_terms)
{
    fuzz_part part[3];
    size_t nparts = fuzz_split(data, size, part, 3);
    if (nparts < 2)
        return 0;
    const char *tree = fuzz_file("mtrees.txt", part[0].data, part[0].size);
    const char *terms = fuzz_file("terms.tsv", part[1].data, part[1].size);
    tells_error err;
    tells_error_clear(&err);

    long rows = 0;
    long n = entry_terms_read(terms, count_row, &rows, &err);
    fuzz_check(n < 0 ? -1 : 0, &err, "entry_terms_read");
    if (n >= 0 && n != rows)
        fuzz_fail("entry_terms_read", "a row count that is not the rows given");

    for (int stem = 0; stem <= 1; stem++) {
        concept_options o = {.terms = terms, .stem = stem};
        concept_index *ci = concept_index_open(tree, &o, &err);
        if (!ci) {
            fuzz_check(-1, &err, "concept_index_open");
            continue;
        }
        for (size_t c = 0; c < concept_count(ci); c++)
            if (concept_find_ui(ci, concept_ui(ci, (uint32_t)c)) != (long)c)
                fuzz_fail("concept_index_open", "a descriptor not found by its id");
        if (nparts > 2)
            link_lines(ci, part[2].data, part[2].size);
        else
            link_lines(ci, (const uint8_t *)default_texts, sizeof default_texts - 1);
        concept_index_free(ci);
    }
    return 0;
}
