/* What the fuzz harnesses share. Each fuzz/fuzz-NAME.c feeds its input
   to one parser of the library through the library's own entry points,
   which read files: the input becomes a file in the harness's own folder
   (fuzz_file), or several (fuzz_split cuts an input at separator lines).

   A harness is built two ways: with libFuzzer by fuzz/run, where its
   entry point is LLVMFuzzerTestOneInput, and into fuzz/replay with the
   normal compiler for make check, where it is fuzz_NAME and the replay
   program runs saved inputs through it (FUZZ_REPLAY defined). */
#ifndef TELLS_FUZZ_H
#define TELLS_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

/* Every harness, by its name in C (fuzz/fuzz-NAME.c with '_' for '-'). */
#define FUZZ_HARNESSES(X) \
    X(corpus_jsonl) X(corpus_csv) X(corpus_tsv) X(prepared) X(idfile) X(npy) \
    X(vectors) X(ftbin) X(mesh) X(mesh_terms) X(heuristics) X(templates) X(testtree) X(pred) \
    X(contrast) X(numbers) X(counts) X(prior) X(dynamics) X(phrases) X(aflite_splits) X(answers) \
    X(ertest) X(manifest) X(pairs) X(extpred) X(leaks)

#ifdef FUZZ_REPLAY
#define FUZZ_DECLARE(name) int fuzz_##name(const uint8_t *data, size_t size);
FUZZ_HARNESSES(FUZZ_DECLARE)
#define FUZZ_TARGET(name) int fuzz_##name(const uint8_t *data, size_t size)
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#define FUZZ_TARGET(name) int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
#endif

/* Writes size bytes to the file name (no '/') in the harness's folder
   and returns its path, which stays valid until exit. The folder is
   $FUZZ_TMPDIR, else a new one in /dev/shm (or temp_dir()), removed at
   exit. Aborts when the file cannot be written: the harness, not the
   library, failed. */
const char *fuzz_file(const char *name, const void *data, size_t size);
/* The path of the file name in that folder, written or not. */
const char *fuzz_path(const char *name);

/* A part of an input: inputs made of several files hold them in order,
   each ending before a line "=====" (the separator line itself belongs
   to no part), so that seeds are files joined with such lines. */
#define FUZZ_SEPARATOR "=====\n"
typedef struct fuzz_part {
    const uint8_t *data;
    size_t size;
} fuzz_part;

/* Cuts data into at most max parts (the last one takes the rest,
   separators included); returns how many. */
size_t fuzz_split(const uint8_t *data, size_t size, fuzz_part *parts, size_t max);
/* fuzz_split, each part written to a file: a.tsv, b.tsv, ... (max <= 26);
   files[k] is part k's path. */
size_t fuzz_split_files(const uint8_t *data, size_t size, fuzz_part *parts, char **files,
                        size_t max);
/* The first line of a part (without its newline) copied into buf as a
   string, cut at size - 1 bytes; *rest gets what follows it. */
void fuzz_first_line(const fuzz_part *p, char *buf, size_t size, fuzz_part *rest);

/* Checks what the library promises about a failure: rc < 0 comes with
   an error that has a kind and a message, and the message, formatted
   as "FILE:LINE: msg", is one clean line: no control character but tabs
   (data quoted in a message could otherwise break the line or act on
   the terminal). Aborts with a report otherwise, so that libFuzzer
   counts it as a finding. Returns rc. $FUZZ_MESSAGES=lax skips the
   check of control characters; $FUZZ_SHOW_ERRORS prints every error
   (to see how far seeds go). */
int fuzz_check(int rc, const tells_error *err, const char *what);
/* Aborts with "fuzz: finding: WHAT: WHY" (a broken promise of the
   library). */
void fuzz_fail(const char *what, const char *why) __attribute__((noreturn));

/* A stream that collects what is written to it (open_memstream), for
   the writers; fuzz_sink_close frees what it collected. */
typedef struct fuzz_sink {
    FILE *fp;
    char *buf;
    size_t len;
} fuzz_sink;

FILE *fuzz_sink_open(fuzz_sink *s);
void fuzz_sink_close(fuzz_sink *s);

#endif
