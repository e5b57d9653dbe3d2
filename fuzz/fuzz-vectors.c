/* Word vectors in text (fastText .vec, GloVe), read by model/embed.h. A
   file that starts with fastText's magic number is a .bin, for
   fuzz-ftbin.c. */
#include <config.h>

#include <string.h>

#include "embed-run.h"

FUZZ_TARGET(vectors)
{
    static const uint8_t bin_magic[4] = {0xba, 0x16, 0x4f, 0x2f};
    if (size >= 4 && memcmp(data, bin_magic, 4) == 0)
        return 0;
    const char *path = fuzz_file("vectors.vec", data, size);
    /* The modes read the file alike; vary them with the input. */
    fuzz_embed(path, size % 3 == 0 ? EMBED_HYPOTHESIS : EMBED_PAIR,
               size % 2 ? EMBED_PAIR_CONCAT : EMBED_PAIR_SUM, size % 5 == 0);
    return 0;
}
