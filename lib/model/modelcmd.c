#include <config.h>
#include "model/modelcmd.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"

extern char **environ;

enum {
    WRITE_CHUNK = 1 << 16,   /* input is staged and written in this size */
    READ_CHUNK = 1 << 16,    /* room made before each read */
    EXIT_GRACE_MS = 500,     /* output closed: how long to wait for exit */
    TERM_GRACE_MS = 2000     /* after SIGTERM, before SIGKILL */
};

struct model_cmd {
    pid_t pid;
    int in_fd;        /* our end of the model's stdin; -1 once closed */
    int out_fd;       /* our end of the model's stdout; -1 once closed */
    bool out_eof;
    bool reaped;      /* never signal a pid after reaping it */
    int status;       /* wait status once reaped */
    bool failed;      /* an I/O error left answers out of step */
    char *buf;        /* output read but not yet claimed as answers */
    size_t cap, start, end;
    char *wbuf;       /* WRITE_CHUNK bytes of staged input */
};

static void close_fd(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

static void free_model(model_cmd *m)
{
    close_fd(&m->in_fd);
    close_fd(&m->out_fd);
    free(m->buf);
    free(m->wbuf);
    free(m);
}

/* Keeps pipe ends off 0, 1 and 2 (when the caller closed those), so the
   child's dup2 onto 0 and 1 never hits one of them. */
static int move_high(int *fd)
{
    if (*fd > 2)
        return 0;
    int high = fcntl(*fd, F_DUPFD_CLOEXEC, 3);
    if (high < 0)
        return -1;
    close(*fd);
    *fd = high;
    return 0;
}

static int set_nonblock(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

static void store_status(model_cmd *m, int status)
{
    m->reaped = true;
    m->status = status;
}

static void wait_blocking(model_cmd *m)
{
    while (!m->reaped) {
        int status;
        pid_t r = waitpid(m->pid, &status, 0);
        if (r == m->pid)
            store_status(m, status);
        else if (r < 0 && errno != EINTR)
            store_status(m, 0);  /* ECHILD: someone else reaped it */
    }
}

static long elapsed_ms(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - since->tv_sec) * 1000L +
           (now.tv_nsec - since->tv_nsec) / 1000000L;
}

/* Waits up to ms for the process to exit; a process that just closed its
   output is usually gone within a millisecond. */
static void reap_within(model_cmd *m, long ms)
{
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    long nap_us = 100;
    while (!m->reaped) {
        int status;
        pid_t r = waitpid(m->pid, &status, WNOHANG);
        if (r == m->pid) {
            store_status(m, status);
            break;
        }
        if (r < 0 && errno != EINTR) {
            store_status(m, 0);
            break;
        }
        if (r == 0 && elapsed_ms(&start) >= ms)
            break;
        struct timespec nap = { 0, nap_us * 1000L };
        nanosleep(&nap, NULL);
        if (nap_us < 10000)
            nap_us *= 2;
    }
}

/* "exited with status 3", "was killed by signal 9". */
static void describe_status(int status, char *buf, size_t size)
{
    if (WIFEXITED(status)) {
        int code = WEXITSTATUS(status);
        snprintf(buf, size, "exited with status %d%s", code,
                 code == 127   ? " (command not found)"
                 : code == 126 ? " (command not executable)"
                               : "");
    } else if (WIFSIGNALED(status)) {
        snprintf(buf, size, "was killed by signal %d", WTERMSIG(status));
    } else {
        snprintf(buf, size, "stopped with wait status %d", status);
    }
}

int model_cmd_start(model_cmd **out, const char *command, tells_error *err)
{
    *out = NULL;
    model_cmd *m = calloc(1, sizeof *m);
    if (m)
        m->wbuf = malloc(WRITE_CHUNK);
    if (!m || !m->wbuf) {
        free(m);
        return tells_error_nomem(err, NULL, 0);
    }
    m->in_fd = m->out_fd = -1;

    /* Every end is close-on-exec: the child gets its two ends by dup2
       (which clears the flag), and no other child inherits any. */
    int in_pipe[2] = { -1, -1 }, out_pipe[2] = { -1, -1 };
    int e = 0;
    if (pipe2(in_pipe, O_CLOEXEC) < 0 || pipe2(out_pipe, O_CLOEXEC) < 0 ||
        move_high(&in_pipe[0]) < 0 || move_high(&in_pipe[1]) < 0 ||
        move_high(&out_pipe[0]) < 0 || move_high(&out_pipe[1]) < 0 ||
        set_nonblock(in_pipe[1]) < 0 || set_nonblock(out_pipe[0]) < 0)
        e = errno;

    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    bool have_actions = false, have_attr = false;
    if (!e) {
        e = posix_spawn_file_actions_init(&actions);
        have_actions = !e;
    }
    if (!e)
        e = posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
    if (!e)
        e = posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    if (!e) {
        e = posix_spawnattr_init(&attr);
        have_attr = !e;
    }
    if (!e) {
        /* The model gets default SIGPIPE handling and no blocked signals,
           whatever the caller set up for itself. */
        sigset_t def, none;
        sigemptyset(&def);
        sigaddset(&def, SIGPIPE);
        sigemptyset(&none);
        e = posix_spawnattr_setsigdefault(&attr, &def);
        if (!e)
            e = posix_spawnattr_setsigmask(&attr, &none);
        if (!e)
            e = posix_spawnattr_setflags(
                &attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    }
    if (!e) {
        char sh[] = "sh", dash_c[] = "-c";
        char *argv[] = { sh, dash_c, (char *)command, NULL };
        e = posix_spawn(&m->pid, "/bin/sh", &actions, &attr, argv, environ);
    }
    if (have_actions)
        posix_spawn_file_actions_destroy(&actions);
    if (have_attr)
        posix_spawnattr_destroy(&attr);

    /* The child's ends belong to the child now (or to nobody). */
    close_fd(&in_pipe[0]);
    close_fd(&out_pipe[1]);
    m->in_fd = in_pipe[1];
    m->out_fd = out_pipe[0];
    if (e) {
        free_model(m);
        return tells_error_io(err, NULL, 0,
                               "cannot start the model command: %s",
                               strerror(e));
    }
    *out = m;
    return 0;
}

/* Moves complete lines from the read buffer into answers until n are
   claimed; at end of output a last line without a newline counts too. */
static int claim(model_cmd *m, char **answers, size_t n, size_t *answered,
                 tells_error *err)
{
    while (*answered < n && m->end > m->start) {
        char *s = m->buf + m->start;
        size_t avail = m->end - m->start;
        char *nl = memchr(s, '\n', avail);
        size_t len;
        if (nl)
            len = (size_t)(nl - s);
        else if (m->out_eof)
            len = avail;
        else if (avail > (size_t)MODEL_ANSWER_MAX + 1)
            len = avail;  /* too long already; reported below */
        else
            break;
        size_t used = len + (nl != NULL);
        if (len > 0 && s[len - 1] == '\r')
            len--;
        if (len > MODEL_ANSWER_MAX)
            return tells_error_set(
                err, NULL, 0,
                "the model command's answer to case %zu of %zu is longer "
                "than %d bytes",
                *answered + 1, n, MODEL_ANSWER_MAX);
        char *a = malloc(len + 1);
        if (!a)
            return tells_error_nomem(err, NULL, 0);
        memcpy(a, s, len);
        a[len] = '\0';
        answers[(*answered)++] = a;
        m->start += used;
    }
    if (m->start == m->end)
        m->start = m->end = 0;
    return 0;
}

/* Reads what the model has printed into the buffer. */
static int read_some(model_cmd *m, tells_error *err)
{
    if (m->cap - m->end < READ_CHUNK && m->start > 0) {
        memmove(m->buf, m->buf + m->start, m->end - m->start);
        m->end -= m->start;
        m->start = 0;
    }
    if (ARRAY_RESERVE_MIN(m->buf, m->cap, m->end + READ_CHUNK, 2 * READ_CHUNK) < 0)
        return tells_error_nomem(err, NULL, 0);
    ssize_t r = read(m->out_fd, m->buf + m->end, m->cap - m->end);
    if (r > 0) {
        m->end += (size_t)r;
    } else if (r == 0) {
        m->out_eof = true;
        close_fd(&m->out_fd);
    } else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
        return tells_error_io(err, NULL, 0,
                               "cannot read from the model command: %s",
                               strerror(errno));
    }
    return 0;
}

/* The model's output ended before all answers: say how it ended. */
static int ended_early(model_cmd *m, size_t answered, size_t n,
                       tells_error *err)
{
    const char *unit = n == 1 ? "case" : "cases";
    close_fd(&m->in_fd);  /* a model still reading gets EOF and can exit */
    reap_within(m, EXIT_GRACE_MS);
    if (!m->reaped)
        return tells_error_io(err, NULL, 0,
                              "the model command closed its output after "
                              "answering %zu of %zu %s",
                              answered, n, unit);
    char how[96];
    describe_status(m->status, how, sizeof how);
    return tells_error_io(err, NULL, 0,
                          "the model command %s after answering %zu of %zu %s",
                          how, answered, n, unit);
}

/* Where writing stands: line li from byte off, staged bytes in
   wbuf[wstart, wend). */
typedef struct writer {
    const char *const *lines;
    size_t n, li, off, len;
    size_t wstart, wend;
} writer;

static void stage(model_cmd *m, writer *w)
{
    w->wstart = w->wend = 0;
    while (w->wend < WRITE_CHUNK && w->li < w->n) {
        size_t k = w->len - w->off;
        if (k > WRITE_CHUNK - w->wend)
            k = WRITE_CHUNK - w->wend;
        memcpy(m->wbuf + w->wend, w->lines[w->li] + w->off, k);
        w->wend += k;
        w->off += k;
        if (w->off < w->len || w->wend == WRITE_CHUNK)
            break;
        m->wbuf[w->wend++] = '\n';
        w->off = 0;
        if (++w->li < w->n)
            w->len = strlen(w->lines[w->li]);
    }
}

static int query_io(model_cmd *m, const char *const *lines, size_t n,
                    char **answers, tells_error *err)
{
    writer w = { lines, n, 0, 0, strlen(lines[0]), 0, 0 };
    size_t answered = 0;
    if (claim(m, answers, n, &answered, err) < 0)
        return -1;
    for (;;) {
        bool writing = m->in_fd >= 0 && (w.wstart < w.wend || w.li < n);
        if (answered == n && !writing)
            return 0;
        if (answered < n && m->out_eof)
            return ended_early(m, answered, n, err);

        /* Keep reading even after the last answer while input remains,
           so a model printing extra lines cannot block us both. */
        struct pollfd p[2];
        int np = 0, wi = -1, ri = -1;
        if (writing) {
            p[np] = (struct pollfd){ .fd = m->in_fd, .events = POLLOUT };
            wi = np++;
        }
        if (!m->out_eof) {
            p[np] = (struct pollfd){ .fd = m->out_fd, .events = POLLIN };
            ri = np++;
        }
        if (poll(p, (nfds_t)np, -1) < 0) {
            if (errno == EINTR)
                continue;
            return tells_error_io(err, NULL, 0,
                                   "cannot wait for the model command: %s",
                                   strerror(errno));
        }
        if (wi >= 0 && p[wi].revents) {
            if (w.wstart == w.wend)
                stage(m, &w);
            ssize_t r = write(m->in_fd, m->wbuf + w.wstart,
                              w.wend - w.wstart);
            if (r >= 0) {
                w.wstart += (size_t)r;
            } else if (errno == EPIPE) {
                /* The model stopped reading (it exited, most likely):
                   collect what it printed, then say how it ended. */
                close_fd(&m->in_fd);
            } else if (errno != EINTR && errno != EAGAIN &&
                       errno != EWOULDBLOCK) {
                return tells_error_io(err, NULL, 0,
                                       "cannot write to the model command: %s",
                                       strerror(errno));
            }
        }
        if (ri >= 0 && p[ri].revents) {
            if (read_some(m, err) < 0 ||
                claim(m, answers, n, &answered, err) < 0)
                return -1;
        }
    }
}

int model_cmd_query(model_cmd *m, const char *const *lines, size_t n,
                    char **answers, tells_error *err)
{
    for (size_t i = 0; i < n; i++)
        answers[i] = NULL;
    if (m->failed)
        return tells_error_io(err, NULL, 0,
                              "the model command cannot be used after an "
                              "earlier error");
    for (size_t i = 0; i < n; i++)
        if (strpbrk(lines[i], "\r\n"))
            return tells_error_usage(err, "case %zu of %zu contains a line break",
                                     i + 1, n);
    if (n == 0)
        return 0;

    /* A write to a model that exited must come back as EPIPE rather
       than kill us; the caller's handling is put back afterwards. */
    struct sigaction ignore, saved;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &saved);
    int rc = query_io(m, lines, n, answers, err);
    sigaction(SIGPIPE, &saved, NULL);

    if (rc < 0) {
        for (size_t i = 0; i < n; i++) {
            free(answers[i]);
            answers[i] = NULL;
        }
        m->failed = true;
    }
    return rc;
}

