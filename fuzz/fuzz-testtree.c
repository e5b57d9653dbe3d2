/* AdaTest test trees (analysis/testtree.h), in the current format and
   the paper's (type, value1..value3): the CSV, or TSV when the first
   line has a tab. Judged for a model that answers every input with its
   test's output and for one that answers "0", under both rules for
   changed outputs; the reports of each run, of both pooled, and their
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
    for (size_t i = 0; i < tr.n; i++)
        if (tr.t[i].first >= tr.ninputs ||
            (tr.t[i].kind == TREE_SAME_OUTPUT && tr.t[i].first + 1 >= tr.ninputs))
            fuzz_fail("tree_load", "a test whose inputs are out of range");
    const char **pred = calloc(tr.ninputs + 1, sizeof *pred);
    unsigned char *outcome[2] = {calloc(tr.n + 1, 1), calloc(tr.n + 1, 1)};
    if (!pred || !outcome[0] || !outcome[1])
        fuzz_fail("testtree", "out of memory");
    fuzz_sink sink;
    for (int rule = TREE_CHANGED_SKIP; rule <= TREE_CHANGED_FLIP; rule++) {
        for (int model = 0; model < 2; model++) {
            for (size_t i = 0; i < tr.n; i++) {
                const tree_test *t = &tr.t[i];
                const char *answer = model == 0 && t->output ? t->output : "0";
                pred[t->first] = answer;
                if (t->kind == TREE_SAME_OUTPUT)
                    pred[t->first + 1] = answer;
            }
            tree_judge(&tr, pred, (tree_changed_rule)rule, outcome[model]);
            for (size_t i = 0; i < tr.n; i++) {
                if (outcome[model][i] > TREE_CHANGED)
                    fuzz_fail("tree_judge", "an outcome out of range");
                if (model == 0 && tr.t[i].expect_pass && outcome[model][i] == TREE_FAIL)
                    fuzz_fail("tree_judge", "a test failed by its own output");
            }
            const unsigned char *one[1] = {outcome[model]};
            if (tree_report_runs(fuzz_sink_open(&sink), &tr, one, 1, &err) < 0)
                fuzz_fail("tree_report_runs", err.msg);
            fuzz_sink_close(&sink);
        }
        const unsigned char *both[2] = {outcome[0], outcome[1]};
        if (tree_report_runs(fuzz_sink_open(&sink), &tr, both, 2, &err) < 0)
            fuzz_fail("tree_report_runs", err.msg);
        fuzz_sink_close(&sink);
        tree_compare_options o = {.threshold = 0.2, .alpha = 0.05, .samples = 20, .seed = 1};
        const unsigned char *before[1] = {outcome[0]}, *after[1] = {outcome[1]};
        if (tree_compare_runs(fuzz_sink_open(&sink), &tr, before, 1, after, 1, &o, &err) < 0)
            fuzz_fail("tree_compare_runs", err.msg);
        fuzz_sink_close(&sink);
    }
    free(pred);
    free(outcome[0]);
    free(outcome[1]);
    tree_free(&tr);
    return 0;
}
