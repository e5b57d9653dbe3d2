/* --redact: what a redacted study leaves out of its folder, and the leak
   check it runs on the folder before study_run returns (text/redact.h). */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "study/core.h"

/* Files that hold the corpus's text or a row per example derived from
   it, written for the steps that read them and removed before the
   check: the prepared corpus and batches, the heuristics' pairs (their
   concepts and cues), the hypotheses' averaged vectors. */
static bool private_file(const char *name)
{
    static const char *const names[] = {"prepared.tsv", "heur-pairs.tsv", "hypothesis.npy",
                                        "batch.tsv", NULL};
    for (size_t i = 0; names[i]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    size_t n = strlen(name);
    return strncmp(name, "batch-", 6) == 0 && n > 10 && strcmp(name + n - 4, ".tsv") == 0;
}

static int remove_private(const study *s, tells_error *err)
{
    DIR *d = opendir(s->dir);
    if (!d)
        return tells_error_io(err, s->dir, 0, "cannot open the folder: %s", strerror(errno));
    struct dirent *de;
    int rc = 0;
    while (rc == 0 && (de = readdir(d))) {
        if (!private_file(de->d_name))
            continue;
        char *p = study_path(s, de->d_name, err);
        if (!p) {
            rc = -1;
            break;
        }
        if (unlink(p) != 0)
            rc = tells_error_io(err, p, 0, "cannot remove: %s", strerror(errno));
        free(p);
    }
    closedir(d);
    return rc;
}

typedef struct first {
    leak_finding f;
    bool found;
} first;

static bool keep_first(const leak_finding *f, void *user)
{
    first *fi = user;
    fi->f = *f;
    fi->found = true;
    return false;
}

int study_redaction_check(study *s, tells_error *err)
{
    const study_config *c = s->cfg;
    leak_index *ix = leak_index_new(REDACT_NGRAM, c->min_examples, err);
    if (!ix)
        return -1;
    /* The files as given, so that a finding names the line of the corpus
       that holds it; the prepared corpus when there is no such file (a
       prepared TSV, standard input). */
    bool from_data = c->prepared != NULL;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < c->ninputs; i++) {
        if (strcmp(c->inputs[i].path, "-") == 0)
            from_data = true;
        else
            rc = leak_index_add_corpus(ix, c->inputs[i].path, c->prep.format, &c->prep.fields,
                                       c->prep.skip_invalid, err);
    }
    if (rc == 0 && from_data)
        rc = leak_index_add_dataset(ix, &s->data, err);
    for (size_t i = 0; rc == 0 && i < c->nbatches; i++)
        rc = leak_index_add_corpus(ix, c->batches[i], c->prep.format, &c->prep.fields,
                                   c->prep.skip_invalid, err);
    /* Split names and labels are not corpus text. */
    for (size_t i = 0; rc == 0 && i < vocab_size(s->data.splits); i++)
        rc = leak_index_allow(ix, vocab_str(s->data.splits, i), err);
    for (size_t i = 0; rc == 0 && i < vocab_size(s->data.labels); i++)
        rc = leak_index_allow(ix, vocab_str(s->data.labels, i), err);
    /* The names of the files read (run.json and the page list them). */
    for (size_t i = 0; rc == 0 && i < s->run.ninputs; i++)
        rc = leak_index_allow(ix, s->run.inputs[i].path, err);
    const char *allowed[] = {c->name, s->given ? s->given_name : NULL,
                             s->given_pair ? s->pair_name : NULL};
    for (size_t i = 0; rc == 0 && i < sizeof allowed / sizeof *allowed; i++)
        if (allowed[i])
            rc = leak_index_allow(ix, allowed[i], err);
    if (rc == 0)
        rc = remove_private(s, err);
    first fi = {.found = false};
    if (rc == 0 && leak_scan_path(ix, s->dir, keep_first, &fi, NULL, err) < 0)
        rc = -1;
    leak_index_free(ix);
    if (rc < 0 || !fi.found)
        return rc;
    char what[2048];
    leak_finding_text(&fi.f, what, sizeof what);
    size_t dl = strlen(s->dir);
    const char *rel = strncmp(fi.f.file, s->dir, dl) == 0 && fi.f.file[dl] == '/'
                          ? fi.f.file + dl + 1
                          : fi.f.file;
    return tells_error_set(err, NULL, 0,
                           "the redacted study failed its leak check: %s, line %ld: %s; the "
                           "folder was not written (please report this)",
                           rel, fi.f.line, what);
}
