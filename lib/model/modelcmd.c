#include <config.h>
#include "model/modelcmd.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/children.h"
#include "base/utf8.h"

extern char **environ;

enum {
    WRITE_CHUNK = 1 << 16,   /* input is staged and written in this size */
    READ_CHUNK = 1 << 16,    /* room made before each read */
    STDERR_CHUNK = 4096,     /* a longer stderr line is passed on in pieces */
    LAST_LINE_SHOWN = 160,   /* bytes of the last stderr line in a message */
    COMMAND_SHOWN = 60,      /* bytes of the command in a message */
    EXIT_GRACE_MS = 500,     /* output closed: how long to wait for exit */
    TERM_GRACE_MS = 2000,    /* after SIGTERM, before SIGKILL */
    CHECK_EXIT_MS = 100      /* how often an exit is looked for while the
                                model's pipes stay open */
};

struct model_cmd {
    pid_t pid;        /* also the id of its process group */
    int in_fd;        /* our end of the model's stdin; -1 once closed */
    int out_fd;       /* our end of the model's stdout; -1 once closed */
    int err_fd;       /* our end of the model's stderr; -1 once closed */
    bool out_eof;
    bool exited;      /* its exit was seen; until it is reaped, the zombie
                         keeps the group id from being reused */
    bool reaped;      /* never signal the group after reaping */
    int exit_code;    /* once exited: its status; -1 when killed, or when
                         unknown (reaped elsewhere) */
    int exit_signal;  /* once exited: the signal that killed it, or 0 */
    bool failed;      /* killed after an error: answers out of step */
    char *buf;        /* output read but not yet claimed as answers */
    size_t cap, start, end;
    char *wbuf;       /* WRITE_CHUNK bytes of staged input */
    char errline[STDERR_CHUNK];  /* the stderr line's bytes not yet passed on */
    size_t errlen;
    bool err_mid;     /* pieces of the current stderr line were passed on */
    char err_head[LAST_LINE_SHOWN + 8];  /* its start, leading blanks skipped */
    size_t headlen;
    bool head_cut;    /* the line went on past err_head */
    char last_err[LAST_LINE_SHOWN + 4];  /* the last non-blank line, cleaned */
    char label[COMMAND_SHOWN + 32];      /* "model command 'CMD'" */
    long timeout_ms;  /* 0: none */
    model_cmd_stderr_fn on_stderr;
    void *stderr_ctx;
    size_t answered;  /* answers claimed over the run */
    size_t total;     /* cases the run will send; 0 unknown */
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
    close_fd(&m->err_fd);
    free(m->buf);
    free(m->wbuf);
    free(m);
}

static long long now_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1000LL + now.tv_nsec / 1000000L;
}

/* Copies at most max bytes of s[0..len) into dst (room for max + 4) for
   a one-line message: control characters become spaces, and the copy
   stops before invalid UTF-8 or a character that does not fit, "..."
   marking the cut. */
static void clean_copy(char *dst, const char *s, size_t len, size_t max)
{
    bool cut = false;
    size_t bad = text_invalid_offset(s, len);
    if (bad != (size_t)-1) {
        len = bad;
        cut = true;
    }
    if (len > max) {
        len = max;
        while (len > 0 && ((unsigned char)s[len] & 0xC0) == 0x80)
            len--;
        cut = true;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        dst[i] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
    }
    memcpy(dst + len, cut ? "..." : "", cut ? 4 : 1);
}

/* ---- the process ---- */

/* Notes the model's exit if it has exited, without reaping it: the
   zombie keeps its pid and group id ours, so that the group can still
   be signalled. */
static void check_exit(model_cmd *m, bool block)
{
    while (!m->exited) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        if (waitid(P_PID, (id_t)m->pid, &si, WEXITED | WNOWAIT | (block ? 0 : WNOHANG)) < 0) {
            if (errno == EINTR)
                continue;
            /* ECHILD: reaped elsewhere (SIGCHLD ignored); nothing is
               left to signal or wait for. */
            m->exited = m->reaped = true;
            m->exit_code = -1;
            children_untrack(m->pid);
            return;
        }
        if (si.si_pid == 0)
            return;  /* still running */
        m->exited = true;
        m->exit_code = si.si_code == CLD_EXITED ? si.si_status : -1;
        m->exit_signal = si.si_code == CLD_EXITED ? 0 : si.si_status;
    }
}

