#include <config.h>
#include "base/tempfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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

/* ---- folders ---- */

enum { DIR_SLOTS = 8, TREE_DEPTH = 9 };
static char dir_path[DIR_SLOTS][TEMP_PATH];
static int dir_state[DIR_SLOTS];

int temp_track_dir(const char *path)
{
    size_t len = strlen(path);
    if (len >= TEMP_PATH)
        return -1;
    for (int i = 0; i < DIR_SLOTS; i++) {
        int expected = SLOT_FREE;
        if (!__atomic_compare_exchange_n(&dir_state[i], &expected, SLOT_FILLING, false,
                                         __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            continue;
        memcpy(dir_path[i], path, len + 1);
        __atomic_store_n(&dir_state[i], SLOT_USED, __ATOMIC_RELEASE);
        return 0;
    }
    return -1;
}

void temp_untrack_dir(const char *path)
{
    for (int i = 0; i < DIR_SLOTS; i++)
        if (__atomic_load_n(&dir_state[i], __ATOMIC_ACQUIRE) == SLOT_USED &&
            strcmp(dir_path[i], path) == 0) {
            __atomic_store_n(&dir_state[i], SLOT_FREE, __ATOMIC_RELEASE);
            return;
        }
}

/* Empties the folder open as fd and closes it, with system calls only
   (getdents64, unlinkat), so that a signal handler may call it. */
static void empty_dir(int fd, int depth)
{
    char buf[4096];
    for (;;) {
        long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
        if (n <= 0)
            break;
        for (long off = 0; off < n;) {
            struct {
                unsigned long long ino;
                long long off;
                unsigned short reclen;
                unsigned char type;
                char name[];
            } *e = (void *)(buf + off);
            off += e->reclen;
            if (e->name[0] == '.' && (!e->name[1] || (e->name[1] == '.' && !e->name[2])))
                continue;
            struct stat st;
            bool dir = e->type == DT_DIR ||
                       (e->type == DT_UNKNOWN &&
                        fstatat(fd, e->name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                        S_ISDIR(st.st_mode));
            if (dir && depth > 0) {
                int sub = openat(fd, e->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub >= 0)
                    empty_dir(sub, depth - 1);
                unlinkat(fd, e->name, AT_REMOVEDIR);
            } else
                unlinkat(fd, e->name, 0);
        }
    }
    close(fd);
}

static void remove_tree(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        /* Twice: a listing changed by removals may skip entries. */
        empty_dir(fd, TREE_DEPTH);
        fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0)
            empty_dir(fd, TREE_DEPTH);
    }
    rmdir(path);
}

void temp_remove_dir(const char *path)
{
    temp_untrack_dir(path);
    remove_tree(path);
}

void temp_remove_all(void)
{
    int saved = errno;
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (__atomic_load_n(&slot_state[i], __ATOMIC_ACQUIRE) == SLOT_USED)
            unlink(slot_path[i]);
    for (int i = 0; i < DIR_SLOTS; i++)
        if (__atomic_load_n(&dir_state[i], __ATOMIC_ACQUIRE) == SLOT_USED)
            remove_tree(dir_path[i]);
    errno = saved;
}

const int temp_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGUSR1, SIGUSR2,
                            SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF};
const size_t temp_nsignals = sizeof temp_signals / sizeof *temp_signals;

void temp_block_signals(sigset_t *old)
{
    sigset_t block;
    sigemptyset(&block);
    for (size_t i = 0; i < temp_nsignals; i++)
        sigaddset(&block, temp_signals[i]);
    pthread_sigmask(SIG_BLOCK, &block, old);
}

void temp_restore_signals(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

static void block_signals(sigset_t *old) { temp_block_signals(old); }

int temp_create(char *tmpl, const char *what, tells_error *err)
{
    sigset_t old;
    block_signals(&old);
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

int temp_create_dir(char *tmpl)
{
    sigset_t old;
    block_signals(&old);
    int rc = mkdtemp(tmpl) ? 0 : -1;
    int e = errno;
    if (rc == 0 && temp_track_dir(tmpl) < 0) {
        rmdir(tmpl);
        rc = -1;
        e = EMFILE;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return rc;
}

const char *temp_dir(void)
{
    const char *d = getenv("TMPDIR");
    return d && *d ? d : "/tmp";
}
