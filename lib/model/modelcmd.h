/* An external model run as one long-lived process: cases go to its
   standard input one per line, and it answers each with one line on its
   standard output. Writing and reading happen together (poll on
   non-blocking pipes), so a model that answers each line as soon as it
   reads it never deadlocks on full pipe buffers. The model runs in a
   process group of its own; a process that dies, stops answering,
   answers too much or too long is an error naming how many cases it
   answered, how it ended and the last line of its stderr, and the whole
   group is killed and reaped: never a hang, a SIGPIPE or a stray
   process. */
#ifndef TELLS_MODELCMD_H
#define TELLS_MODELCMD_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

/* An answer may be long (a label plus scores) but not unbounded, so
   a model that never prints a newline cannot eat all memory. */
enum { MODEL_ANSWER_MAX = 1 << 20 };  /* 1 MiB */
/* Seconds to wait for each answer unless told otherwise. */
#define MODEL_TIMEOUT_DEFAULT 60.0

typedef struct model_cmd model_cmd;

/* Receives what the model prints on its stderr as it comes, line by
   line: a line in one call with its '\n' or '\r' and line_end true; a
   line longer than 4096 bytes in pieces of at most that, line_end false
   for all but the last, so that a line of any length passes whole in
   bounded memory; an unfinished last line, when the output ends, with
   line_end true and no line end (possibly as an empty last piece). */
typedef void (*model_cmd_stderr_fn)(void *ctx, const char *text, size_t len, bool line_end);

typedef struct model_cmd_options {
    double timeout;                 /* seconds; 0: wait for ever */
    model_cmd_stderr_fn on_stderr;  /* NULL: the lines are only kept for
                                       messages */
    void *stderr_ctx;
} model_cmd_options;

/* Whether command is empty or only white space: no model (sh -c would
   run it, read nothing and exit 0). */
bool model_cmd_blank(const char *command);
/* Starts /bin/sh -c command in a new process group, with pipes to its
   stdin, stdout and stderr; the timeout is MODEL_TIMEOUT_DEFAULT and
   stderr lines are dropped until model_cmd_set_options. A blank command
   is a usage error ("the model command is empty"). */
int model_cmd_start(model_cmd **out, const char *command, tells_error *err);
void model_cmd_set_options(model_cmd *m, const model_cmd_options *o);
/* The number of cases the whole run will send: messages count answers
   across the run ("answered 512 of 11265 cases"), and the model's input
   is closed as soon as the last case is written, so that a model that
   reads all its input before answering still works in one query. 0
   (the default): unknown, and the input stays open until
   model_cmd_finish. */
void model_cmd_expect(model_cmd *m, size_t total);
/* "model command 'CMD'" (CMD shortened when long), for messages about
   the model's answers. */
const char *model_cmd_label(const model_cmd *m);

/* Writes lines[0..n) (each without a newline; a line containing '\n' or
   '\r' is a usage error, since it would shift every later answer) each
   followed by '\n', and reads n answer lines; answers[i] gets a malloc'd
   NUL-terminated string without its line end (a trailing '\r' is
   stripped). Returns 0, or -1 with err set; on error every answers[i] is
   NULL (nothing half-filled). No answer line within the timeout (from
   the start of the query or the previous answer), an early end of the
   model's output, a write error (io) or an answer longer than
   MODEL_ANSWER_MAX bytes or holding a NUL byte (data) kills and reaps
   the model, and every later query fails; a rejected line leaves it
   usable. */
int model_cmd_query(model_cmd *m, const char *const *lines, size_t n,
                    char **answers, tells_error *err);
/* Closes the model's stdin and waits (within the timeout) for it to end
   its output and exit; -1 with err set when it exited non-zero or by a
   signal, did not exit in time (io), or printed more lines than it was
   asked for (data: its answers were out of step). Frees m either way,
   with the group killed and the process reaped. */
int model_cmd_finish(model_cmd *m, tells_error *err);
/* Kills the process group (SIGTERM, then SIGKILL) and reaps the model
   without checking; frees m. For error paths. NULL is fine. */
void model_cmd_abort(model_cmd *m);

#endif
