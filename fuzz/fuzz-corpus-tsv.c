/* Corpora in TSV (text/corpus.h), and tells-prep over them (text/prep.h). */
#include <config.h>

#include "corpus-read.h"

FUZZ_TARGET(corpus_tsv)
{
    fuzz_corpus(data, size, "corpus.tsv", FORMAT_TSV);
    return 0;
}
