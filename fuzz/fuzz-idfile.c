/* Id files (base/idfile.h): AFLite partitions and row filters. */
#include <config.h>

#include <string.h>

#include "fuzz.h"
#include "base/idfile.h"

FUZZ_TARGET(idfile)
{
    const char *path = fuzz_file("ids.txt", data, size);
    id_set s;
    tells_error err;
    tells_error_clear(&err);
    if (fuzz_check(id_set_load(&s, path, &err), &err, "id_set_load") < 0)
        return 0;
    /* Match the first id and a few that are usually absent. */
    const char *nl = memchr(data, '\n', size);
    size_t first = nl ? (size_t)(nl - (const char *)data) : size;
    if (first > 0 && !id_set_match(&s, (const char *)data, first) &&
        !memchr(data, '\r', first) && !(size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0))
        fuzz_fail("id_set_match", "the first id of the file is not in the set");
    id_set_match(&s, "", 0);
    id_set_match(&s, "e1", 2);
    size_t total = id_set_size(&s), unseen = id_set_unseen(&s);
    if (unseen > total)
        fuzz_fail("id_set_unseen", "more unseen ids than ids");
    fuzz_sink sink;
    id_set_write_unseen(&s, fuzz_sink_open(&sink));
    fuzz_sink_close(&sink);
    id_set_free(&s);
    return 0;
}
