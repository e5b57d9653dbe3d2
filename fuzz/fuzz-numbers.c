/* Files of numbers and tables of p-values of tells-stat (stats/stattest.h)
   and the reports that read them (stats/statreport.h): welch, wilcoxon,
   paired-t, friedman --scores (with and without tie correction, with
   Nemenyi's test) and fdr. Input: one file, or two separated by a "=====" line.
   Columns are looked up by the names of the first file's header. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "stats/statreport.h"
#include "stats/stattest.h"

static void read_numbers(const char *path, const char *column)
{
    double *v;
    size_t n;
    tells_error err;
    tells_error_clear(&err);
    if (fuzz_check(numbers_read(path, column, &v, &n, &err), &err, "numbers_read") < 0)
        return;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            fuzz_fail("numbers_read", "a number that is not finite");
    free(v);
}

static void read_p_table(const char *path, const char *column)
{
    p_table t;
    tells_error err;
    tells_error_clear(&err);
    if (fuzz_check(p_table_read(&t, path, column, &err), &err, "p_table_read") < 0)
        return;
    size_t m = 0;
    for (size_t i = 0; i < t.n; i++)
        m += t.has_p[i];
    if (m != t.m)
        fuzz_fail("p_table_read", "the count of p-values is wrong");
    p_table_free(&t);
}

FUZZ_TARGET(numbers)
{
    fuzz_part part[2];
    size_t n = fuzz_split(data, size, part, 2);
    char *files[3];
    files[0] = (char *)fuzz_file("x.tsv", part[0].data, part[0].size);
    files[1] = n > 1 ? (char *)fuzz_file("y.tsv", part[1].data, part[1].size) : files[0];
    files[2] = files[0];
    /* The first two names of the first header line. */
    char header[256], *tab;
    fuzz_part rest;
    fuzz_first_line(&part[0], header, sizeof header, &rest);
    const char *col[2] = {header, (tab = strchr(header, '\t')) ? tab + 1 : "p_value"};
    if (tab)
        *tab = '\0';
    if ((tab = strchr(col[1], '\t')))
        *tab = '\0';

    read_numbers(files[0], NULL);
    read_numbers(files[0], col[0]);
    read_p_table(files[0], "p_value");
    read_p_table(files[0], col[1]);

    statreport_settings s;
    statreport_defaults(&s);
    tells_error err;
    tells_error_clear(&err);
    fuzz_sink sink;
    fuzz_check(statreport_fdr(&s, files[0], fuzz_sink_open(&sink), &err), &err,
               "statreport_fdr");
    fuzz_sink_close(&sink);
    fuzz_check(statreport_welch(&s, files, 2, fuzz_sink_open(&sink), &err), &err,
               "statreport_welch");
    fuzz_sink_close(&sink);
    s.column[0] = col[0];
    s.column[1] = col[1];
    s.ncolumns = 2;
    fuzz_check(statreport_welch(&s, files, 1, fuzz_sink_open(&sink), &err), &err,
               "statreport_welch");
    fuzz_sink_close(&sink);
    for (int kind = PAIRED_WILCOXON; kind <= PAIRED_T; kind++) {
        fuzz_check(statreport_paired(&s, (paired_kind)kind, files, 1, fuzz_sink_open(&sink),
                                     &err), &err, "statreport_paired");
        fuzz_sink_close(&sink);
    }
    s.ncolumns = 0;
    for (int kind = PAIRED_WILCOXON; kind <= PAIRED_T; kind++) {
        fuzz_check(statreport_paired(&s, (paired_kind)kind, files, 2, fuzz_sink_open(&sink),
                                     &err), &err, "statreport_paired");
        fuzz_sink_close(&sink);
    }
    s.scores = true;
    fuzz_check(statreport_friedman(&s, files, 3, fuzz_sink_open(&sink), &err), &err,
               "statreport_friedman");
    fuzz_sink_close(&sink);
    s.no_ties = true;
    s.nemenyi = true;
    fuzz_check(statreport_friedman(&s, files, 3, fuzz_sink_open(&sink), &err), &err,
               "statreport_friedman");
    fuzz_sink_close(&sink);
    return 0;
}
