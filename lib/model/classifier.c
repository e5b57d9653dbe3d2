#include <config.h>
#include "model/classifier.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fields.h"
#include "model/baseline.h"
#include "model/ftshim.h"
#include "base/lineio.h"
#include "base/number.h"
#include "model/modelcmd.h"
#include "base/utf8.h"

typedef enum { KIND_FASTTEXT, KIND_COMMAND, KIND_PREDICTIONS } classifier_kind;

struct classifier {
    classifier_kind kind;
    char **classes;
    size_t nclasses;
    char *source;          /* file or command, for messages */
    ft_model *ft;
    float *ft_probs;
    char *ft_line;         /* a pair's line with the separator */
    size_t ft_cap;
    model_cmd *cmd;
    size_t answered;       /* answers read so far */
    line_reader pred;      /* KIND_PREDICTIONS */
    bool pred_open;
};

static classifier *new_classifier(classifier_kind kind, const char *source)
{
    classifier *c = calloc(1, sizeof *c);
    if (c) {
        c->kind = kind;
        if (!(c->source = strdup(source))) {
            free(c);
            c = NULL;
        }
    }
    return c;
}

static int set_classes(classifier *c, char *const *classes, size_t n, tells_error *err)
{
    if (n == 0)
        return tells_error_set(err, NULL, 0, "the model has no classes");
    c->classes = calloc(n, sizeof *c->classes);
    if (!c->classes)
        return tells_error_nomem(err, NULL, 0);
    c->nclasses = n;
    for (size_t i = 0; i < n; i++) {
        if (!(c->classes[i] = strdup(classes[i])))
            return tells_error_nomem(err, NULL, 0);
        for (size_t j = 0; j < i; j++)
            if (strcmp(classes[i], classes[j]) == 0)
                return tells_error_set(err, NULL, 0, "class '%s' listed twice", classes[i]);
    }
    return 0;
}

void classifier_abort(classifier *c)
{
    if (!c)
        return;
    for (size_t i = 0; c->classes && i < c->nclasses; i++)
        free(c->classes[i]);
    free(c->classes);
    free(c->source);
    if (c->ft)
        ft_free(c->ft);
    free(c->ft_probs);
    free(c->ft_line);
    model_cmd_abort(c->cmd);
    if (c->pred_open)
        line_reader_close(&c->pred);
    free(c);
}

int classifier_open_fasttext(classifier **out, const char *path, tells_error *err)
{
    classifier *c = new_classifier(KIND_FASTTEXT, path);
    if (!c)
        return tells_error_nomem(err, path, 0);
    if (!(c->ft = ft_load(path, err))) {
        classifier_abort(c);
        return -1;
    }
    size_t n = (size_t)ft_nlabels(c->ft);
    char **names = malloc((n ? n : 1) * sizeof *names);
    c->ft_probs = malloc((n ? n : 1) * sizeof *c->ft_probs);
    if (!names || !c->ft_probs) {
        free(names);
        classifier_abort(c);
        return tells_error_nomem(err, path, 0);
    }
    for (size_t i = 0; i < n; i++)
        names[i] = (char *)ft_label(c->ft, (int)i);
    int rc = set_classes(c, names, n, err);
    free(names);
    if (rc < 0) {
        if (err && !err->file[0])
            snprintf(err->file, sizeof err->file, "%s", path);
        classifier_abort(c);
        return -1;
    }
    *out = c;
    return 0;
}

int classifier_open_command(classifier **out, const char *command, char *const *classes,
                            size_t nclasses, tells_error *err)
{
    classifier *c = new_classifier(KIND_COMMAND, command);
    if (!c)
        return tells_error_nomem(err, NULL, 0);
    if (set_classes(c, classes, nclasses, err) < 0 ||
        model_cmd_start(&c->cmd, command, err) < 0) {
        classifier_abort(c);
        return -1;
    }
    *out = c;
    return 0;
}

int classifier_open_predictions(classifier **out, const char *path, char *const *classes,
                                size_t nclasses, tells_error *err)
{
    classifier *c = new_classifier(KIND_PREDICTIONS, path);
    if (!c)
        return tells_error_nomem(err, path, 0);
    if (set_classes(c, classes, nclasses, err) < 0 ||
        line_reader_open(&c->pred, path, LINE_MAX_DEFAULT, err) < 0) {
        classifier_abort(c);
        return -1;
    }
    c->pred_open = true;
    *out = c;
    return 0;
}

size_t classifier_nclasses(const classifier *c) { return c->nclasses; }
const char *classifier_class(const classifier *c, size_t k) { return c->classes[k]; }

long classifier_find(const classifier *c, const char *name)
{
    for (size_t k = 0; k < c->nclasses; k++)
        if (strcmp(c->classes[k], name) == 0)
            return (long)k;
    return -1;
}

/* Parses one answer; on error, a message in msg. */
static int parse_answer(const classifier *c, char *line, size_t *label, double *prob,
                        char *msg, size_t msglen)
{
    const char *sep = " \t";
    char *save = NULL;
    char *tok = strtok_r(line, sep, &save);
    if (!tok) {
        snprintf(msg, msglen, "empty answer (expected a label)");
        return -1;
    }
    long k = classifier_find(c, tok);
    if (k < 0) {
        snprintf(msg, msglen, "unknown label '%.200s'", tok);
        return -1;
    }
    *label = (size_t)k;
    size_t got = 0;
    while ((tok = strtok_r(NULL, sep, &save))) {
        if (got == c->nclasses) {
            snprintf(msg, msglen, "more than %zu probabilities", c->nclasses);
            return -1;
        }
        if (prob_parse(tok, &prob[got]) < 0) {
            snprintf(msg, msglen, "probability '%.200s' is not a number in [0, 1]", tok);
            return -1;
        }
        got++;
    }
    if (got != 0 && got != c->nclasses) {
        snprintf(msg, msglen, "%zu probabilities for %zu classes", got, c->nclasses);
        return -1;
    }
    if (got != 0 && prob_check(prob, got, msg, msglen) < 0)
        return -1;
    if (got == 0)
        for (size_t j = 0; j < c->nclasses; j++)
            prob[j] = NAN;
    return 0;
}

