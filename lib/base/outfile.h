/* Output that is either standard output or a file written atomically:
   data goes to a temporary file beside the target, renamed over it only
   when everything was written (and synced), so a failure never leaves a
   half-written file and never overwrites good data. The temporary file
   is registered (base/tempfile.h) so that a signal removes it.

   What a path names decides how it is written, as GNU sort -o does:
   - a new or regular file: replaced atomically, keeping its mode (and
     owner, when the writer may give it);
   - a symbolic link: followed; the file it names is replaced and the
     link stays;
   - a character or block device, a FIFO or a socket, or a descriptor
     (/dev/stdout, /dev/fd/N, /proc/self/fd/N): written in place, never
     renamed over (so -o /dev/null stays the device, and a write error on
     /dev/full is reported);
   - a directory, or a regular file without write permission (for root
     too: a read-only file is one somebody meant to keep): refused. */
#ifndef TELLS_OUTFILE_H
#define TELLS_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "base/error.h"

typedef struct out_file {
    FILE *fp;
    char *path;      /* as given, for messages; NULL for standard output */
    char *target;    /* the file to replace (links followed), or NULL */
    char *tmp_path;  /* NULL when written in place */
} out_file;

/* Follows the symbolic links of path to the file they name (which may
   not exist yet), as out_open does; the caller frees it. *direct is set
   when a link stands for a descriptor (/dev/stdout, /proc/self/fd/N).
   NULL with errno set on failure (ELOOP, ENOMEM, ...). */
char *out_resolve_links(const char *path, bool *direct);

/* path NULL or "-" means standard output. */
int out_open(out_file *o, const char *path, tells_error *err);
/* Flushes, syncs, closes and renames into place. */
int out_commit(out_file *o, tells_error *err);
/* Discards a temporary file; safe to call after commit. */
void out_abort(out_file *o);

/* The process's umask, read once (umask(2) can only be read by setting
   it, which threads writing files at once would race on): the mode a
   plain create or mkdir gives is 0666 or 0777 without it. */
mode_t out_umask(void);

/* Opens path, lets write fill it, and commits; on failure nothing is
   left behind. write returns -1 on failure, with err set (or, when it
   leaves err clear, a write error on path is reported). */
typedef int (*out_writer)(FILE *fp, void *ctx, tells_error *err);
int out_write(const char *path, out_writer write, void *ctx, tells_error *err);

/* For writers: 0, or -1 with a write error (naming no file: out_write
   names it) when fp is in error. */
int out_status(FILE *fp, tells_error *err);

/* Several outputs of one run, committed together at its end: a failure
   before that leaves none of them written, and so does a write error in
   the commit (every output is flushed and synced before the first is
   renamed into place; only a failing rename, after the checks out_open
   made, can leave the earlier ones replaced). */
enum { OUT_SET_MAX = 8 };
typedef struct out_set {
    out_file f[OUT_SET_MAX];
    size_t n;
} out_set;

/* Opens one more output (out_open); NULL with err set on failure. */
FILE *out_set_open(out_set *s, const char *path, tells_error *err);
/* Writes out every output (standard output and devices included), then
   renames each file into place in order: a write error in any, a closed
   pipe among them, leaves every old file; after a failure the rest are
   discarded. */
int out_set_commit(out_set *s, tells_error *err);
void out_set_abort(out_set *s);

#endif
