#include <config.h>
#include "base/children.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>

enum { CHILD_SLOTS = 32 };

/* 0 = free; a group id otherwise. Claimed and freed atomically, read by
   a signal handler. */
static pid_t slot[CHILD_SLOTS];

int children_track(pid_t pgid)
{
    for (int i = 0; i < CHILD_SLOTS; i++) {
        pid_t expected = 0;
        if (__atomic_compare_exchange_n(&slot[i], &expected, pgid, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED))
            return 0;
    }
    return -1;
}

void children_untrack(pid_t pgid)
{
    for (int i = 0; i < CHILD_SLOTS; i++) {
        pid_t expected = pgid;
        if (__atomic_compare_exchange_n(&slot[i], &expected, 0, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED))
            return;
    }
}

void children_kill_all(void)
{
    int saved = errno;
    for (int i = 0; i < CHILD_SLOTS; i++) {
        pid_t g = __atomic_load_n(&slot[i], __ATOMIC_ACQUIRE);
        if (g > 0)
            kill(-g, SIGTERM);
    }
    errno = saved;
}
