/* fastText .bin models where tells reads them as word vectors
   (model/embed.h, through the shim's ft_load). The validator of .bin
   files (model/ftbin.h, being written) gets its call here when it is in
   the tree: fuzz/run defines HAVE_FTBIN then. Seeds: fuzz/seeds ftbin. */
#include <config.h>

#include <string.h>

#include "embed-run.h"

#ifdef HAVE_FTBIN
#include "model/ftbin.h"
#endif

FUZZ_TARGET(ftbin)
{
    static const uint8_t bin_magic[4] = {0xba, 0x16, 0x4f, 0x2f};
    /* Only .bin files: the rest is fuzz-vectors.c's. */
    if (size < 4 || memcmp(data, bin_magic, 4) != 0)
        return 0;
    const char *path = fuzz_file("model.bin", data, size);
#ifdef HAVE_FTBIN
    /* TODO when model/ftbin.h is merged: call its validator on path here
       and check its error with fuzz_check. */
#endif
    fuzz_embed(path, EMBED_PAIR, EMBED_PAIR_SUM, false);
    return 0;
}
