/* AdaTest test trees (analysis/testtree.h): the CSV, or TSV when the
   first line has a tab, the reports of a model that answers every input
   with its test's output and of one that answers "0", and their
   comparison. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "analysis/testtree.h"

FUZZ_TARGET(testtree)
{
    const uint8_t *nl = memchr(data, '\n', size);
    size_t first = nl ? (size_t)(nl - data) : size;
    const char *path = fuzz_file(memchr(data, '\t', first) ? "tree.tsv" : "tree.csv",
                                 data, size);
    test_tree tr;
    tells_error err;
    tells_error_clear(&err);
    if (fuzz_check(tree_load(&tr, path, &err), &err, "tree_load") < 0)
        return 0;
    const char **pred = calloc(tr.n + 1, sizeof *pred);
    bool *outcome[2] = {calloc(tr.n + 1, sizeof (bool)), calloc(tr.n + 1, sizeof (bool))};
    if (!pred || !outcome[0] || !outcome[1])
        fuzz_fail("testtree", "out of memory");
    fuzz_sink sink;
    for (int model = 0; model < 2; model++) {
        bool *failed = outcome[model];
        for (size_t i = 0; i < tr.n; i++)
            pred[i] = model == 0 ? tr.t[i].output : "0";
        tree_outcomes(&tr, pred, failed);
        for (size_t i = 0; i < tr.n && model == 0; i++)
            if (failed[i] == tr.t[i].expect_pass)
                fuzz_fail("tree_outcomes", "a test failed by its own output");
        if (tree_report(fuzz_sink_open(&sink), &tr, failed, &err) < 0)
            fuzz_fail("tree_report", err.msg);
        fuzz_sink_close(&sink);
    }
    tree_compare_options o = {.threshold = 0.5, .alpha = 0.05, .samples = 20, .seed = 1};
    if (tree_compare(fuzz_sink_open(&sink), &tr, outcome[0], outcome[1], &o, &err) < 0)
        fuzz_fail("tree_compare", err.msg);
    fuzz_sink_close(&sink);
    free(pred);
    free(outcome[0]);
    free(outcome[1]);
    tree_free(&tr);
    return 0;
}