/* Kills whatever is left of the model's group (its own children, once
   it has exited) and reaps it. */
static void kill_and_reap(model_cmd *m)
{
    if (m->reaped)
        return;
    kill(-m->pid, SIGKILL);
    int status;
    while (waitpid(m->pid, &status, 0) < 0 && errno == EINTR)
        ;
    children_untrack(m->pid);
    if (!m->exited) {  /* only when the SIGKILL ended it */
        m->exited = true;
        m->exit_code = -1;
        m->exit_signal = SIGKILL;
    }
    m->reaped = true;
}

/* "exited with status 3", "was killed by signal 9". */
static void describe_exit(const model_cmd *m, char *buf, size_t size)
{
    if (m->exit_signal)
        snprintf(buf, size, "was killed by signal %d", m->exit_signal);
    else if (m->exit_code >= 0)
        snprintf(buf, size, "exited with status %d%s", m->exit_code,
                 m->exit_code == 127   ? " (command not found)"
                 : m->exit_code == 126 ? " (command not executable)"
                                       : "");
    else
        snprintf(buf, size, "ended (its exit status is unknown)");
}

/* ---- its stderr ---- */

/* Passes the bytes of the current line read so far on, as its last
   piece when end, and keeps the line's start; at its end, the line
   becomes the last one when it is not blank. Memory stays bounded
   (STDERR_CHUNK and err_head) whatever the line's length. */
static void stderr_piece(model_cmd *m, bool end)
{
    if (m->errlen == 0 && !(end && m->err_mid))
        return;
    if (m->on_stderr)
        m->on_stderr(m->stderr_ctx, m->errline, m->errlen, end);
    const char *s = m->errline;
    size_t n = m->errlen;
    if (m->headlen == 0)
        while (n > 0 && isspace((unsigned char)*s))
            s++, n--;
    size_t room = sizeof m->err_head - m->headlen;
    if (n > room) {
        n = room;
        m->head_cut = true;
    }
    memcpy(m->err_head + m->headlen, s, n);
    m->headlen += n;
    m->errlen = 0;
    m->err_mid = !end;
    if (end) {
        /* A cut line is longer than shown: clean_copy marks the cut. */
        size_t len = m->headlen;
        while (!m->head_cut && len > 0 && isspace((unsigned char)m->err_head[len - 1]))
            len--;
        if (len > 0)
            clean_copy(m->last_err, m->err_head, len, LAST_LINE_SHOWN);
        m->headlen = 0;
        m->head_cut = false;
    }
}

/* Reads what the model printed on stderr: one read, or (drain) until
   nothing is waiting. At its end, an unfinished line is passed on. */
static void read_stderr(model_cmd *m, bool drain)
{
    char chunk[4096];
    while (m->err_fd >= 0) {
        ssize_t r = read(m->err_fd, chunk, sizeof chunk);
        if (r > 0) {
            for (ssize_t i = 0; i < r; i++) {
                m->errline[m->errlen++] = chunk[i];
                if (chunk[i] == '\n' || chunk[i] == '\r')
                    stderr_piece(m, true);
                else if (m->errlen == STDERR_CHUNK)
                    stderr_piece(m, false);
            }
            if (!drain)
                return;
        } else if (r < 0 && errno == EINTR) {
            continue;
        } else if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        } else {  /* the end (an error reading it counts as one) */
            close_fd(&m->err_fd);
            stderr_piece(m, true);
        }
    }
}

/* Waits up to ms for the model to exit, passing its stderr on
   meanwhile; once it has, takes the rest of what it printed there. */
