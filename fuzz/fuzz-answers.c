/* Answers of a model, as tells-run --predictions reads them from a file
   and from a model process (model/classifier.h): "LABEL" or "LABEL P1
   ... PK" per line, for as many cases as the file has lines (at most
   256) and for three cases, in batches of two. Probabilities accepted
   must be one distribution (each in [0, 1], summing to 1). */
#include <config.h>

#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "base/number.h"
#include "model/classifier.h"

enum { MAX_CASES = 256 };

static void answer(const char *path, size_t n)
{
    static char *const classes[3] = {"entailment", "neutral", "contradiction"};
    static const char *const lines[MAX_CASES] = {"a case"};
    size_t label[MAX_CASES];
    double prob[MAX_CASES * 3];
    classifier *c;
    tells_error err;
    tells_error_clear(&err);
    if (fuzz_check(classifier_open_predictions(&c, path, classes, 3, &err), &err,
                   "classifier_open_predictions") < 0)
        return;
    const char *cases[MAX_CASES];
    for (size_t i = 0; i < n; i++)
        cases[i] = lines[0];
    if (fuzz_check(classifier_predict_all(c, cases, n, 2, label, prob, &err), &err,
                   "classifier_predict") < 0) {
        classifier_abort(c);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (label[i] >= 3)
            fuzz_fail("classifier_predict", "a label out of range");
        const double *p = prob + i * 3;
        if (isnan(p[0]) && isnan(p[1]) && isnan(p[2]))
            continue;   /* a label alone */
        for (size_t k = 0; k < 3; k++)
            if (!(p[k] >= 0 && p[k] <= 1))
                fuzz_fail("classifier_predict", "a probability out of [0, 1]");
        if (!(fabs(p[0] + p[1] + p[2] - 1) <= PROB_SUM_TOLERANCE))
            fuzz_fail("classifier_predict", "probabilities that do not sum to 1");
    }
    fuzz_check(classifier_finish(c, &err), &err, "classifier_finish");
}

FUZZ_TARGET(answers)
{
    const char *path = fuzz_file("answers.txt", data, size);
    size_t lines = 0;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    if (size > 0 && data[size - 1] != '\n')
        lines++;
    answer(path, lines < MAX_CASES ? lines : MAX_CASES);
    answer(path, 3);
    return 0;
}
