/* Corpora in JSONL (text/corpus.h), and tells-prep over them (text/prep.h). */
#include <config.h>

#include "corpus-read.h"

FUZZ_TARGET(corpus_jsonl)
{
    fuzz_corpus(data, size, "corpus.jsonl", FORMAT_JSONL);
    return 0;
}
