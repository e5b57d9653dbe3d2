/* The body of the three corpus harnesses (JSONL, CSV, TSV): the reader
   with several field settings, then tells-prep's whole path, whose
   output must read back as a prepared TSV with as many rows as it says
   it wrote. Included by fuzz-corpus-*.c only. */
#ifndef TELLS_FUZZ_CORPUS_READ_H
#define TELLS_FUZZ_CORPUS_READ_H

#include <string.h>

#include "fuzz.h"
#include "base/prepared.h"
#include "base/utf8.h"
#include "text/corpus.h"
#include "text/prep.h"

static void fuzz_corpus_field(const char *what, const char *s, size_t len)
{
    if (!s)
        return;
    if (s[len] != '\0' || memchr(s, '\0', len))
        fuzz_fail(what, "a field is not the NUL-terminated string of its length");
    if (utf8_invalid_offset(s, len) != (size_t)-1)
        fuzz_fail(what, "a field is not valid UTF-8");
}

static void fuzz_corpus_read(const char *path, corpus_format fmt, const corpus_fields *fields,
                             size_t max_line, size_t size)
{
    corpus_reader *r;
    tells_error err;
    tells_error_clear(&err);
    if (fuzz_check(corpus_open(&r, path, fmt, fields, max_line, &err), &err,
                   "corpus_open") < 0)
        return;
    raw_example ex;
    int rc;
    size_t calls = 0;
    while ((rc = corpus_next(r, &ex, &err)) != 0) {
        /* Each call consumes a line at least (or ends). */
        if (++calls > size + 2)
            fuzz_fail("corpus_next", "no progress");
        if (fuzz_check(rc, &err, "corpus_next") < 0) {
            if (!corpus_error_is_local(r))
                break;
            continue;
        }
        if (!ex.label || !ex.premise || !ex.hypothesis)
            fuzz_fail("corpus_next", "an example without a label or text");
        fuzz_corpus_field("corpus_next id", ex.id, ex.id_len);
        fuzz_corpus_field("corpus_next label", ex.label, ex.label_len);
        fuzz_corpus_field("corpus_next premise", ex.premise, ex.premise_len);
        fuzz_corpus_field("corpus_next hypothesis", ex.hypothesis, ex.hypothesis_len);
    }
    corpus_close(r);
}

typedef struct fuzz_prep_count {
    long written;
} fuzz_prep_count;

static void fuzz_prep_report(const prep_input *in, const prep_file_stats *st, void *user)
{
    (void)in;
    ((fuzz_prep_count *)user)->written += st->written;
}

static void fuzz_corpus_prep(const char *path, corpus_format fmt)
{
    prep_options opt = {.format = fmt, .fields = CORPUS_FIELDS_DEFAULT,
                        .skip_invalid = true, .max_line = LINE_MAX_DEFAULT};
    prep_input in = {"train", path};
    const char *out = fuzz_path("prepared.tsv");
    fuzz_prep_count count = {0};
    tells_error err;
    tells_error_clear(&err);
    if (fuzz_check(prep_run(&opt, &in, 1, out, fuzz_prep_report, &count, &err), &err,
                   "prep_run") < 0)
        return;
    prepared_reader pr;
    if (prepared_open(&pr, out, false, &err) < 0)
        fuzz_fail("prep_run", err.msg);
    prepared_row row;
    long rows = 0;
    int rc;
    while ((rc = prepared_next(&pr, &row, &err)) == 1)
        rows++;
    prepared_close(&pr);
    if (rc < 0) {
        fprintf(stderr, "fuzz: prepared output: %s:%ld: %s\n", err.file, err.line, err.msg);
        fuzz_fail("prep_run", "its output does not read back");
    }
    if (rows != count.written)
        fuzz_fail("prep_run", "its output has not the rows it reported");
}

/* Reads the input as a corpus in format fmt, from a file named name. */
static void fuzz_corpus(const uint8_t *data, size_t size, const char *name,
                        corpus_format fmt)
{
    static const corpus_fields prepared_like = {"id", "label", "premise", "hypothesis"};
    static const corpus_fields no_premise = {"id", "label", "", "text"};
    const char *path = fuzz_file(name, data, size);
    fuzz_corpus_read(path, fmt, NULL, 0, size);
    fuzz_corpus_read(path, fmt, &prepared_like, 0, size);
    fuzz_corpus_read(path, fmt, &no_premise, 64, size);
    fuzz_corpus_prep(path, fmt);
}

#endif
