/* Test trees: which tests a model fails (pass tests it gets wrong, fail
   tests whose output it gives), run in batches, and the topic report. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "analysis/testtree.h"

static const char *srcdir(void)
{
    const char *s = getenv("top_srcdir");
    return s && *s ? s : ".";
}

int main(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/run/tree.csv", srcdir());
    test_tree tr;
    tells_error err;
    tells_error_clear(&err);
    CHECK(tree_load(&tr, path, &err) == 0);
    CHECK(tr.n == 6 && tr.skipped == 1);

    /* Outputs 0 0 1 1 0 1, labels pass pass fail pass pass fail. */
    const char *pred[] = {"0", "1", "1", "0", "0", "0"};
    bool failed[6];
    tree_outcomes(&tr, pred, failed);
    static const bool want[6] = {false, true, true, true, false, false};
    CHECK(memcmp(failed, want, sizeof want) == 0);

    /* The same through a model answering from a file, 4 lines a batch. */
    char answers[] = "/tmp/test-testtree.XXXXXX";
    int fd = mkstemp(answers);
    FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
    CHECK(fp != NULL);
    for (size_t i = 0; fp && i < 6; i++)
        fprintf(fp, "%s\n", pred[i]);
    if (fp)
        fclose(fp);
    char *lines[] = {"a", "b", "c", "d", "e", "f"};
    char *classes[] = {"0", "1"};
    classifier *c;
    CHECK(classifier_open_predictions(&c, answers, classes, 2, &err) == 0);
    bool *got = NULL;
    CHECK(tree_failures(&tr, c, lines, 4, &got, &err) == 0);
    CHECK(got && memcmp(got, want, sizeof want) == 0);
    CHECK(classifier_finish(c, &err) == 0);
    free(got);

    /* A file of too few answers: tagged for the program's advice. */
    fp = fopen(answers, "w");
    if (fp) {
        fputs("0\n1\n", fp);
        fclose(fp);
    }
    CHECK(classifier_open_predictions(&c, answers, classes, 2, &err) == 0);
    got = NULL;
    CHECK(tree_failures(&tr, c, lines, 4, &got, &err) < 0);
    CHECK(got == NULL);
    CHECK(err.code == TELLS_E_FEW_ANSWERS);
    CHECK_STR(err.msg, "2 predictions for more cases");
    classifier_abort(c);
    unlink(answers);

    char *buf = NULL;
    size_t len = 0;
    fp = open_memstream(&buf, &len);
    CHECK(tree_report(fp, &tr, want, &err) == 0);
    fclose(fp);
    CHECK_STR(buf, "topic\ttests\tfailures\tfailure_rate\n"
                   "/Negation\t3\t2\t0.666667\n"
                   "/Temporal\t3\t1\t0.333333\n"
                   "(all)\t6\t3\t0.500000\n");
    free(buf);
    tree_free(&tr);
    CHECK_DONE();
}
