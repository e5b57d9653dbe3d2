/* The files one run will read and write, checked before any work: no
   output may be the same file as an input, or as another output.

   A program lists every path it will read (io_input) and every path it
   will write (io_output; io_output_dir for a folder it replaces), each
   with the role the user knows it by (an option, "FILE", "the MeSH tree
   file"), then calls io_plan_check once, before it reads or writes
   anything. Two paths are the same file when they name the same device
   and inode, whatever links, "." and ".." lead there (hard links too);
   a file that does not exist yet is the same as another one when both
   would be created under the same name in the same folder (links
   followed, as base/outfile.h follows them). An output folder also
   must not hold an input, at any depth.

   Left out of the check, keeping their documented behaviour: paths that
   name no regular file (devices such as /dev/null, FIFOs, sockets) and
   paths whose folder does not exist (opening them fails later with its
   own message). "-" is standard input or output: it takes part when it
   is a regular file (a shell's "< in.tsv" or "> in.tsv"). */
#ifndef TELLS_IOPLAN_H
#define TELLS_IOPLAN_H

#include <stdbool.h>
#include <sys/stat.h>

#include "base/error.h"

typedef struct io_entry io_entry;
typedef struct io_plan {
    io_entry *e;
    size_t n, cap;
    int nomem;          /* an entry could not be added */
    char *refused;      /* a role that cannot be standard output */
} io_plan;

void io_plan_init(io_plan *p);
/* Roles and paths are copied; a NULL path adds nothing. */
void io_input(io_plan *p, const char *role, const char *path);
void io_output(io_plan *p, const char *role, const char *path);
/* An id file's output: path and path.sha256 (base/idfile.h); "-", a
   device or a descriptor (/dev/stdout) is refused: the checksum file
   needs a name beside a file. */
void io_output_idfile(io_plan *p, const char *role, const char *path);
/* A folder the run replaces as a whole. */
void io_output_dir(io_plan *p, const char *role, const char *path);
/* 0, or -1 with a usage error naming the roles and the path:
     "OUT needs a file (it writes a checksum file beside it)"
     "OUT names an input (IN): PATH"
     "OUT1 and OUT2 name the same file: PATH"
     "OUT names a folder holding an input (IN): PATH" */
int io_plan_check(const io_plan *p, tells_error *err);
void io_plan_free(io_plan *p);

/* The second guard, for inputs named inside other inputs (a heuristic's
   list file, a template's fill list) that no plan can list: the readers
   of base/ note every regular file they open (io_note_read), the atomic
   outputs note the files they put in place (io_note_written), and
   base/outfile.h refuses to replace a file this process read that it
   did not write itself. A file is known by its device, inode and change
   time (an inode freed and used again is another file). Thread-safe. */
void io_note_read(int fd);
void io_note_written(const char *path);
/* Whether the file path names (links followed) was read by this process
   and not written by it. */
bool io_is_input(const char *path);
/* The same for an open descriptor, and for what stat gave. */
bool io_is_input_fd(int fd);
bool io_is_input_stat(const struct stat *st);

#endif
