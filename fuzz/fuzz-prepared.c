/* The prepared TSV (base/prepared.h) as every analysis reads it: row by
   row with and without a header, whole (base/dataset.h), and counted by
   tells-pmi and tells-len (stats/counts.h, stats/describe.h). Rows
   written back must read back as the same rows. */
#include <config.h>

#include <string.h>

#include "fuzz.h"
#include "base/dataset.h"
#include "base/prepared.h"
#include "stats/counts.h"
#include "stats/describe.h"

/* Reads path and writes what it read to sink; the number of rows, or -1
   after an error. */
static long copy_rows(const char *path, bool no_header, fuzz_sink *sink, size_t size)
{
    prepared_reader r;
    tells_error err;
    tells_error_clear(&err);
    if (fuzz_check(prepared_open(&r, path, no_header, &err), &err, "prepared_open") < 0)
        return -1;
    FILE *fp = fuzz_sink_open(sink);
    if (!no_header)
        prepared_write_header(fp, &r);
    prepared_row row;
    long rows = 0;
    int rc;
    while ((rc = prepared_next(&r, &row, &err)) == 1) {
        if ((size_t)++rows > size + 1)
            fuzz_fail("prepared_next", "no progress");
        prepared_write_row(fp, &row);
    }
    fuzz_check(rc, &err, "prepared_next");
    prepared_close(&r);
    fflush(fp);
    return rc < 0 ? -1 : rows;
}

static void round_trip(const char *path, bool no_header, size_t size)
{
    fuzz_sink first = {0}, second = {0};
    long rows = copy_rows(path, no_header, &first, size);
    if (rows >= 0) {
        const char *copy = fuzz_file("copy.tsv", first.buf, first.len);
        if (copy_rows(copy, no_header, &second, first.len) != rows)
            fuzz_fail("prepared_write_row", "rows written do not read back");
        if (second.len != first.len || memcmp(second.buf, first.buf, first.len) != 0)
            fuzz_fail("prepared_write_row", "rows written read back differently");
        fuzz_sink_close(&second);
    }
    fuzz_sink_close(&first);
}

FUZZ_TARGET(prepared)
{
    const char *path = fuzz_file("prepared.tsv", data, size);
    tells_error err;
    tells_error_clear(&err);
    round_trip(path, false, size);
    round_trip(path, true, size);

    dataset d;
    if (fuzz_check(dataset_load(&d, path, &err), &err, "dataset_load") == 0) {
        long k = dataset_column(&d, "group");
        char buf[64];
        for (size_t i = 0; i < d.n; i++) {
            if (d.ex[i].split >= vocab_size(d.splits) || d.ex[i].label >= vocab_size(d.labels))
                fuzz_fail("dataset_load", "a split or label id out of range");
            if (k >= 0)
                example_column(&d.ex[i], k, buf, sizeof buf);
        }
        dataset_split_size(&d, "train");
        dataset_free(&d);
    }

    token_counts tc;
    if (counts_init(&tc, FIELD_BOTH) == 0) {
        if (fuzz_check(counts_add_prepared(&tc, path, false, 1, &err), &err,
                       "counts_add_prepared") == 0) {
            fuzz_sink sink;
            counts_write(&tc, fuzz_sink_open(&sink), &err);
            fuzz_sink_close(&sink);
        }
        counts_free(&tc);
    }

    length_table lt;
    if (lengths_init(&lt) == 0) {
        if (fuzz_check(lengths_add_prepared(&lt, path, FIELD_HYPOTHESIS, false, &err), &err,
                       "lengths_add_prepared") == 0) {
            fuzz_sink sink;
            lengths_write(&lt, true, fuzz_sink_open(&sink), &err);
            fuzz_sink_close(&sink);
        }
        lengths_free(&lt);
    }
    return 0;
}
