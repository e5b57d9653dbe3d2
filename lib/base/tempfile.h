/* Temporary files that must not outlive the program. Every temporary
   file tells makes (the atomic outputs' NAME.XXXXXX beside their targets,
   training files for fastText) is registered while it exists, so that a
   program killed by a signal (SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT,
   SIGXFSZ, ...: temp_signals) can remove them before it dies: its handler calls temp_remove_all, which is async-signal-safe.
   The library installs no handler itself; programs do (cli_init). */
#ifndef TELLS_TEMPFILE_H
#define TELLS_TEMPFILE_H

#include <signal.h>
#include <stddef.h>

#include "base/error.h"

/* The signals whose default action ends the program, but for those of a
   bug (SIGSEGV, SIGABRT, ...): a program's handler removes the
   temporary files on each of them (cli_init), and they are blocked while
   a temporary name exists but is not yet registered, and while an
   output folder is swapped (temp_block_signals, temp_restore_signals). */
extern const int temp_signals[];
extern const size_t temp_nsignals;
void temp_block_signals(sigset_t *old);
void temp_restore_signals(const sigset_t *old);

/* Creates a file from template tmpl (ending in XXXXXX, modified in place)
   with mkstemp and registers it; the descriptor, or -1 with err set
   (naming what, the file the temporary one is for, or tmpl). */
int temp_create(char *tmpl, const char *what, tells_error *err);
/* Registers an existing temporary file; -1 when the table is full (64
   files) or the name too long, and it would then stay behind on a
   signal. */
int temp_track(const char *path);
/* Forgets path (after it was renamed into place or removed). */
void temp_untrack(const char *path);
/* Removes and forgets path. */
void temp_remove(const char *path);
/* Removes every registered file: for signal handlers and abnormal
   exits. Async-signal-safe. */
void temp_remove_all(void);

/* Temporary folders (a run's output built beside its target): tracked
   the same way, removed with everything in them (nine levels deep at
   most, more than base/outdir.h allows) by temp_remove_all. temp_create_dir makes one from tmpl
   (mkdtemp) and registers it: 0, or -1 with errno set (EMFILE when the
   table of 8 is full). */
int temp_create_dir(char *tmpl);
int temp_track_dir(const char *path);
void temp_untrack_dir(const char *path);
/* Removes the folder and what it holds; forgets it. */
void temp_remove_dir(const char *path);

/* The folder for temporary files: $TMPDIR when set and not empty, else
   /tmp. */
const char *temp_dir(void);

#endif