static void await_exit(model_cmd *m, long ms)
{
    long long start = now_ms();
    long nap = 1;
    check_exit(m, false);
    while (!m->exited) {
        long left = ms - (long)(now_ms() - start);
        if (left <= 0)
            break;
        long nap_ms = nap < left ? nap : left;
        if (m->err_fd >= 0) {
            struct pollfd p = { .fd = m->err_fd, .events = POLLIN };
            if (poll(&p, 1, (int)nap_ms) > 0)
                read_stderr(m, false);
        } else {
            struct timespec ts = { nap_ms / 1000, (nap_ms % 1000) * 1000000L };
            nanosleep(&ts, NULL);
        }
        if (nap < CHECK_EXIT_MS)
            nap *= 2;
        check_exit(m, false);
    }
    if (m->exited) {
        read_stderr(m, true);
        stderr_piece(m, true);  /* an unfinished last line counts too */
    }
}

/* Ends the model for good: its pipes closed, its group sent SIGTERM
   and, after a grace period, SIGKILL, and the process reaped. */
static void terminate(model_cmd *m)
{
    close_fd(&m->in_fd);
    close_fd(&m->out_fd);
    if (!m->reaped) {
        check_exit(m, false);
        if (!m->exited) {
            kill(-m->pid, SIGTERM);
            await_exit(m, TERM_GRACE_MS);
        }
        kill_and_reap(m);
    }
    read_stderr(m, true);
    stderr_piece(m, true);
    close_fd(&m->err_fd);
}

/* ---- messages ---- */

enum { SAY_PROGRESS = 1, SAY_STDERR = 2, SAY_BUFFERING = 4 };

/* Said when a process has answered nothing at all in time: the usual
   cause is a filter that block-buffers what it writes to a pipe. */
#define BUFFERING_HINT                                                                   \
    "; if it holds back what it writes to a pipe, it answers only when its buffer fills: " \
    "tells runs it under stdbuf -oL with PYTHONUNBUFFERED=1, which covers sed, grep and " \
    "Python, but not mawk (give it -W interactive) or a program with buffers of its " \
    "own (have it flush each line)"

/* Sets err to "model command 'CMD': WHAT[ after answering A of N
   cases][ (stderr: 'LAST LINE')]", A and N counting over the run. */
__attribute__((format(printf, 7, 8)))
static int model_error(const model_cmd *m, tells_error *err, tells_error_kind kind, int say,
                       size_t answered, size_t of, const char *fmt, ...)
{
    char what[512], progress[96] = "", tail[LAST_LINE_SHOWN + 32] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if ((say & SAY_PROGRESS) && answered == of && of > 0)
        snprintf(progress, sizeof progress, " after answering %s %zu %s",
                 of == 1 ? "its" : "all", of, of == 1 ? "case" : "cases");
    else if (say & SAY_PROGRESS)
        snprintf(progress, sizeof progress, " after answering %zu of %zu %s", answered, of,
                 of == 1 ? "case" : "cases");
    if ((say & SAY_STDERR) && m->last_err[0])
        snprintf(tail, sizeof tail, " (stderr: '%s')", m->last_err);
    return tells_error_setk(err, kind, NULL, 0, "%s: %s%s%s%s", m->label, what, progress, tail,
                            (say & SAY_BUFFERING) ? BUFFERING_HINT : "");
}

/* ---- starting ---- */

/* Keeps pipe ends off 0, 1 and 2 (when the caller closed those), so the
   child's dup2 onto 0, 1 and 2 never hits one of them. */
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

static int make_pipe(int p[2], int ours)
{
    if (pipe2(p, O_CLOEXEC) < 0 || move_high(&p[0]) < 0 || move_high(&p[1]) < 0 ||
        set_nonblock(p[ours]) < 0)
        return errno;
    return 0;
}

/* The child's environment: ours, with PYTHONUNBUFFERED=1 unless it is
   set. The strings are environ's own; only the array is new. */
static char **child_environment(void)
{
    static char unbuffered[] = "PYTHONUNBUFFERED=1";
    size_t n = 0;
    bool set = false;
    for (; environ[n]; n++)
        set = set || strncmp(environ[n], "PYTHONUNBUFFERED=", 17) == 0;
    char **envp = malloc((n + 2) * sizeof *envp);
    if (!envp)
        return NULL;
    memcpy(envp, environ, n * sizeof *envp);
    if (!set)
        envp[n++] = unbuffered;
    envp[n] = NULL;
    return envp;
}

