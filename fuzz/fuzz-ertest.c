/* The readers of tells-stat normalized-failure, seeds and --labels
   (stats/ertest.h, stats/metrics.h): one to three files separated by
   "=====" lines, read as tells-run tables of functional tests (files 1
   and 3 as seeds of one model, file 2 another), as seeds tables (whole
   files, and the column named by the first file's first header field),
   and the first file as a label set file (--labels @FILE). */
#include <config.h>

#include <string.h>

#include "fuzz.h"
#include "stats/ertest.h"
#include "stats/metrics.h"

FUZZ_TARGET(ertest)
{
    fuzz_part part[3];
    char *files[3];
    size_t n = fuzz_split_files(data, size, part, files, 3);
    tells_error err;
    tells_error_clear(&err);
    fuzz_sink sink;

    model_file mf[3];
    for (size_t k = 0; k < n; k++)
        mf[k] = (model_file){k == 1 ? "B" : "A", files[k]};
    fuzz_check(normalized_failure_report(mf, n, fuzz_sink_open(&sink), &err), &err,
               "normalized_failure_report");
    fuzz_sink_close(&sink);
    for (size_t k = 0; k < n; k++)
        mf[k] = (model_file){NULL, files[k]};
    fuzz_check(normalized_failure_report(mf, n, fuzz_sink_open(&sink), &err), &err,
               "normalized_failure_report");
    fuzz_sink_close(&sink);

    fuzz_check(seeds_report(files, n, NULL, fuzz_sink_open(&sink), &err), &err,
               "seeds_report");
    fuzz_sink_close(&sink);
    char column[64];
    fuzz_part rest;
    fuzz_first_line(&part[0], column, sizeof column, &rest);
    char *tab = strchr(column, '\t');
    if (tab)
        *tab = '\0';
    fuzz_check(seeds_report(files, n, column, fuzz_sink_open(&sink), &err), &err,
               "seeds_report");
    fuzz_sink_close(&sink);

    char spec[4200];
    snprintf(spec, sizeof spec, "@%s", files[0]);
    label_set ls;
    if (fuzz_check(label_set_parse(&ls, spec, &err), &err, "label_set_parse") == 0) {
        if (ls.n == 0)
            fuzz_fail("label_set_parse", "an empty label set");
        for (size_t i = 0; i < ls.n; i++) {
            if (!ls.name[i][0] || strchr(ls.name[i], '\t'))
                fuzz_fail("label_set_parse", "an empty label or one with a tab");
            for (size_t j = 0; j < i; j++)
                if (strcmp(ls.name[i], ls.name[j]) == 0)
                    fuzz_fail("label_set_parse", "a label twice");
        }
        label_set_free(&ls);
    }
    return 0;
}
