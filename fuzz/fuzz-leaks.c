/* The leak check (text/redact.h, tells-leaks): a prepared TSV, the corpus,
   then the bytes of a file, joined by a "=====" line. The corpus is
   indexed (and gated), and the file scanned as text, as markup and under
   a binary's name; a finding must be one the index can give: a run of
   the index's length, or a word of fewer than K premises, on a line of
   the file. The same bytes give the same answer twice. */
#include <config.h>

#include <string.h>

#include "base/dataset.h"
#include "fuzz.h"
#include "text/redact.h"

static size_t lines_of(const uint8_t *d, size_t n)
{
    size_t k = 1;
    for (size_t i = 0; i < n; i++)
        k += d[i] == '\n';
    return k;
}

static void check_finding(const leak_index *ix, const leak_finding *f, size_t maxline)
{
    if (f->line < 1 || (size_t)f->line > maxline)
        fuzz_fail("leak_scan_buffer", "a finding's line is outside the file");
    if (!f->fragment[0])
        fuzz_fail("leak_scan_buffer", "an empty fragment");
    if (f->kind == LEAK_RARE_WORD) {
        size_t p = leak_index_premises(ix, f->fragment, strlen(f->fragment));
        if (strlen(f->fragment) < 255 && (p == 0 || p >= f->k || p != f->premises))
            fuzz_fail("leak_scan_buffer", "a rare word the index does not count as rare");
    } else {
        size_t words = 1;
        for (const char *s = f->fragment; *s; s++)
            words += *s == ' ';
        if (words != REDACT_NGRAM)
            fuzz_fail("leak_scan_buffer", "a run of the wrong length");
    }
}

FUZZ_TARGET(leaks)
{
    fuzz_part parts[2];
    char *files[2];
    size_t n = fuzz_split_files(data, size, parts, files, 2);
    if (n < 2)
        return 0;
    tells_error err;
    tells_error_clear(&err);
    dataset d;
    if (fuzz_check(dataset_load(&d, files[0], &err), &err, "dataset_load") < 0)
        return 0;
    leak_index *ix = leak_index_new(REDACT_NGRAM, 3, &err);
    redact_gate *g = ix ? redact_gate_new(&d, 3, &err) : NULL;
    if (g && fuzz_check(leak_index_add_dataset(ix, &d, &err), &err, "leak_index_add_dataset") == 0) {
        for (size_t i = 0; i < d.n; i++)
            redact_gate_text_ok(g, d.ex[i].hypothesis);
        static const char *const names[] = {"f.tsv", "f.html", "f.svg", "f.npy"};
        size_t maxline = lines_of(parts[1].data, parts[1].size);
        for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
            leak_finding f1, f2;
            int r1 = leak_scan_buffer(ix, names[k], (const char *)parts[1].data, parts[1].size, &f1);
            int r2 = leak_scan_buffer(ix, names[k], (const char *)parts[1].data, parts[1].size, &f2);
            if (r1 != r2 || (r1 == 1 && (f1.line != f2.line || strcmp(f1.fragment, f2.fragment))))
                fuzz_fail("leak_scan_buffer", "two scans of the same bytes differ");
            if (r1 == 1)
                check_finding(ix, &f1, maxline);
        }
    }
    redact_gate_free(g);
    leak_index_free(ix);
    dataset_free(&d);
    return 0;
}