int model_cmd_finish(model_cmd *m, tells_error *err)
{
    if (!m)
        return 0;
    if (m->failed) {
        model_cmd_abort(m);
        return tells_error_io(err, NULL, 0,
                              "the model command cannot be used after an "
                              "earlier error");
    }
    close_fd(&m->in_fd);
    /* Anything printed after the last answer means the answers were out
       of step; otherwise wait for end of output (the model exiting). */
    bool extra = m->end > m->start;
    int rc = 0;
    while (!extra && !m->out_eof) {
        struct pollfd p = { .fd = m->out_fd, .events = POLLIN };
        if (poll(&p, 1, -1) < 0) {
            if (errno == EINTR)
                continue;
            rc = tells_error_io(err, NULL, 0,
                                 "cannot wait for the model command: %s",
                                 strerror(errno));
            break;
        }
        char scratch[4096];
        ssize_t r = read(m->out_fd, scratch, sizeof scratch);
        if (r > 0)
            extra = true;
        else if (r == 0)
            m->out_eof = true;
        else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
            rc = tells_error_io(err, NULL, 0,
                                 "cannot read from the model command: %s",
                                 strerror(errno));
            break;
        }
    }
    if (rc < 0) {
        model_cmd_abort(m);
        return rc;
    }
    close_fd(&m->out_fd);
    wait_blocking(m);
    if (extra) {
        rc = tells_error_set(err, NULL, 0,
                             "the model command printed more answers than "
                             "cases");
    } else if (!WIFEXITED(m->status) || WEXITSTATUS(m->status) != 0) {
        char how[96];
        describe_status(m->status, how, sizeof how);
        rc = tells_error_io(err, NULL, 0, "the model command %s", how);
    }
    free_model(m);
    return rc;
}

void model_cmd_abort(model_cmd *m)
{
    if (!m)
        return;
    close_fd(&m->in_fd);
    close_fd(&m->out_fd);
    if (!m->reaped) {
        kill(m->pid, SIGTERM);
        reap_within(m, TERM_GRACE_MS);
        if (!m->reaped) {
            kill(m->pid, SIGKILL);
            wait_blocking(m);
        }
    }
    free_model(m);
}
