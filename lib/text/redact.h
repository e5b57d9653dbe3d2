/* Outputs that can be shared under a data-use agreement (--redact).

   Three pieces:
   - the gate: which tokens an output may name. A token may appear only
     when it occurs in examples of at least K different premises (a
     premise and all its hypotheses are one clinical note, so a premise
     shared by ten pairs counts once);
   - keyed ids: an example's id replaced by HMAC-SHA256(key, id), the
     first 96 bits in hex, so that whoever holds the key can map them
     back and nobody else can;
   - the leak check: an index of a corpus's sentences (every word n-gram,
     and each word's count of premises) and a scan of files for them.

   Words, for the leak check: maximal runs of ASCII letters and digits and
   of multi-byte UTF-8 characters other than punctuation, symbols and
   spaces (Latin-1's, U+2000 to U+2BFF, CJK's, full-width ones, emoji),
   soft hyphens and zero-width characters ignored inside them, letters
   lowercased as the tokenizer lowercases them (ASCII and Latin-1); so
   "Patient's heart_rate" is the words patient, s, heart, rate, whatever
   tokenizer prepared the corpus. */
#ifndef TELLS_REDACT_H
#define TELLS_REDACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/dataset.h"
#include "base/error.h"
#include "base/u64map.h"
#include "base/vocab.h"
#include "text/corpus.h"

enum {
    REDACT_MIN_EXAMPLES = 10,   /* --min-examples's default */
    REDACT_NGRAM = 4,           /* the leak check's n-grams */
    REDACT_ID_HEX = 24,         /* hex digits of a keyed id (96 bits) */
    REDACT_KEY_MIN = 16         /* fewest bytes of a key file */
};

/* What an output shows in place of a withheld token. */
#define REDACT_WITHHELD "[withheld]"

/* ---- premises ---- */

/* For each key (a token, a word, a descriptor), the distinct premises it
   occurs with: the gate's, the leak check's and tells-concepts' count. */
typedef struct premise_tally {
    vocab *premises;           /* the premises seen, by text */
    size_t alone;              /* examples without a premise */
    u64map seen;               /* (key, group) pairs counted */
    u64map counts;             /* key -> groups */
} premise_tally;

int premise_tally_init(premise_tally *t);
void premise_tally_free(premise_tally *t);
/* An example's group: its premise, by text; a group of its own when it
   has none (NULL, empty or CORPUS_NO_PREMISE). -1 when out of memory. */
long premise_tally_group(premise_tally *t, const char *premise, size_t len);
/* Counts key in group, once. -1 when out of memory. */
int premise_tally_add(premise_tally *t, uint64_t key, long group);
size_t premise_tally_count(const premise_tally *t, uint64_t key);

/* ---- the gate ---- */

typedef struct redact_gate redact_gate;

/* The premises of d in which each token (as prepared: whitespace-separated)
   occurs, in the premise or in a hypothesis of that premise; tokens of
   fewer than k premises are withheld. */
redact_gate *redact_gate_new(const dataset *d, size_t k, tells_error *err);
/* More examples (a batch): a premise of d already seen is the same
   premise. */
int redact_gate_add(redact_gate *g, const dataset *d, tells_error *err);
void redact_gate_free(redact_gate *g);
/* Whether the token (len bytes) may be shown: true when g is NULL (no
   redaction); never for a token of REDACT_NGRAM words or more (a merged
   phrase), which the leak check would take for a run of the corpus. */
bool redact_gate_ok(const redact_gate *g, const char *tok, size_t len);
/* The token as an output shows it: itself, or REDACT_WITHHELD. */
const char *redact_gate_name(const redact_gate *g, const char *tok, size_t len);
/* Whether every token of a whitespace-separated text may be shown. */
bool redact_gate_text_ok(const redact_gate *g, const char *text);
size_t redact_gate_k(const redact_gate *g);
/* The tie-break of tables sorted by a statistic, then by token: a token
   shown before a withheld one (so that a withheld row's place among tied
   rows does not tell where its name would sort), then in byte order.
   g NULL: byte order. */
int redact_token_cmp(const redact_gate *g, const vocab *tokens, size_t a, size_t b);

/* ---- keyed ids ---- */

typedef struct redact_key {
    uint8_t *bytes;
    size_t len;
} redact_key;

/* The key file's bytes, all of them: at least REDACT_KEY_MIN, and the
   file must not be empty (a newline at the end is part of the key). */
