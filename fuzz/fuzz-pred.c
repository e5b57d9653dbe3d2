/* Prediction files of tells-stat (stats/metrics.h): one to three files,
   separated by "=====" lines, read as single-label and as multi-label
   predictions, and the reports over them (stats/statreport.h) with few
   resamples. */
#include <config.h>

#include "fuzz.h"
#include "stats/metrics.h"
#include "stats/statreport.h"

static void check_loaded(const pred_data *d, size_t nfiles)
{
    if (d->nsys != nfiles)
        fuzz_fail("pred_load", "not one system per file");
    size_t nlabels = vocab_size(d->labels);
    for (size_t src = 0; src <= d->nsys; src++)
        for (size_t i = 0; i < pred_n(d); i++) {
            const uint32_t *lab;
            size_t n = pred_set(d, src, i, &lab);
            if (!d->multi_label && n != 1)
                fuzz_fail("pred_load", "a single-label cell without one label");
            for (size_t k = 0; k < n; k++)
                if (lab[k] >= nlabels || (k > 0 && lab[k] <= lab[k - 1]))
                    fuzz_fail("pred_load", "a label set out of range or order");
        }
}

FUZZ_TARGET(pred)
{
    fuzz_part part[3];
    char *files[3];
    size_t n = fuzz_split_files(data, size, part, files, 3);
    tells_error err;
    tells_error_clear(&err);
    for (int multi = 0; multi < 2; multi++) {
        pred_data d;
        if (fuzz_check(pred_load(&d, files, n, multi, &err), &err, "pred_load") < 0)
            continue;
        check_loaded(&d, n);
        for (size_t sys = 0; sys < d.nsys; sys++) {
            metrics m;
            if (fuzz_check(metrics_compute(&d, sys, &m, &err), &err, "metrics_compute") < 0)
                continue;
            fuzz_sink sink;
            metrics_write(fuzz_sink_open(&sink), &d, sys, &m, true);
            fuzz_sink_close(&sink);
            metrics_free(&m);
        }
        pred_free(&d);

        statreport_settings s;
        statreport_defaults(&s);
        s.multi = multi;
        s.samples = 20;
        s.details = true;
        s.metric = multi ? METRIC_MICRO_F1 : METRIC_MACRO_F1;
        fuzz_sink sink;
        fuzz_check(statreport_metrics(&s, files, n, fuzz_sink_open(&sink), &err), &err,
                   "statreport_metrics");
        fuzz_sink_close(&sink);
        if (n >= 2) {
            fuzz_check(statreport_mcnemar(&s, files, fuzz_sink_open(&sink), &err), &err,
                       "statreport_mcnemar");
            fuzz_sink_close(&sink);
            resample_kind kind = multi ? RESAMPLE_PERMUTATION : RESAMPLE_BOOTSTRAP;
            fuzz_check(statreport_resample(&s, kind, files, fuzz_sink_open(&sink), &err),
                       &err, "statreport_resample");
            fuzz_sink_close(&sink);
        }
        if (n == 3) {
            fuzz_check(statreport_friedman(&s, files, n, fuzz_sink_open(&sink), &err), &err,
                       "statreport_friedman");
            fuzz_sink_close(&sink);
        }
    }
    return 0;
}