static int spawn(model_cmd *m, const char *command, int in, int out, int errfd)
{
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    int e = posix_spawn_file_actions_init(&actions);
    if (e)
        return e;
    if (!(e = posix_spawnattr_init(&attr))) {
        e = posix_spawn_file_actions_adddup2(&actions, in, 0);
        if (!e)
            e = posix_spawn_file_actions_adddup2(&actions, out, 1);
        if (!e)
            e = posix_spawn_file_actions_adddup2(&actions, errfd, 2);
        /* A group of its own, so that killing it kills what it started
           (sh -c 'python model.py'); default SIGPIPE handling and no
           blocked signals, whatever the caller set up for itself. */
        sigset_t def, none;
        sigemptyset(&def);
        sigaddset(&def, SIGPIPE);
        sigemptyset(&none);
        if (!e)
            e = posix_spawnattr_setpgroup(&attr, 0);
        if (!e)
            e = posix_spawnattr_setsigdefault(&attr, &def);
        if (!e)
            e = posix_spawnattr_setsigmask(&attr, &none);
        if (!e)
            e = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
                                                    POSIX_SPAWN_SETSIGMASK);
        /* Line-buffered output, as coreutils' stdbuf -oL arranges for a
           program that writes through C's stdio (sed, grep, gawk) and
           PYTHONUNBUFFERED for Python, so that a filter answers each case
           as it comes instead of when its buffer fills; plain sh when
           stdbuf is not on PATH. */
        char **envp = e ? NULL : child_environment();
        if (!e && !envp)
            e = ENOMEM;
        if (!e) {
            char stdbuf[] = "stdbuf", line[] = "-oL", shell[] = "/bin/sh", sh[] = "sh",
                 dash_c[] = "-c";
            char *argv[] = { stdbuf, line, shell, dash_c, (char *)command, NULL };
            e = posix_spawnp(&m->pid, stdbuf, &actions, &attr, argv, envp);
            if (e == ENOENT) {
                argv[2] = sh;
                e = posix_spawn(&m->pid, shell, &actions, &attr, argv + 2, envp);
            }
        }
        free(envp);
        posix_spawnattr_destroy(&attr);
    }
    posix_spawn_file_actions_destroy(&actions);
    return e;
}

bool model_cmd_blank(const char *command)
{
    return command[strspn(command, " \t\n\r\v\f")] == '\0';
}

int model_cmd_start(model_cmd **out, const char *command, tells_error *err)
{
    *out = NULL;
    if (model_cmd_blank(command))
        return tells_error_usage(err, "the model command is empty");
    model_cmd *m = calloc(1, sizeof *m);
    if (m)
        m->wbuf = malloc(WRITE_CHUNK);
    if (!m || !m->wbuf) {
        free(m);
        return tells_error_nomem(err, NULL, 0);
    }
    m->in_fd = m->out_fd = m->err_fd = -1;
    m->timeout_ms = (long)(MODEL_TIMEOUT_DEFAULT * 1000);
    char shown[COMMAND_SHOWN + 4];
    clean_copy(shown, command, strlen(command), COMMAND_SHOWN);
    snprintf(m->label, sizeof m->label, "model command '%s'", shown);

    /* Every end is close-on-exec: the child gets its three ends by dup2
       (which clears the flag), and no other child inherits any. */
    int in_pipe[2] = { -1, -1 }, out_pipe[2] = { -1, -1 }, err_pipe[2] = { -1, -1 };
    int e = make_pipe(in_pipe, 1);
    if (!e)
        e = make_pipe(out_pipe, 0);
    if (!e)
        e = make_pipe(err_pipe, 0);
    /* The group is registered before a signal can end us, so that the
       handler kills it. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    if (!e)
        e = spawn(m, command, in_pipe[0], out_pipe[1], err_pipe[1]);
    if (!e && children_track(m->pid) < 0) {
        /* Too many at once: it runs unregistered, as before. */
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);

    /* The child's ends belong to the child now (or to nobody). */
    close_fd(&in_pipe[0]);
    close_fd(&out_pipe[1]);
    close_fd(&err_pipe[1]);
    m->in_fd = in_pipe[1];
    m->out_fd = out_pipe[0];
    m->err_fd = err_pipe[0];
    if (e) {
        free_model(m);
        return tells_error_io(err, NULL, 0, "cannot start the model command: %s",
                              strerror(e));
    }
    *out = m;
    return 0;
}

