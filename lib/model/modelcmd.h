/* An external model run as one long-lived process: cases go to its
   standard input one per line, and it answers each with one line on its
   standard output. Writing and reading happen together (poll on
   non-blocking pipes), so a model that answers each line as soon as it
   reads it never deadlocks on full pipe buffers, and a process that
   dies or stops answering is an error naming how many cases it answered,
   never a hang or a SIGPIPE. */
#ifndef TELLS_MODELCMD_H
#define TELLS_MODELCMD_H

#include <stddef.h>

#include "base/error.h"

/* An answer may be long (a label plus scores) but not unbounded, so
   a model that never prints a newline cannot eat all memory. */
enum { MODEL_ANSWER_MAX = 1 << 20 };  /* 1 MiB */

typedef struct model_cmd model_cmd;

/* Starts /bin/sh -c command with pipes to its stdin and stdout (its
   stderr is inherited, so the model's own messages reach the user). */
int model_cmd_start(model_cmd **out, const char *command, tells_error *err);
/* Writes lines[0..n) (each without a newline; a line containing '\n' or
   '\r' is an error, since it would shift every later answer) each
   followed by '\n', and reads n answer lines; answers[i] gets a malloc'd
   NUL-terminated string without its line end (a trailing '\r' is
   stripped). Returns 0, or -1 with err set; on error every answers[i] is
   NULL (nothing half-filled). An answer longer than MODEL_ANSWER_MAX
   bytes is an error. After an I/O error the model is out of step, so
   later queries fail too; a rejected line leaves it usable. */
int model_cmd_query(model_cmd *m, const char *const *lines, size_t n,
                    char **answers, tells_error *err);
/* Closes the model's stdin, waits for it; -1 with err set when it exited
   non-zero or by a signal, or printed more lines than it was asked for
   (its answers were then out of step). Frees m either way. */
int model_cmd_finish(model_cmd *m, tells_error *err);
/* Kills (SIGTERM) and reaps the process without checking; frees m. For
   error paths. NULL is fine. */
void model_cmd_abort(model_cmd *m);

#endif
