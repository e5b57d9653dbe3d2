/* Corpora in CSV (text/corpus.h), and tells-prep over them (text/prep.h). */
#include <config.h>

#include "corpus-read.h"

FUZZ_TARGET(corpus_csv)
{
    fuzz_corpus(data, size, "corpus.csv", FORMAT_CSV);
    return 0;
}
