/* Output that is either standard output or a file written atomically:
   data goes to a temporary file beside the target, renamed over it only
   when everything was written, so a failure never leaves a half-written
   file and never overwrites good data. */
#ifndef TELLS_OUTFILE_H
#define TELLS_OUTFILE_H

#include <stdio.h>

#include "base/error.h"

typedef struct out_file {
    FILE *fp;
    char *path;      /* NULL for standard output */
    char *tmp_path;
} out_file;

/* path NULL or "-" means standard output. */
int out_open(out_file *o, const char *path, tells_error *err);
/* Flushes, closes and renames into place. */
int out_commit(out_file *o, tells_error *err);
/* Discards a temporary file; safe to call after commit. */
void out_abort(out_file *o);

/* Opens path, lets write fill it, and commits; on failure nothing is
   left behind. write returns -1 on failure. */
typedef int (*out_writer)(FILE *fp, void *ctx);
int out_write(const char *path, out_writer write, void *ctx, tells_error *err);

#endif
