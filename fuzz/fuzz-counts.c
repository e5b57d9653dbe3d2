/* Counts files of tells-pmi --emit-counts, merged by --merge
   (stats/counts.h). Merged counts must not wrap or contradict each
   other, and counts merged and written must merge back into the same
   counts. */
#include <config.h>

#include <string.h>

#include "fuzz.h"
#include "stats/counts.h"

/* The field the file's "field" line names, else the hypothesis. */
static text_field field_of(const uint8_t *data, size_t size)
{
    char value[32];
    for (size_t i = 0; i + 7 <= size; i++)
        if ((i == 0 || data[i - 1] == '\n') && memcmp(data + i, "field\t", 6) == 0) {
            size_t k = 0;
            for (i += 6; i < size && data[i] != '\n' && data[i] != '\r'; i++)
                if (k < sizeof value - 1)
                    value[k++] = (char)data[i];
            value[k] = '\0';
            text_field f;
            return text_field_parse(value, &f) == 0 ? f : FIELD_HYPOTHESIS;
        }
    return FIELD_HYPOTHESIS;
}

/* What merging promises: no sum of the counts or of the examples wraps,
   and a token is in at most count and at most its class's examples. */
static void check_sums(const token_counts *tc)
{
    uint64_t total = 0, examples = 0;
    for (size_t c = 0; c < vocab_size(tc->classes); c++) {
        if (tc->examples[c] > UINT64_MAX - examples)
            fuzz_fail("counts_merge_file", "the examples wrap");
        examples += tc->examples[c];
        for (size_t t = 0; t < vocab_size(tc->tokens); t++) {
            uint64_t count, docs;
            counts_get(tc, c, t, &count, &docs);
            if (count > UINT64_MAX - total)
                fuzz_fail("counts_merge_file", "the counts wrap");
            total += count;
            if (docs > count || docs > tc->examples[c])
                fuzz_fail("counts_merge_file", "docs above count or examples");
        }
    }
}

/* Merges path into new counts and writes them to sink; -1 on an error. */
static int merge_write(const char *path, text_field field, int times, fuzz_sink *sink)
{
    token_counts tc;
    tells_error err;
    tells_error_clear(&err);
    if (counts_init(&tc, field) < 0)
        fuzz_fail("counts_init", "out of memory");
    int rc = 0;
    for (int i = 0; i < times && rc == 0; i++)
        rc = fuzz_check(counts_merge_file(&tc, path, &err), &err, "counts_merge_file");
    if (rc == 0) {
        check_sums(&tc);
        FILE *fp = fuzz_sink_open(sink);
        if (counts_write(&tc, fp, &err) < 0 || fflush(fp) != 0)
            fuzz_fail("counts_write", err.msg);
    }
    counts_free(&tc);
    return rc;
}

FUZZ_TARGET(counts)
{
    const char *path = fuzz_file("counts.tsv", data, size);
    text_field field = field_of(data, size);
    fuzz_sink first = {0}, second = {0};
    if (merge_write(path, field, 2, &first) < 0)
        return 0;
    const char *copy = fuzz_file("copy.tsv", first.buf, first.len);
    if (merge_write(copy, field, 1, &second) < 0)
        fuzz_fail("counts_write", "the counts written do not merge back");
    if (second.len != first.len || memcmp(second.buf, first.buf, first.len) != 0)
        fuzz_fail("counts_write", "the counts written merge back differently");
    fuzz_sink_close(&second);
    fuzz_sink_close(&first);
    return 0;
}
