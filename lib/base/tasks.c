#include "base/tasks.h"

#include <pthread.h>
#include <stdbool.h>

/* One pool of workers for the process, started as jobs first need them
   and kept: the ensemble's solver runs hundreds of jobs of a few
   milliseconds each, and a thread started per job spends part of that
   being created. Worker i runs as thread i + 1 (the caller is 0). */
static struct {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    pthread_mutex_t run;          /* one job at a time */
    size_t workers;
    unsigned long job;            /* the number of the current job */
    tasks_fn fn;
    void *ctx;
    size_t ntasks, next, threads; /* threads of the job, the caller's included */
    size_t asked;                 /* the threads the job asked for (at most the maximum) */
    size_t busy;                  /* workers still in the job */
    size_t held;                  /* threads computing beside the pool (tasks_hold_thread) */
    pthread_cond_t gate;          /* held went down, or a job's tasks ran out */
} pool = {
    .mu = PTHREAD_MUTEX_INITIALIZER,
    .work = PTHREAD_COND_INITIALIZER,
    .done = PTHREAD_COND_INITIALIZER,
    .gate = PTHREAD_COND_INITIALIZER,
    .run = PTHREAD_MUTEX_INITIALIZER,
};

/* A task that runs tasks runs them itself. */
static _Thread_local bool in_job;

/* Whether worker `thread` may take a task now: the caller always; a
   worker while the threads the job asked for, less those held beside
   it, exceed its number (a job of fewer tasks than threads loses a
   thread only when the hold leaves fewer than it has). */
static bool may_take(size_t thread)
{
    return thread == 0 || thread + __atomic_load_n(&pool.held, __ATOMIC_RELAXED) < pool.asked;
}

static void take_tasks(size_t thread)
{
    for (;;) {
        if (!may_take(thread)) {
            pthread_mutex_lock(&pool.mu);
            while (!may_take(thread) &&
                   __atomic_load_n(&pool.next, __ATOMIC_RELAXED) < pool.ntasks)
                pthread_cond_wait(&pool.gate, &pool.mu);
            pthread_mutex_unlock(&pool.mu);
        }
        size_t t = __atomic_fetch_add(&pool.next, 1, __ATOMIC_RELAXED);
        if (t >= pool.ntasks)
            break;
        pool.fn(pool.ctx, t, thread);
    }
    /* The tasks ran out: a worker waiting at the gate leaves the job. */
    pthread_mutex_lock(&pool.mu);
    pthread_cond_broadcast(&pool.gate);
    pthread_mutex_unlock(&pool.mu);
}

static void *worker(void *v)
{
    size_t thread = (size_t)v;
    unsigned long seen = 0;
    in_job = true;
    pthread_mutex_lock(&pool.mu);
    for (;;) {
        while (pool.job == seen)
            pthread_cond_wait(&pool.work, &pool.mu);
        seen = pool.job;
        if (thread >= pool.threads)
            continue;   /* not needed for this one */
        pthread_mutex_unlock(&pool.mu);
        take_tasks(thread);
        pthread_mutex_lock(&pool.mu);
        if (--pool.busy == 0)
            pthread_cond_signal(&pool.done);
    }
    return NULL;
}

static _Thread_local bool holding;

/* After fork only the forking thread exists: the child starts anew. */
static void forget_workers(void)
{
    pthread_mutex_init(&pool.mu, NULL);
    pthread_mutex_init(&pool.run, NULL);
    pthread_cond_init(&pool.work, NULL);
    pthread_cond_init(&pool.done, NULL);
    pthread_cond_init(&pool.gate, NULL);
    pool.workers = 0;
    pool.held = 0;
    pool.job = 0;
    pool.busy = 0;
    holding = false;
}

/* Around fork the pool is held, so that the child does not copy it
   half-changed. A task that forks (its job holds the pool already) may
   only exec or _exit in the child. */

static void hold_all(void)
{
    if (in_job)
        return;
    pthread_mutex_lock(&pool.run);
    pthread_mutex_lock(&pool.mu);
    holding = true;
}

static void release_all(void)
{
    if (!holding)
        return;
    holding = false;
    pthread_mutex_unlock(&pool.mu);
    pthread_mutex_unlock(&pool.run);
}

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void register_fork(void)
{
    pthread_atfork(hold_all, release_all, forget_workers);
}

void tasks_hold_thread(void)
{
    pthread_mutex_lock(&pool.mu);
    __atomic_add_fetch(&pool.held, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&pool.mu);
}

void tasks_release_thread(void)
{
    pthread_mutex_lock(&pool.mu);
    if (pool.held > 0)
        __atomic_sub_fetch(&pool.held, 1, __ATOMIC_RELAXED);
    pthread_cond_broadcast(&pool.gate);
    pthread_mutex_unlock(&pool.mu);
}

size_t tasks_threads(int requested)
{
    return requested < 1 ? 1 : requested > TASKS_MAX_THREADS ? TASKS_MAX_THREADS
                                                              : (size_t)requested;
}

void tasks_run(size_t threads, size_t ntasks, tasks_fn fn, void *ctx)
{
    size_t asked = threads > TASKS_MAX_THREADS ? TASKS_MAX_THREADS : threads;
    size_t nt = asked < ntasks ? asked : ntasks;
    if (nt <= 1 || in_job) {
        for (size_t t = 0; t < ntasks; t++)
            fn(ctx, t, 0);
        return;
    }
    pthread_once(&fork_once, register_fork);
    pthread_mutex_lock(&pool.run);
    pthread_mutex_lock(&pool.mu);
    while (pool.workers < nt - 1) {   /* a worker that cannot start: fewer threads */
        pthread_t tid;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&tid, &attr, worker, (void *)(pool.workers + 1));
        pthread_attr_destroy(&attr);
        if (rc != 0)
            break;
        pool.workers++;
    }
    if (nt > pool.workers + 1)
        nt = pool.workers + 1;
    pool.fn = fn;
    pool.ctx = ctx;
    pool.ntasks = ntasks;
    pool.next = 0;
    pool.threads = nt;
    pool.asked = asked;
    pool.busy = nt - 1;
    pool.job++;
    pthread_cond_broadcast(&pool.work);
    pthread_mutex_unlock(&pool.mu);
    in_job = true;
    take_tasks(0);
    in_job = false;
    pthread_mutex_lock(&pool.mu);
    while (pool.busy > 0)
        pthread_cond_wait(&pool.done, &pool.mu);
    pthread_mutex_unlock(&pool.mu);
    pthread_mutex_unlock(&pool.run);
}
