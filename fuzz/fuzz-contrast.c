/* Contrast-set groups files of tells-stat contrast (stats/metrics.h)
   over fixed predictions: those of tests/stat.sh, ids 1 to 8. */
#include <config.h>

#include "fuzz.h"
#include "stats/metrics.h"

static const char predictions[] =
    "id\tgold\tpredicted\n"
    "1\tyes\tyes\n"
    "2\tno\tno\n"
    "3\tyes\tno\n"
    "4\tno\tno\n"
    "5\tyes\tno\n"
    "6\tno\tno\n"
    "7\tyes\tyes\n"
    "8\tno\tyes\n";

static const pred_data *fixed_predictions(void)
{
    static pred_data d;
    static bool loaded;
    if (!loaded) {
        tells_error err;
        char *path = (char *)fuzz_file("predictions.tsv", predictions, sizeof predictions - 1);
        if (pred_load(&d, &path, 1, false, &err) < 0)
            fuzz_fail("predictions.tsv", err.msg);
        loaded = true;
    }
    return &d;
}

FUZZ_TARGET(contrast)
{
    const pred_data *d = fixed_predictions();
    const char *path = fuzz_file("groups.tsv", data, size);
    contrast_groups g;
    tells_error err;
    tells_error_clear(&err);
    if (fuzz_check(contrast_load(&g, path, d, &err), &err, "contrast_load") < 0)
        return 0;
    for (size_t i = 0; i < g.ngroups; i++) {
        if (g.orig[i] >= pred_n(d) || g.off[i] > g.off[i + 1])
            fuzz_fail("contrast_load", "a group out of range");
        for (size_t k = g.off[i]; k < g.off[i + 1]; k++)
            if (g.member[k] >= pred_n(d))
                fuzz_fail("contrast_load", "a contrast out of range");
    }
    contrast_result r;
    contrast_eval(&g, d, 0, &r);
    if (r.consistent > r.groups || r.contrasts_correct > r.contrasts)
        fuzz_fail("contrast_eval", "more right than there are");
    fuzz_sink sink;
    contrast_write(fuzz_sink_open(&sink), d, 0, &r);
    fuzz_sink_close(&sink);
    contrast_free(&g);
    return 0;
}
