/* Test trees: which tests a model fails (fail tests whose output it
   gives; pass tests it gets wrong under the flip rule, and under
   AdaTest's rule rows of another output unscored), run in batches; the
   paper-era format with invariance tests; the topic report, rolled up
   into parent topics and pooled over runs. */
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

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    CHECK(fp && fputs(text, fp) >= 0);
    if (fp)
        fclose(fp);
}

/* The format of the AdaTest paper's time: type and values; invariance
   tests take two inputs; topics roll up into their parents. */
static void paper_format(void)
{
    char path[] = "/tmp/test-testtree-paper.XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    write_text(path, ",topic,type,value1,value2,value3,author,description\n"
                     "a,/Neg,topic_marker,,,,,\n"
                     "b,/Neg/Simple,{} should output {},not good,0,,me,\n"
                     "c,/Neg/Simple,{} should not output {},not bad,0,,me,\n"
                     "d,/Neg,{} should have the same output as {},good,great,,me,\n"
                     "e,/Other,{} should be invertable.,x,,,me,\n"
                     "f,/Other,{} should output {},fine,1,,me,\n");
    test_tree tr;
    tells_error err;
    CHECK(tree_load(&tr, path, &err) == 0);
    CHECK(tr.paper_format && tr.n == 4 && tr.skipped == 2 && tr.ninputs == 5);
    CHECK(tr.t[2].kind == TREE_SAME_OUTPUT && tr.t[2].output == NULL &&
          strcmp(tr.t[2].input2, "great") == 0 && tr.t[2].first == 2);
    CHECK_STR(tr.inputs[3], "great");
    /* Inputs: not good, not bad, good, great, fine. */
    const char *pred[] = {"0", "0", "1", "0", "1"};
    unsigned char o[4];
    tree_judge(&tr, pred, TREE_CHANGED_SKIP, o);
    CHECK(o[0] == TREE_PASS && o[1] == TREE_FAIL && o[2] == TREE_FAIL && o[3] == TREE_PASS);
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    const unsigned char *runs[1] = {o};
    CHECK(tree_report_runs(fp, &tr, runs, 1, &err) == 0);
    fclose(fp);
    CHECK_STR(buf, "topic\ttests\tfailures\tfailure_rate\tchanged\n"
                   "/Neg\t3\t2\t0.666667\t0\n"
                   "/Neg/Simple\t2\t1\t0.500000\t0\n"
                   "/Other\t1\t0\t0.000000\t0\n"
                   "(all)\t4\t2\t0.500000\t0\n");
    free(buf);
    tree_free(&tr);

    /* An invariance test without its second input. */
    write_text(path, "topic,type,value1,value2\n/a,{} should have the same output as {},x,\n");
    CHECK(tree_load(&tr, path, &err) < 0 && err.line == 2);
    CHECK_STR(err.msg, "empty value2");
    write_text(path, "topic,type,value1,value2\n/a,topic_marker,,\n");
    CHECK(tree_load(&tr, path, &err) < 0);
    CHECK_STR(err.msg, "no tests of a type tells runs (should output, should not output, "
                       "should have the same output as)");
    write_text(path, "topic,type,value1\n");
    CHECK(tree_load(&tr, path, &err) < 0);
    CHECK_STR(err.msg, "no column named 'value2' in the header");
    unlink(path);
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
    CHECK(tr.ninputs == 6 && !tr.paper_format);
    const char *pred[] = {"0", "1", "1", "0", "0", "0"};
    unsigned char flip[6], skip[6];
    tree_judge(&tr, pred, TREE_CHANGED_FLIP, flip);
    enum { P = TREE_PASS, F = TREE_FAIL, C = TREE_CHANGED };
    static const unsigned char want[6] = {P, F, F, F, P, P};
    CHECK(memcmp(flip, want, sizeof want) == 0);
    /* AdaTest: a row whose output the model does not give is unscored. */
    tree_judge(&tr, pred, TREE_CHANGED_SKIP, skip);
    static const unsigned char want_skip[6] = {P, C, F, C, P, C};
    CHECK(memcmp(skip, want_skip, sizeof want_skip) == 0);

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
    unsigned char *got = NULL;
    CHECK(tree_failures(&tr, c, lines, 4, TREE_CHANGED_FLIP, &got, &err) == 0);
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
    CHECK(tree_failures(&tr, c, lines, 4, TREE_CHANGED_FLIP, &got, &err) < 0);
    CHECK(got == NULL);
    CHECK(err.code == TELLS_E_FEW_ANSWERS);
    CHECK_STR(err.msg, "2 predictions for more cases");
    classifier_abort(c);
    unlink(answers);

    char *buf = NULL;
    size_t len = 0;
    fp = open_memstream(&buf, &len);
    const unsigned char *runs[2] = {want, want_skip};
    CHECK(tree_report_runs(fp, &tr, runs, 1, &err) == 0);
    fclose(fp);
    CHECK_STR(buf, "topic\ttests\tfailures\tfailure_rate\tchanged\n"
                   "/Negation\t3\t2\t0.666667\t0\n"
                   "/Temporal\t3\t1\t0.333333\t0\n"
                   "(all)\t6\t3\t0.500000\t0\n");
    free(buf);
    /* Two runs pooled: failures over the scored runs of each test. */
    fp = open_memstream(&buf, &len);
    CHECK(tree_report_runs(fp, &tr, runs, 2, &err) == 0);
    fclose(fp);
    CHECK_STR(buf, "topic\ttests\tfailures\tfailure_rate\tchanged\n"
                   "/Negation\t3\t3\t0.600000\t1\n"
                   "/Temporal\t3\t1\t0.250000\t2\n"
                   "(all)\t6\t4\t0.444444\t3\n");
    free(buf);
    tree_free(&tr);

    paper_format();
    CHECK_DONE();
}