void model_cmd_set_options(model_cmd *m, const model_cmd_options *o)
{
    /* Capped at some 30 years, so that deadlines cannot overflow. */
    double ms = o->timeout * 1000;
    m->timeout_ms = !(ms > 0) ? 0 : ms < 1 ? 1 : ms > 1e12 ? (long)1e12 : (long)ms;
    m->on_stderr = o->on_stderr;
    m->stderr_ctx = o->stderr_ctx;
}

void model_cmd_expect(model_cmd *m, size_t total) { m->total = total; }

const char *model_cmd_label(const model_cmd *m) { return m->label; }

/* ---- a query ---- */

/* Where a query stands: lines[li] is written from byte off, staged
   bytes are wbuf[wstart, wend), answers[0..answered) are in; answer
   numbers count from before, out of `of` over the run. */
typedef struct query {
    const char *const *lines;
    char **answers;
    size_t n, li, off, len;
    size_t wstart, wend;
    size_t answered, before, of;
    bool last;           /* the run's last cases: the input ends after them */
} query;

/* Moves complete lines from the read buffer into answers until n are
   claimed; at end of output a last line without a newline counts too. */
static int claim(model_cmd *m, query *q, tells_error *err)
{
    while (q->answered < q->n && m->end > m->start) {
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
            return model_error(m, err, TELLS_ERR_DATA, 0, 0, 0,
                               "answer %zu of %zu is longer than %d bytes",
                               q->before + q->answered + 1, q->of, MODEL_ANSWER_MAX);
        /* The answer becomes a C string: what follows a NUL would be
           dropped without a word. */
        if (memchr(s, '\0', len))
            return model_error(m, err, TELLS_ERR_DATA, 0, 0, 0,
                               "answer %zu of %zu contains a NUL byte",
                               q->before + q->answered + 1, q->of);
        char *a = malloc(len + 1);
        if (!a)
            return tells_error_nomem(err, NULL, 0);
        memcpy(a, s, len);
        a[len] = '\0';
        q->answers[q->answered++] = a;
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
        return tells_error_io(err, NULL, 0, "%s: cannot read its output: %s", m->label,
                              strerror(errno));
    }
    return 0;
}

/* The model's output ended before all answers: say how it ended. */
static int ended_early(model_cmd *m, const query *q, tells_error *err)
{
    close_fd(&m->in_fd);  /* a model still reading gets EOF and can exit */
    await_exit(m, EXIT_GRACE_MS);
    size_t answered = q->before + q->answered;
    if (!m->exited)
        return model_error(m, err, TELLS_ERR_IO, SAY_PROGRESS | SAY_STDERR, answered, q->of,
                           "closed its output");
    char how[96];
    describe_exit(m, how, sizeof how);
    return model_error(m, err, TELLS_ERR_IO, SAY_PROGRESS | SAY_STDERR, answered, q->of, "%s",
                       how);
}

static void stage(model_cmd *m, query *q)
{
    q->wstart = q->wend = 0;
    while (q->wend < WRITE_CHUNK && q->li < q->n) {
        size_t k = q->len - q->off;
        if (k > WRITE_CHUNK - q->wend)
            k = WRITE_CHUNK - q->wend;
        memcpy(m->wbuf + q->wend, q->lines[q->li] + q->off, k);
        q->wend += k;
        q->off += k;
        if (q->off < q->len || q->wend == WRITE_CHUNK)
            break;
        m->wbuf[q->wend++] = '\n';
        q->off = 0;
        if (++q->li < q->n)
            q->len = strlen(q->lines[q->li]);
    }
}

