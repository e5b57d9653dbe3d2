/* fastText .bin models: the validator (model/ftbin.h), then as word
   vectors (model/embed.h, through the shim's ft_load, which validates
   before libfasttext reads anything). Seeds: fuzz/seeds ftbin. */
#include <config.h>

#include <string.h>

#include "embed-run.h"

#include "model/ftbin.h"

FUZZ_TARGET(ftbin)
{
    static const uint8_t bin_magic[4] = {0xba, 0x16, 0x4f, 0x2f};
    /* Only .bin files: the rest is fuzz-vectors.c's. */
    if (size < 4 || memcmp(data, bin_magic, 4) != 0)
        return 0;
    const char *path = fuzz_file("model.bin", data, size);
    ftbin_info info;
    tells_error err;
    tells_error_clear(&err);
    fuzz_check(ftbin_check(path, &info, &err), &err, "ftbin_check");
    fuzz_embed(path, EMBED_PAIR, EMBED_PAIR_SUM, false);
    return 0;
}
