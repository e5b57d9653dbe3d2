#include <config.h>
#include "base/tempfile.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A fixed table, so that the signal handler touches no allocator: a slot
   is claimed by an atomic flag, filled, then published. */
enum { TEMP_SLOTS = 64, TEMP_PATH = 4096 };
enum { SLOT_FREE, SLOT_FILLING, SLOT_USED };

static char slot_path[TEMP_SLOTS][TEMP_PATH];
static int slot_state[TEMP_SLOTS];

int temp_track(const char *path)
{
    size_t len = strlen(path);
    if (len >= TEMP_PATH)
        return -1;
    for (int i = 0; i < TEMP_SLOTS; i++) {
        int expected = SLOT_FREE;
        if (!__atomic_compare_exchange_n(&slot_state[i], &expected, SLOT_FILLING, false,
                                         __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            continue;
        memcpy(slot_path[i], path, len + 1);
        __atomic_store_n(&slot_state[i], SLOT_USED, __ATOMIC_RELEASE);
        return 0;
    }
    return -1;
}

void temp_untrack(const char *path)
{
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (__atomic_load_n(&slot_state[i], __ATOMIC_ACQUIRE) == SLOT_USED &&
            strcmp(slot_path[i], path) == 0) {
            __atomic_store_n(&slot_state[i], SLOT_FREE, __ATOMIC_RELEASE);
            return;
        }
}

void temp_remove(const char *path)
{
    temp_untrack(path);
    unlink(path);
}

void temp_remove_all(void)
{
    int saved = errno;
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (__atomic_load_n(&slot_state[i], __ATOMIC_ACQUIRE) == SLOT_USED)
            unlink(slot_path[i]);
    errno = saved;
}

int temp_create(char *tmpl, const char *what, tells_error *err)
{
    /* Block the signals that remove temporary files while the name exists
       but is not yet registered. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    int fd = mkstemp(tmpl);
    int e = errno;
    if (fd >= 0 && temp_track(tmpl) < 0) {
        close(fd);
        unlink(tmpl);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        return tells_error_io(err, what ? what : tmpl, 0,
                              "cannot register a temporary file (too many at once)");
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (fd < 0)
        return tells_error_io(err, what ? what : tmpl, 0, "cannot create: %s",
                              strerror(e));
    return fd;
}

const char *temp_dir(void)
{
    const char *d = getenv("TMPDIR");
    return d && *d ? d : "/tmp";
}
