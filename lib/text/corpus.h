/* Readers for NLI corpora as distributed: MedNLI/SNLI-style JSONL
   (yajl) and CSV/TSV with a header row (libcsv). Both yield raw
   examples with the line they came from; tells-prep turns them into the
   prepared TSV. */
#ifndef TELLS_CORPUS_H
#define TELLS_CORPUS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

typedef enum { FORMAT_AUTO, FORMAT_JSONL, FORMAT_CSV, FORMAT_TSV } corpus_format;

/* Names of the fields (JSON keys or CSV header names). */
typedef struct corpus_fields {
    const char *id;          /* default "pairID"; may be absent in the data */
    const char *label;       /* default "gold_label" */
    const char *premise;     /* default "sentence1" */
    const char *hypothesis;  /* default "sentence2" */
} corpus_fields;

extern const corpus_fields CORPUS_FIELDS_DEFAULT;

/* A premise field named "" means the corpus has none (single-text
   classification, such as ADE posts): every premise reads as this. */
#define CORPUS_NO_PREMISE "-"

typedef struct raw_example {
    const char *id;          /* NULL when the record has no id */
    const char *label, *premise, *hypothesis;  /* NUL-terminated UTF-8 */
    size_t id_len, label_len, premise_len, hypothesis_len;
    long lineno;             /* line where the record starts */
    bool no_premise;         /* the corpus has none: premise is "-" */
} raw_example;

typedef struct corpus_reader corpus_reader;

/* Parses "jsonl", "csv", "tsv" or "auto"; -1 otherwise. */
int corpus_format_parse(const char *name, corpus_format *fmt);
/* The format auto-detection picks for a path (by its extension). */
corpus_format corpus_format_guess(const char *path);

int corpus_open(corpus_reader **r, const char *path, corpus_format fmt,
                const corpus_fields *fields, size_t max_line, tells_error *err);
/* 1 with an example, 0 at end, -1 on error. After an error that only
   concerns one record (a malformed line, a missing field),
   corpus_error_is_local() is true and reading may go on with the next
   record. The example stays valid until the next call. */
int corpus_next(corpus_reader *r, raw_example *ex, tells_error *err);
bool corpus_error_is_local(const corpus_reader *r);
/* Number of records read so far, good or bad (blank lines excluded). */
long corpus_records(const corpus_reader *r);
void corpus_close(corpus_reader *r);

#endif