static int query_io(model_cmd *m, query *q, tells_error *err)
{
    q->len = strlen(q->lines[0]);
    long long since = now_ms();  /* the query's start, or its last answer */
    if (claim(m, q, err) < 0)
        return -1;
    for (;;) {
        bool writing = m->in_fd >= 0 && (q->wstart < q->wend || q->li < q->n);
        if (!writing && q->last)
            close_fd(&m->in_fd);  /* nothing more will come: the input ends */
        if (q->answered == q->n && !writing)
            return 0;
        if (q->answered < q->n && m->out_eof)
            return ended_early(m, q, err);

        /* Keep reading even after the last answer while input remains,
           so a model printing extra lines cannot block us both; and
           read its stderr, so that it cannot block on that either. */
        struct pollfd p[3];
        int np = 0, wi = -1, ri = -1, ei = -1;
        if (writing) {
            p[np] = (struct pollfd){ .fd = m->in_fd, .events = POLLOUT };
            wi = np++;
        }
        if (!m->out_eof) {
            p[np] = (struct pollfd){ .fd = m->out_fd, .events = POLLIN };
            ri = np++;
        }
        if (m->err_fd >= 0) {
            p[np] = (struct pollfd){ .fd = m->err_fd, .events = POLLIN };
            ei = np++;
        }
        int wait_ms = -1;
        if (m->timeout_ms > 0) {
            long long left = since + m->timeout_ms - now_ms();
            if (left <= 0)
                return model_error(m, err, TELLS_ERR_IO,
                                   SAY_PROGRESS | SAY_STDERR |
                                       (q->before + q->answered == 0 ? SAY_BUFFERING : 0),
                                   q->before + q->answered, q->of, "no answer within %g s",
                                   m->timeout_ms / 1000.0);
            wait_ms = left > INT_MAX ? INT_MAX : (int)left;
        }
        int ready = poll(p, (nfds_t)np, wait_ms);
        if (ready < 0 && errno != EINTR)
            return tells_error_io(err, NULL, 0, "%s: cannot wait for it: %s", m->label,
                                  strerror(errno));
        if (ready <= 0)
            continue;  /* the deadline is checked above */
        if (wi >= 0 && p[wi].revents) {
            if (q->wstart == q->wend)
                stage(m, q);
            ssize_t r = write(m->in_fd, m->wbuf + q->wstart, q->wend - q->wstart);
            if (r >= 0) {
                q->wstart += (size_t)r;
            } else if (errno == EPIPE) {
                /* The model stopped reading (it exited, most likely):
                   collect what it printed, then say how it ended. */
                close_fd(&m->in_fd);
            } else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
                return model_error(m, err, TELLS_ERR_IO, SAY_PROGRESS | SAY_STDERR,
                                   q->before + q->answered, q->of,
                                   "cannot write its input: %s", strerror(errno));
            }
        }
        if (ri >= 0 && p[ri].revents) {
            size_t had = q->answered;
            if (read_some(m, err) < 0 || claim(m, q, err) < 0)
                return -1;
            if (q->answered > had)
                since = now_ms();
        }
        if (ei >= 0 && p[ei].revents)
            read_stderr(m, false);
    }
}

int model_cmd_query(model_cmd *m, const char *const *lines, size_t n,
                    char **answers, tells_error *err)
{
    for (size_t i = 0; i < n; i++)
        answers[i] = NULL;
    query q = { .lines = lines, .answers = answers, .n = n, .before = m->answered };
    q.of = m->total > q.before + n ? m->total : q.before + n;
    q.last = m->total && q.before + n >= m->total;
    if (m->failed)
        return model_error(m, err, TELLS_ERR_IO, 0, 0, 0,
                           "cannot be used after an earlier error");
    for (size_t i = 0; i < n; i++)
        if (strpbrk(lines[i], "\r\n"))
            return tells_error_usage(err, "case %zu of %zu contains a line break",
                                     q.before + i + 1, q.of);
    if (n == 0)
        return 0;
    if (m->in_fd < 0) {
        if (m->total && q.before >= m->total)
            return tells_error_usage(err, "%s: more cases than the %zu announced", m->label,
                                     m->total);
        m->failed = true;
        terminate(m);
        return model_error(m, err, TELLS_ERR_IO, SAY_PROGRESS | SAY_STDERR, q.before, q.of,
                           "stopped reading its input");
    }

    /* A write to a model that exited must come back as EPIPE rather
       than kill us; the caller's handling is put back afterwards. */
    struct sigaction ignore, saved;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &saved);
    int rc = query_io(m, &q, err);
    sigaction(SIGPIPE, &saved, NULL);

    if (rc < 0) {
        for (size_t i = 0; i < n; i++) {
            free(answers[i]);
            answers[i] = NULL;
        }
        m->failed = true;
        terminate(m);
    } else {
        m->answered += n;
    }
    return rc;
}

