/* Child process groups that must not outlive the program: a model
   process runs in a group of its own (so that its children can be killed
   with it), which also keeps a terminal's Ctrl-C from reaching it. A
   group is registered while it runs, so that a program ended by a signal
   or by exit kills it first (children_kill_all is async-signal-safe;
   programs call it from cli_init's handlers). */
#ifndef TELLS_CHILDREN_H
#define TELLS_CHILDREN_H

#include <sys/types.h>

/* -1 when the table (32 groups) is full. */
int children_track(pid_t pgid);
void children_untrack(pid_t pgid);
/* SIGTERM to every registered group. Async-signal-safe. */
void children_kill_all(void);

#endif
