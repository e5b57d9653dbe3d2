/* Output folders, the folder-sized twin of base/outfile.h: a run writes
   into a new folder beside the target and puts it in place only when
   everything was written, so a failed run leaves an existing folder as
   it was.

   A run owns only what it made. The folder it puts in place holds a
   manifest (its mark, such as ".tells-study") listing every file and
   folder the run wrote. An existing target is replaced only when it is
   empty, or holds that manifest and nothing that the manifest does not
   list; anything else is refused before the run starts (out_dir_open)
   and again just before the swap (out_dir_commit). The old folder is
   then removed file by file from its manifest, never as a whole: were
   anything else in it by then, it stays beside the new one (kept).

   What the target names: a trailing slash is dropped; a symbolic link is
   followed (the folder it names is replaced and the link stays); "." and
   ".." are taken for the folder they are. A file that is not a folder is
   refused. The new folder is registered with base/tempfile.h, so that a
   signal removes it; the old one never is. */
#ifndef TELLS_OUTDIR_H
#define TELLS_OUTDIR_H

#include "base/error.h"

typedef struct out_dir {
    char *path;       /* as given, for messages */
    char *target;     /* the folder to replace (links followed) */
    char *tmp;        /* the new folder: write here */
    const char *mark; /* the manifest's name */
    char *kept;       /* after a commit: the old folder, when it held more
                         than its manifest listed and so was kept; or NULL */
} out_dir;

/* Checks path (see above) and makes the new folder beside it. */
int out_dir_open(out_dir *d, const char *path, const char *mark, tells_error *err);
/* Writes the manifest of everything in the new folder, checks the old
   one again, and puts the new one in place. */
int out_dir_commit(out_dir *d, tells_error *err);
/* Removes the new folder (when not committed) and frees d. */
void out_dir_close(out_dir *d);

/* Whether the folder at path may be replaced by a run that writes mark:
   0, or -1 with err saying why not (named as shown). */
int out_dir_check(const char *path, const char *shown, const char *mark, tells_error *err);

#endif