int model_cmd_finish(model_cmd *m, tells_error *err)
{
    if (!m)
        return 0;
    if (m->failed) {
        model_error(m, err, TELLS_ERR_IO, 0, 0, 0, "cannot be used after an earlier error");
        model_cmd_abort(m);
        return -1;
    }
    close_fd(&m->in_fd);
    size_t of = m->total > m->answered ? m->total : m->answered;
    /* Anything printed after the last answer means the answers were out
       of step; otherwise wait for the end of its output and its exit. */
    bool extra = m->end > m->start;
    long long since = now_ms();
    int rc = 0;
    while (!extra && rc == 0) {
        check_exit(m, false);
        if (m->exited || (m->out_eof && m->err_fd < 0))
            break;
        int wait_ms = CHECK_EXIT_MS;
        if (m->timeout_ms > 0) {
            long long left = since + m->timeout_ms - now_ms();
            if (left <= 0) {
                rc = model_error(m, err, TELLS_ERR_IO, SAY_STDERR, 0, 0,
                                 "did not exit within %g s of the end of its input",
                                 m->timeout_ms / 1000.0);
                break;
            }
            wait_ms = left < wait_ms ? (int)left : wait_ms;
        }
        struct pollfd p[2];
        int np = 0, ri = -1, ei = -1;
        if (!m->out_eof) {
            p[np] = (struct pollfd){ .fd = m->out_fd, .events = POLLIN };
            ri = np++;
        }
        if (m->err_fd >= 0) {
            p[np] = (struct pollfd){ .fd = m->err_fd, .events = POLLIN };
            ei = np++;
        }
        if (poll(p, (nfds_t)np, wait_ms) <= 0)
            continue;
        if (ri >= 0 && p[ri].revents) {
            char scratch[4096];
            ssize_t r = read(m->out_fd, scratch, sizeof scratch);
            if (r > 0) {
                extra = true;
            } else if (r == 0) {
                m->out_eof = true;
                close_fd(&m->out_fd);
            } else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
                rc = tells_error_io(err, NULL, 0, "%s: cannot read its output: %s", m->label,
                                    strerror(errno));
            }
        }
        if (ei >= 0 && p[ei].revents)
            read_stderr(m, false);
    }
    if (rc == 0 && !extra && !m->exited) {
        /* Its pipes are closed: the exit follows, or it lingers. */
        if (m->timeout_ms > 0) {
            long left = (long)(since + m->timeout_ms - now_ms());
            await_exit(m, left > 0 ? left : 0);
        } else {
            check_exit(m, true);
        }
        if (!m->exited)
            rc = model_error(m, err, TELLS_ERR_IO, SAY_STDERR, 0, 0,
                             "did not exit within %g s of the end of its input",
                             m->timeout_ms / 1000.0);
    }
    if (rc == 0 && !extra && m->out_fd >= 0) {
        /* It exited; a line it printed last may still be in the pipe. */
        char c;
        extra = read(m->out_fd, &c, 1) == 1;
    }
    if (rc == 0 && extra) {
        rc = model_error(m, err, TELLS_ERR_DATA, 0, 0, 0,
                         "printed more lines than the %zu %s it was given", of,
                         of == 1 ? "case" : "cases");
    } else if (rc == 0) {
        read_stderr(m, true);
        stderr_piece(m, true);
        if (m->exit_signal || m->exit_code > 0) {
            char how[96];
            describe_exit(m, how, sizeof how);
            rc = model_error(m, err, TELLS_ERR_IO, SAY_PROGRESS | SAY_STDERR, m->answered, of,
                             "%s", how);
        }
    }
    terminate(m);
    free_model(m);
    return rc;
}

void model_cmd_abort(model_cmd *m)
{
    if (!m)
        return;
    terminate(m);
    free_model(m);
}
