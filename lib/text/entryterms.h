/* MeSH entry-term files: every term of every descriptor, as tabulated
   from NLM's descriptor XML (corpora/mesh/desc2024-terms.tsv). A header
   line names the eight columns
     DescriptorUI DescriptorName ConceptUI TermName RecordPreferredTermYN
     ConceptPreferredTermYN IsPermutedTermYN LexicalTag
   and each row gives one term: the descriptor's id and name, the concept
   (of the descriptor) the term belongs to, the term, whether it is the
   descriptor's heading, its concept's preferred term, a permuted
   (word-order) variant, and NLM's lexical tag (NON, ABB abbreviation,
   ACR acronym, LAB lab number, TRD trade name, ...). */
#ifndef TELLS_ENTRYTERMS_H
#define TELLS_ENTRYTERMS_H

#include <stdbool.h>

#include "base/error.h"
#include "base/lineio.h"

typedef struct entry_term {
    const char *ui, *name, *concept, *term, *tag;
    bool record_preferred, concept_preferred, permuted;
} entry_term;

/* Called for each row; r names the file and line. */
typedef int (*entry_term_fn)(void *ctx, const entry_term *t, const line_reader *r,
                             tells_error *err);

/* Reads an entry-term file: the header on line 1 (after a byte-order
   mark), then rows of eight non-empty fields (blank lines skipped; CRLF
   line ends accepted, as everywhere), a descriptor id 'D' and digits, Y or
   N in the three flag columns. A bad row is an error naming the file,
   the line and what is wrong. Returns the number of rows, or -1. */
long entry_terms_read(const char *path, entry_term_fn fn, void *ctx, tells_error *err);

#endif
