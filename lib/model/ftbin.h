/* fastText .bin models as untrusted input: the whole layout libfasttext
   0.9.2 reads (magic and version, the arguments, the dictionary, the
   pruned n-gram index, the input and output matrices, dense or
   quantized) is parsed and checked here, in C, before libfasttext sees
   the file. libfasttext checks nothing: a file cut short makes it loop
   forever in the dictionary, an index beyond a matrix fails one of its
   assertions (an abort), and a size from a damaged header makes it
   allocate whatever the header claims. So every count is compared with
   the bytes the file has left before anything relies on it, every index
   libfasttext will compute must fall inside its matrix, and the file must
   end exactly where the output matrix does.

   Bounds beyond those libfasttext needs are generous sanity limits no
   model trained by fastText comes near: at most 10000 dimensions,
   character n-grams up to 64 characters, dictionary entries up to 65536
   bytes, at most 30,000,000 entries (fastText's own vocabulary limit). */
#ifndef TELLS_FTBIN_H
#define TELLS_FTBIN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { FTBIN_MAGIC = 793712314, FTBIN_VERSION = 12, FTBIN_MAX_DIM = 10000 };

/* fastText's enum values, as stored. */
enum { FTBIN_MODEL_CBOW = 1, FTBIN_MODEL_SKIPGRAM, FTBIN_MODEL_SUPERVISED };
enum { FTBIN_LOSS_HS = 1, FTBIN_LOSS_NS, FTBIN_LOSS_SOFTMAX, FTBIN_LOSS_OVA };

/* What a valid model holds, and where its parts start (byte offsets):
   the tests cut and patch files at these places. */
typedef struct ftbin_info {
    int32_t version;
    /* the arguments block, in file order */
    int32_t dim, ws, epoch, min_count, neg, word_ngrams, loss, model, bucket, minn, maxn,
        lr_update_rate;
    double t;
    int32_t maxn_used;         /* maxn as libfasttext uses it: 0 for version 11
                                  supervised models */
    /* the dictionary */
    int32_t entries, nwords, nlabels;
    int64_t ntokens, pruneidx_size;   /* -1: not pruned */
    /* the matrices */
    bool quant_input, quant_output;
    int64_t input_rows, output_rows;
    /* offsets */
    int64_t at_args, at_dict, at_entries, at_pruneidx, at_quant_flag, at_input,
        at_qout_flag, at_output, file_size;
} ftbin_info;

/* The bytes a check read, and where in the file: all of it but the
   contents of its matrices (their numbers and quantizer codes, which
   libfasttext takes as they come, whatever they hold). ft_load has
   libfasttext parse these very bytes, so that a file changed after its
   check cannot feed it other sizes, counts or indices; only the
   matrices' contents are read from the file again. */
typedef struct ftbin_span {
    int64_t at, len;       /* file offset and length */
    size_t tape;           /* where its bytes start in bytes */
} ftbin_span;
typedef struct ftbin_tape {
    unsigned char *bytes;
    size_t n, cap;
    ftbin_span *span;      /* in file order, none touching the next */
    size_t nspans, span_cap;
    int64_t size;          /* of the file checked */
} ftbin_tape;

/* Checks the model at path; 0 with info filled (info may be NULL), or -1
   with err set: an io error when the file cannot be opened or read, a data
   error "PATH: what is wrong" otherwise. */
int ftbin_check(const char *path, ftbin_info *info, tells_error *err);
/* The same for an open file (named name in messages), read from its
   start; the position afterwards is unspecified. */
int ftbin_check_file(FILE *fp, const char *name, ftbin_info *info, tells_error *err);
/* ftbin_check_file keeping in tape (emptied first) the bytes it read;
   free the tape with ftbin_tape_free, whatever the result. */
int ftbin_check_tape(FILE *fp, const char *name, ftbin_info *info, ftbin_tape *tape,
                     tells_error *err);
void ftbin_tape_free(ftbin_tape *tape);

#ifdef __cplusplus
}
#endif

#endif