int redact_key_load(redact_key *k, const char *path, tells_error *err);
void redact_key_free(redact_key *k);
/* out gets REDACT_ID_HEX hex digits and a NUL. */
void redact_id_hash(const redact_key *k, const char *id, size_t len,
                    char out[REDACT_ID_HEX + 1]);

/* ---- the leak check ---- */

typedef struct leak_index leak_index;

/* n: the n-grams' length (2 to 32); k: the fewest premises of a word
   that may be shown. */
leak_index *leak_index_new(size_t n, size_t k, tells_error *err);
void leak_index_free(leak_index *ix);
/* One example: its premise (NULL or "" when none) and hypothesis, and
   where it came from (kept for the messages). */
int leak_index_add(leak_index *ix, const char *premise, size_t premise_len,
                   const char *hypothesis, size_t hypothesis_len, const char *file,
                   long line, tells_error *err);
/* Every example of a corpus file (JSONL, CSV or TSV as tells-prep reads
   them, or a prepared TSV: fmt FORMAT_TSV with the prepared TSV's
   columns, found by its header whatever fmt says). The labels, split
   names and the file's path are allowed words (leak_index_allow);
   skip_invalid: malformed records are left out, not an error. */
int leak_index_add_corpus(leak_index *ix, const char *path, corpus_format fmt,
                          const corpus_fields *fields, bool skip_invalid, tells_error *err);
/* A prepared dataset already in memory. */
int leak_index_add_dataset(leak_index *ix, const dataset *d, tells_error *err);
/* The words of text are not corpus text where they appear in an output
   (the corpus's labels and split names, its files' paths, a model's
   name): never reported as rare words. */
int leak_index_allow(leak_index *ix, const char *text, tells_error *err);
/* The premises a word (already lowercased, len bytes) occurs in. */
size_t leak_index_premises(const leak_index *ix, const char *word, size_t len);

typedef enum { LEAK_NGRAM, LEAK_RARE_WORD } leak_kind;

typedef struct leak_finding {
    leak_kind kind;
    char file[1024];      /* the file scanned, as given */
    long line;            /* its line (1-based) */
    char fragment[512];   /* the n-gram or the word, as words joined by spaces */
    size_t premises;      /* LEAK_RARE_WORD: the word's premises */
    size_t k;             /* LEAK_RARE_WORD: the fewest that may be shown */
    char source[1024];    /* LEAK_NGRAM: the corpus file of a sentence holding it */
    long source_line;
} leak_finding;

/* Scans len bytes of a file's contents, named path (its extension says
   how it is read: .html, .htm and .svg as markup, their text, comments,
   <style> and <script> and the title, alt and aria-label attributes,
   with character references decoded; a file with a NUL byte as its runs of 4 or more
   printable bytes and of printable 2- and 4-byte code units (UTF-16,
   NumPy); anything else as text, each tab-separated field of a
   line on its own). An n-gram never spans two fields, two text nodes or
   two lines. Numbers alone are never a leak: an n-gram of numbers only
   is skipped, and so is a word of digits. Neither is a word tells itself
   writes (redact_own_word). 1 with the first finding in *f, 0 when
   clean. */
int leak_scan_buffer(const leak_index *ix, const char *path, const char *buf, size_t len,
                     leak_finding *f);
/* A file, read whole: 1, 0, or -1 on a read error. */
int leak_scan_file(const leak_index *ix, const char *path, leak_finding *f,
                   tells_error *err);
/* Every file under a folder (or the one file path names), in byte order
   of their paths, links not followed (one that is neither a file nor a
   folder is refused): found is called with each file's first finding
   and stops the scan by returning false. The number of files with a
   finding, or -1. */
typedef bool (*leak_found_fn)(const leak_finding *f, void *user);
long leak_scan_path(const leak_index *ix, const char *path, leak_found_fn found, void *user,
                    long *files, tells_error *err);
/* One line saying what the finding is, without the file (for
   "FILE:LINE: ..."). */
void leak_finding_text(const leak_finding *f, char *buf, size_t size);

/* Whether a word is one that tells's own prose, markup and figures use
   (the words of the string literals of its sources, gathered when it is
   built, and gnuplot's): those are not corpus text when they appear in
   an output, however rare in the corpus. */
bool redact_own_word(const char *word, size_t len);

#endif
