/* Numbered tasks run on a few threads: the threads take the tasks in
   order, any thread any task. Results that must not depend on the thread
   count are made per task and combined in task order by the caller. */
#ifndef TELLS_TASKS_H
#define TELLS_TASKS_H

#include <stddef.h>

enum { TASKS_MAX_THREADS = 256 };

/* A thread count asked for (an option) as one tasks_run serves: at
   least 1, at most TASKS_MAX_THREADS. */
size_t tasks_threads(int requested);

/* fn(ctx, task, thread) for every task in 0 .. ntasks-1; thread is below
   min(threads, ntasks), so that per-thread buffers can be indexed by it. */
typedef void (*tasks_fn)(void *ctx, size_t task, size_t thread);

/* Runs every task with up to `threads` threads (the caller's one among
   them; at most TASKS_MAX_THREADS); a thread that cannot be started only
   makes it slower. The threads are one pool for the process, kept
   between calls: calls from different threads wait for each other, a
   task's own calls run in it, and a task must not wait for another
   thread that calls tasks_run. A child forked by a task may only exec or
   _exit; a child forked elsewhere starts a pool of its own. */
void tasks_run(size_t threads, size_t ntasks, tasks_fn fn, void *ctx);

/* A thread of the caller's that computes beside the pool (the study's
   vectors, trained while the models fit). Each hold takes one from the
   threads a job asks for: a job of `threads` runs on at most
   threads - holds of them, never fewer than the caller's own, so that
   the threads asked for are the threads computing (a job of fewer tasks
   than that keeps them all). A worker left out waits between tasks and
   joins the job when the hold is released. Each hold is released once.
   Which thread runs a task never changes its result (above), so a hold
   changes only the time. */
void tasks_hold_thread(void);
void tasks_release_thread(void);

#endif