static int predict_fasttext(classifier *c, const char *line, size_t *label, double *prob,
                            tells_error *err)
{
    const char *text = line;
    const char *tab = strchr(line, '\t');
    if (tab) {
        /* The pair form the baselines train on. */
        size_t need = strlen(line) + sizeof PAIR_SEPARATOR + 2;
        if (ARRAY_RESERVE_MIN(c->ft_line, c->ft_cap, need, 256) < 0)
            return tells_error_nomem(err, NULL, 0);
        snprintf(c->ft_line, need, "%.*s %s %s", (int)(tab - line), line, PAIR_SEPARATOR,
                 tab + 1);
        text = c->ft_line;
    }
    if (ft_predict(c->ft, text, c->ft_probs, err) < 0) {
        if (err && !err->file[0])
            snprintf(err->file, sizeof err->file, "%s", c->source);
        return -1;
    }
    size_t best = 0;
    for (size_t k = 0; k < c->nclasses; k++) {
        prob[k] = c->ft_probs[k];
        if (c->ft_probs[k] > c->ft_probs[best])
            best = k;
    }
    *label = best;
    return 0;
}

int classifier_predict(classifier *c, const char *const *lines, size_t n, size_t *label,
                       double *prob, tells_error *err)
{
    char msg[512];
    if (c->kind == KIND_FASTTEXT) {
        for (size_t i = 0; i < n; i++)
            if (predict_fasttext(c, lines[i], &label[i], prob + i * c->nclasses, err) < 0)
                return -1;
        return 0;
    }
    if (c->kind == KIND_PREDICTIONS) {
        for (size_t i = 0; i < n; i++) {
            char *line;
            size_t len;
            int rc = line_reader_next(&c->pred, &line, &len, err);
            if (rc < 0)
                return -1;
            if (rc == 0) {
                tells_error_set(err, c->pred.name, 0, "%zu predictions for more cases",
                                c->answered);
                tells_error_tag(err, TELLS_E_FEW_ANSWERS, NULL);
                return -1;
            }
            c->answered++;
            if (text_line_check(line, len, c->pred.name, c->pred.lineno, err) < 0)
                return -1;
            if (parse_answer(c, line, &label[i], prob + i * c->nclasses, msg, sizeof msg) < 0)
                return tells_error_set(err, c->pred.name, c->pred.lineno, "%s", msg);
        }
        return 0;
    }
    char **answers = calloc(n ? n : 1, sizeof *answers);
    if (!answers)
        return tells_error_nomem(err, NULL, 0);
    int rc = model_cmd_query(c->cmd, lines, n, answers, err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (text_invalid_offset(answers[i], strlen(answers[i])) != (size_t)-1)
            rc = tells_error_set(err, NULL, 0, "%s: answer %zu: invalid UTF-8",
                                 model_cmd_label(c->cmd), c->answered + i + 1);
        else if (parse_answer(c, answers[i], &label[i], prob + i * c->nclasses, msg,
                              sizeof msg) < 0)
            rc = tells_error_set(err, NULL, 0, "%s: answer %zu: %s", model_cmd_label(c->cmd),
                                 c->answered + i + 1, msg);
    }
    for (size_t i = 0; i < n; i++)
        free(answers[i]);
    free(answers);
    c->answered += n;
    return rc;
}

int classifier_predict_all(classifier *c, const char *const *lines, size_t n, size_t batch,
                           size_t *label, double *prob, tells_error *err)
{
    if (batch == 0)
        batch = n ? n : 1;
    size_t K = c->nclasses;
    /* Without prob, one batch's probabilities are read and dropped. */
    double *scratch = NULL;
    if (!prob && (batch > SIZE_MAX / K || !(scratch = array_new(batch * K, sizeof *scratch))))
        return tells_error_nomem(err, NULL, 0);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i += batch) {
        size_t b = n - i < batch ? n - i : batch;
        rc = classifier_predict(c, lines + i, b, label + i, prob ? prob + i * K : scratch, err);
    }
    free(scratch);
    return rc;
}

int classifier_finish(classifier *c, tells_error *err)
{
    int rc = 0;
    if (c->kind == KIND_COMMAND) {
        rc = model_cmd_finish(c->cmd, err);
        c->cmd = NULL;
    } else if (c->kind == KIND_PREDICTIONS) {
        char *line;
        size_t len;
        int more = line_reader_next(&c->pred, &line, &len, err);
        if (more < 0)
            rc = -1;
        else if (more > 0)
            rc = tells_error_set(err, c->pred.name, c->pred.lineno,
                                 "more predictions than the %zu cases", c->answered);
    }
    classifier_abort(c);
    return rc;
}

void classifier_command_options(classifier *c, const model_cmd_options *o)
{
    if (c->kind == KIND_COMMAND)
        model_cmd_set_options(c->cmd, o);
}

void classifier_expect(classifier *c, size_t total)
{
    if (c->kind == KIND_COMMAND)
        model_cmd_expect(c->cmd, total);
}
