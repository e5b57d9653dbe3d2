/* base/tasks: every task runs once, on a thread of the job's range; jobs
   in a row reuse the pool; a task's own jobs run in it; a forked child
   that runs jobs does not wait for workers it has not got; a thread held
   beside the pool takes a worker out of each job until it is released. */
#include <config.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "base/tasks.h"
#include "check.h"

enum { MAX_TASKS = 1000 };

typedef struct job {
    unsigned runs[MAX_TASKS];
    size_t thread_of[MAX_TASKS];
    size_t inner;            /* tasks of the jobs started from tasks */
    size_t inner_elsewhere;  /* of those, run by another thread than their task's */
} job;

static void count_task(void *ctx, size_t t, size_t thread)
{
    job *j = ctx;
    __atomic_fetch_add(&j->runs[t], 1, __ATOMIC_RELAXED);
    j->thread_of[t] = thread;
}

static void inner_task(void *ctx, size_t t, size_t thread)
{
    (void)t;
    job *j = ctx;
    __atomic_fetch_add(&j->inner, 1, __ATOMIC_RELAXED);
    if (thread != 0)   /* not run by the task that started the job */
        __atomic_fetch_add(&j->inner_elsewhere, 1, __ATOMIC_RELAXED);
}

static void outer_task(void *ctx, size_t t, size_t thread)
{
    count_task(ctx, t, thread);
    tasks_run(4, 3, inner_task, ctx);
}

/* Runs a job and checks each task ran once, on a thread below the
   job's threads; true when every task did. */
static int run_and_check(size_t threads, size_t ntasks)
{
    static job j;
    memset(&j, 0, sizeof j);
    tasks_run(threads, ntasks, count_task, &j);
    size_t limit = threads < ntasks ? threads : ntasks;
    int ok = 1;
    for (size_t t = 0; t < ntasks; t++)
        ok &= j.runs[t] == 1 && j.thread_of[t] < (limit ? limit : 1);
    for (size_t t = ntasks; t < MAX_TASKS; t++)
        ok &= j.runs[t] == 0;
    return ok;
}

/* Whether every task of j's first n ran on the caller's thread. */
static int all_on_caller(const job *j, size_t n)
{
    int ok = 1;
    for (size_t t = 0; t < n; t++)
        ok &= j->runs[t] == 1 && j->thread_of[t] == 0;
    return ok;
}

static void pause_ms(void)
{
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
}

/* Records task t's run, and in inner the tasks run by a worker. */
static void record_task(job *j, size_t t, size_t thread)
{
    count_task(j, t, thread);
    if (thread != 0)
        __atomic_fetch_add(&j->inner, 1, __ATOMIC_RELAXED);
}

/* Waits up to ms milliseconds for a worker to have run a task of j. */
static void wait_for_worker(job *j, int ms)
{
    for (int i = 0; i < ms && __atomic_load_n(&j->inner, __ATOMIC_RELAXED) == 0; i++)
        pause_ms();
}

/* Task 0 waits 100 ms for a worker to take a task, so that a gate that
   lets workers in is seen, however fast the caller is. */
static void gated_task(void *ctx, size_t t, size_t thread)
{
    record_task(ctx, t, thread);
    if (t == 0)
        wait_for_worker(ctx, 100);
}

/* Task 0 releases the held thread, then waits (at most 10 s) for a
   worker to take one of the other tasks: the gate must open within a
   job. */
static void release_task(void *ctx, size_t t, size_t thread)
{
    record_task(ctx, t, thread);
    if (t != 0)
        return;
    tasks_release_thread();
    wait_for_worker(ctx, 10000);
}

/* Each of two tasks waits (at most 10 s) for the other to have run:
   on two threads they meet at once. */
static void meet_task(void *ctx, size_t t, size_t thread)
{
    job *j = ctx;
    count_task(ctx, t, thread);
    for (int i = 0; i < 10000 && __atomic_load_n(&j->runs[1 - t], __ATOMIC_RELAXED) == 0; i++)
        pause_ms();
}

int main(void)
{
    alarm(60);   /* a gate that never opens fails, not hangs */
    CHECK(tasks_threads(0) == 1 && tasks_threads(-3) == 1 && tasks_threads(3) == 3);
    CHECK(tasks_threads(100000) == TASKS_MAX_THREADS);
    CHECK(run_and_check(1, 10));
    CHECK(run_and_check(2, 0));
    CHECK(run_and_check(2, 1));
    CHECK(run_and_check(2, 1000));
    CHECK(run_and_check(8, 1000));   /* the pool grows */
    CHECK(run_and_check(3, 7));      /* and serves fewer threads */
    int all = 1;
    for (int i = 0; i < 2000; i++)   /* many short jobs, as a solver's passes */
        all &= run_and_check(1 + (size_t)i % 4, 1 + (size_t)i % 37);
    CHECK(all);

    static job nested;
    tasks_run(4, 50, outer_task, &nested);
    CHECK(nested.inner == 150);
    CHECK(nested.inner_elsewhere == 0);
    for (size_t t = 0; t < 50; t++)
        CHECK(nested.runs[t] == 1);

    /* A thread held: a job of 2 runs on the caller alone, one of 3 on
       two threads, one of 3 with two held on the caller; a job of fewer
       tasks than threads keeps the threads it has while the hold leaves
       enough; released, the workers serve again. */
    static job held;
    tasks_hold_thread();
    tasks_run(2, 200, gated_task, &held);
    CHECK(all_on_caller(&held, 200));
    CHECK(run_and_check(3, 500));
    memset(&held, 0, sizeof held);
    tasks_run(3, 500, gated_task, &held);
    int below2 = 1;
    for (size_t t = 0; t < 500; t++)
        below2 &= held.runs[t] == 1 && held.thread_of[t] < 2;
    CHECK(below2);
    memset(&held, 0, sizeof held);
    tasks_run(3, 2, meet_task, &held);   /* 3 asked, 1 held: both tasks' threads */
    CHECK(held.runs[0] == 1 && held.runs[1] == 1 && held.thread_of[0] != held.thread_of[1]);
    tasks_hold_thread();
    memset(&held, 0, sizeof held);
    tasks_run(3, 200, gated_task, &held);
    CHECK(all_on_caller(&held, 200));
    tasks_release_thread();
    tasks_release_thread();
    CHECK(run_and_check(2, 1000));
    /* Released while a job runs: a worker joins it. */
    tasks_hold_thread();
    memset(&held, 0, sizeof held);
    tasks_run(2, 50, release_task, &held);
    CHECK(held.inner > 0);
    for (size_t t = 0; t < 50; t++)
        CHECK(held.runs[t] == 1);

    /* The child of a process with workers runs its jobs alone. */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(run_and_check(4, 100) ? 0 : 1);
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(run_and_check(4, 100));
    CHECK_DONE();
}
