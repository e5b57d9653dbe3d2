/* Training dynamics of dataset cartography (model/carto.h): the
   cartography code's dynamics_epoch_K.jsonl files or tells prediction
   TSVs, one per epoch, then the statistics, the table and the regions.
   Input: up to four epoch files separated by "=====" lines; a part that
   starts with '{' is JSON lines, any other a TSV. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "model/carto.h"

FUZZ_TARGET(dynamics)
{
    fuzz_part part[4];
    size_t nparts = fuzz_split(data, size, part, 4);
    carto_dynamics d;
    tells_error err;
    tells_error_clear(&err);
    if (carto_dynamics_init(&d, &err) < 0)
        fuzz_fail("carto_dynamics_init", err.msg);
    int rc = 0;
    for (size_t e = 0; e < nparts && rc == 0; e++) {
        char name[64];
        bool json = part[e].size > 0 && part[e].data[0] == '{';
        snprintf(name, sizeof name, json ? "dynamics_epoch_%zu.jsonl" : "epoch-%zu.tsv", e);
        const char *path = fuzz_file(name, part[e].data, part[e].size);
        rc = fuzz_check(carto_read_epoch(&d, path, &err), &err, "carto_read_epoch");
    }
    if (rc == 0 && d.epochs > 0) {
        carto_stats s;
        if (fuzz_check(carto_compute(&d, &s, &err), &err, "carto_compute") == 0) {
            for (size_t i = 0; i < d.n; i++)
                if (!(s.confidence[i] >= 0 && s.confidence[i] <= 1) ||
                    !(s.variability[i] >= 0 && s.variability[i] <= 0.5) ||
                    !(s.correctness[i] >= 0 && s.correctness[i] <= 1) ||
                    s.forgetfulness[i] >= d.epochs)
                    fuzz_fail("carto_compute", "a statistic out of its range");
            fuzz_sink sink;
            if (carto_write_table(fuzz_sink_open(&sink), &d, &s) < 0)
                fuzz_fail("carto_write_table", "a write error");
            fuzz_sink_close(&sink);
            unsigned char *in = calloc(d.n + 1, 1);
            if (!in)
                fuzz_fail("carto_select", "out of memory");
            for (int r = CARTO_EASY; r <= CARTO_HARD; r++)
                if (fuzz_check(carto_select(&d, &s, (carto_region)r, 0.33, in, &err) ==
                               (size_t)-1 ? -1 : 0, &err, "carto_select") == 0)
                    for (size_t i = 0; i < d.n; i++)
                        if (in[i] > 1)
                            fuzz_fail("carto_select", "a mark that is not 0 or 1");
            free(in);
            carto_stats_free(&s);
        }
    }
    carto_dynamics_free(&d);
    return 0;
}
