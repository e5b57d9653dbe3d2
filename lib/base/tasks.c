#include "base/tasks.h"

#include <pthread.h>
#include <stdbool.h>

typedef struct pool {
    pthread_mutex_t mu;
    size_t next, ntasks;
    tasks_fn fn;
    void *ctx;
} pool;

typedef struct worker_arg {
    pool *p;
    size_t thread;
} worker_arg;

static void *worker(void *v)
{
    worker_arg *w = v;
    pool *p = w->p;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        size_t t = p->next++;
        pthread_mutex_unlock(&p->mu);
        if (t >= p->ntasks)
            break;
        p->fn(p->ctx, t, w->thread);
    }
    return NULL;
}

void tasks_run(size_t threads, size_t ntasks, tasks_fn fn, void *ctx)
{
    pool p = {.next = 0, .ntasks = ntasks, .fn = fn, .ctx = ctx};
    pthread_mutex_init(&p.mu, NULL);
    size_t nt = threads < ntasks ? threads : ntasks;
    nt = nt > TASKS_MAX_THREADS ? TASKS_MAX_THREADS : nt;
    pthread_t tid[TASKS_MAX_THREADS];
    worker_arg arg[TASKS_MAX_THREADS];
    bool started[TASKS_MAX_THREADS] = {false};
    for (size_t i = 0; i < nt; i++)
        arg[i] = (worker_arg){&p, i};
    for (size_t i = 1; i < nt; i++)
        started[i] = pthread_create(&tid[i], NULL, worker, &arg[i]) == 0;
    if (nt > 0)
        worker(&arg[0]);
    for (size_t i = 1; i < nt; i++)
        if (started[i])
            pthread_join(tid[i], NULL);
    pthread_mutex_destroy(&p.mu);
}
