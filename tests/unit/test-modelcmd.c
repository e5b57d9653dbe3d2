/* The model command runner: many lines through cat (which needs reading
   and writing at once), line-at-a-time models, models that die, exit
   non-zero, are missing, print too much, hang or linger, their stderr,
   counts over a run, the process group, and the line checks. */
#include <config.h>

#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "model/modelcmd.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void free_all(char **answers, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(answers[i]);
}

static bool all_null(char **answers, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (answers[i])
            return false;
    return true;
}

static int open_fds(void)
{
    int count = 0;
    for (int fd = 0; fd < 256; fd++)
        if (fcntl(fd, F_GETFD) >= 0)
            count++;
    return count;
}

static tells_error err;

/* Queries n lines; returns the error message, or "" on success (err
   keeps the error). */
static const char *run_failing(const char *command, size_t n)
{
    static const char *five[] = { "a", "b", "c", "d", "e" };
    const char **lines = malloc(n * sizeof *lines);
    char **answers = malloc(n * sizeof *answers);
    for (size_t i = 0; i < n; i++)
        lines[i] = five[i % 5];
    model_cmd *m;
    tells_error_clear(&err);
    CHECK(model_cmd_start(&m, command, &err) == 0);
    if (model_cmd_query(m, lines, n, answers, &err) == 0) {
        free_all(answers, n);
        err.msg[0] = '\0';
    } else {
        CHECK(all_null(answers, n));
        CHECK(err.file[0] == '\0' && err.line == 0);
    }
    model_cmd_abort(m);
    free(lines);
    free(answers);
    return err.msg;
}

/* 100000 lines (some empty, a few longer than the write chunk) through
   cat: in one query, then in several on the same process. */
static void cat_many(void)
{
    enum { N = 100000 };
    char **lines = malloc(N * sizeof *lines);
    char **answers = malloc(N * sizeof *answers);
    for (size_t i = 0; i < N; i++) {
        if (i % 25000 == 3) {
            lines[i] = malloc(200001);
            memset(lines[i], 'a' + i % 26, 200000);
            lines[i][200000] = '\0';
        } else {
            lines[i] = malloc(32);
            snprintf(lines[i], 32, i % 7 == 0 ? "" : "case %zu", i);
        }
    }
    bool was_open[256];
    for (int fd = 0; fd < 256; fd++)
        was_open[fd] = fcntl(fd, F_GETFD) >= 0;
    int fds = open_fds();
    model_cmd *m;
    tells_error err;
    CHECK(model_cmd_start(&m, "cat", &err) == 0);
    /* Only our three pipe ends are new, and all are close-on-exec. */
    CHECK(open_fds() == fds + 3);
    for (int fd = 0; fd < 256; fd++) {
        int flags = fcntl(fd, F_GETFD);
        if (flags >= 0 && !was_open[fd])
            CHECK(flags & FD_CLOEXEC);
    }

    double t0 = now();
    CHECK(model_cmd_query(m, (const char *const *)lines, N, answers,
                          &err) == 0);
    double t1 = now();
    size_t bad = 0;
    for (size_t i = 0; i < N; i++)
        bad += !answers[i] || strcmp(answers[i], lines[i]) != 0;
    CHECK(bad == 0);
    free_all(answers, N);
    CHECK(t1 - t0 < 10.0);  /* well under a second unsanitized */
    if (getenv("MODELCMD_TIMING"))
        fprintf(stderr, "cat: %d lines in %.3f s\n", N, t1 - t0);

    static const size_t sizes[] = { 1, 9999, 40000, 50000 };
    size_t at = 0;
    for (size_t q = 0; q < sizeof sizes / sizeof *sizes; q++) {
        CHECK(model_cmd_query(m, (const char *const *)lines + at, sizes[q],
                              answers + at, &err) == 0);
        at += sizes[q];
    }
    CHECK(at == N);
    bad = 0;
    for (size_t i = 0; i < N; i++)
        bad += !answers[i] || strcmp(answers[i], lines[i]) != 0;
    CHECK(bad == 0);
    free_all(answers, N);

    CHECK(model_cmd_query(m, NULL, 0, answers, &err) == 0);
    CHECK(model_cmd_finish(m, &err) == 0);
    CHECK(open_fds() == fds);  /* nothing leaked */
    for (size_t i = 0; i < N; i++)
        free(lines[i]);
    free(lines);
    free(answers);
}

/* Models that answer each line as they read it, one case per query:
   nothing waits for end of input. */
static void line_at_a_time(void)
{
    model_cmd *m;
    tells_error err;
    char *answer;
    char line[32];
    CHECK(model_cmd_start(&m, "while IFS= read -r l; do printf '%s!\\n' "
                              "\"$l\"; done", &err) == 0);
    for (int i = 0; i < 20; i++) {
        snprintf(line, sizeof line, "q %d \\", i);
        const char *one = line;
        CHECK(model_cmd_query(m, &one, 1, &answer, &err) == 0);
        char want[40];
        snprintf(want, sizeof want, "q %d \\!", i);
        CHECK(answer && strcmp(answer, want) == 0);
        free(answer);
    }
    CHECK(model_cmd_finish(m, &err) == 0);

    /* An uppercasing filter that flushes every line. (mawk's
       "awk '{print toupper($0); fflush()}'" would not do: it fills its
       input buffer before it answers.) */
    CHECK(model_cmd_start(&m, "sed -u "
                              "'y/abcdefghijklmnopqrstuvwxyz/"
                              "ABCDEFGHIJKLMNOPQRSTUVWXYZ/'", &err) == 0);
    const char *one = "Hello, world";
    CHECK(model_cmd_query(m, &one, 1, &answer, &err) == 0);
    CHECK_STR(answer ? answer : "(null)", "HELLO, WORLD");
    free(answer);
    enum { N = 5000 };
    char **lines = malloc(N * sizeof *lines);
    char **answers = malloc(N * sizeof *answers);
    for (size_t i = 0; i < N; i++) {
        lines[i] = malloc(32);
        snprintf(lines[i], 32, "line %zu abc", i);
    }
    CHECK(model_cmd_query(m, (const char *const *)lines, N, answers,
                          &err) == 0);
    size_t bad = 0;
    for (size_t i = 0; i < N; i++) {
        char want[32];
        snprintf(want, sizeof want, "LINE %zu ABC", i);
        bad += !answers[i] || strcmp(answers[i], want) != 0;
    }
    CHECK(bad == 0);
    free_all(answers, N);
    CHECK(model_cmd_finish(m, &err) == 0);
    for (size_t i = 0; i < N; i++)
        free(lines[i]);
    free(lines);
    free(answers);
}

static void failures(void)
{
    CHECK_STR(run_failing("head -n 2", 5),
              "model command 'head -n 2': exited with status 0 after answering 2 of 5 cases");
    /* Far more input than the pipe holds: writes fail with EPIPE (and
       SIGPIPE must not kill us). */
    CHECK_STR(run_failing("head -n 2", 100000),
              "model command 'head -n 2': exited with status 0 after answering 2 of 100000 "
              "cases");
    CHECK_STR(run_failing("exit 3", 5),
              "model command 'exit 3': exited with status 3 after answering 0 of 5 cases");
    CHECK(err.kind == TELLS_ERR_IO);
    CHECK_STR(run_failing("exec 2>/dev/null; no-such-tells-model-command", 5),
              "model command 'exec 2>/dev/null; no-such-tells-model-command': exited with "
              "status 127 (command not found) after answering 0 of 5 cases");
    /* The shell's own complaint is the last stderr line. */
    CHECK(strstr(run_failing("no-such-tells-model-command", 5),
                 "(command not found) after answering 0 of 5 cases (stderr: '"));
    CHECK_STR(run_failing("read l; kill -9 $$", 1),
              "model command 'read l; kill -9 $$': was killed by signal 9 after answering 0 "
              "of 1 case");
    CHECK_STR(run_failing("read l; echo one; read l; kill -9 $$", 2),
              "model command 'read l; echo one; read l; kill -9 $$': was killed by signal 9 "
              "after answering 1 of 2 cases");
    double t0 = now();
    CHECK_STR(run_failing("exec >&-; exec sleep 30", 2),
              "model command 'exec >&-; exec sleep 30': closed its output after answering 0 "
              "of 2 cases");
    CHECK(now() - t0 < 5.0);  /* abort killed the sleep */
    CHECK_STR(run_failing("read l; head -c 1100000 /dev/zero | tr '\\0' x; echo", 1),
              "model command 'read l; head -c 1100000 /dev/zero | tr '\\0' x; echo': answer 1 "
              "of 1 is longer than 1048576 bytes");
    CHECK(err.kind == TELLS_ERR_DATA);
    /* A NUL byte would cut the answer short without a word. */
    CHECK_STR(run_failing("read l; printf '0\\000garbage\\n'", 1),
              "model command 'read l; printf '0\\000garbage\\n'': answer 1 of 1 contains a "
              "NUL byte");
    CHECK(err.kind == TELLS_ERR_DATA);

    /* SIGPIPE handling is put back after each query. */
    struct sigaction sa;
    CHECK(sigaction(SIGPIPE, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL);

    /* After a failed query the model is out of step: no more queries. */
    model_cmd *m;
    tells_error err;
    const char *lines[] = { "a", "b", "c" };
    char *answers[3];
    CHECK(model_cmd_start(&m, "head -n 1", &err) == 0);
    CHECK(model_cmd_query(m, lines, 3, answers, &err) < 0);
    CHECK(model_cmd_query(m, lines, 1, answers, &err) < 0);
    CHECK_STR(err.msg, "model command 'head -n 1': cannot be used after an earlier error");
    CHECK(answers[0] == NULL);
    CHECK(model_cmd_finish(m, &err) < 0);

    /* Exit status checked by finish once all answers are in. */
    CHECK(model_cmd_start(&m, "cat; exit 4", &err) == 0);
    CHECK(model_cmd_query(m, lines, 3, answers, &err) == 0);
    free_all(answers, 3);
    CHECK(model_cmd_finish(m, &err) < 0);
    CHECK_STR(err.msg,
              "model command 'cat; exit 4': exited with status 4 after answering all 3 cases");

    model_cmd_abort(NULL);

    /* No command: a usage error, nothing started. */
    m = (model_cmd *)&err;
    CHECK(model_cmd_start(&m, " \t", &err) < 0 && m == NULL);
    CHECK(err.kind == TELLS_ERR_USAGE);
    CHECK_STR(err.msg, "the model command is empty");
    CHECK(model_cmd_start(&m, "", &err) < 0 && m == NULL);
}

static void extra_output(void)
{
    model_cmd *m;
    tells_error err;
    const char *one = "x";
    char *answer;
    /* Two lines per case. */
    CHECK(model_cmd_start(&m, "sed -u p", &err) == 0);
    CHECK(model_cmd_query(m, &one, 1, &answer, &err) == 0);
    CHECK_STR(answer ? answer : "(null)", "x");
    free(answer);
    CHECK(model_cmd_finish(m, &err) < 0);
    CHECK_STR(err.msg, "model command 'sed -u p': printed more lines than the 1 case it was "
                       "given");
    CHECK(err.file[0] == '\0' && err.line == 0);

    /* A line printed only at end of input. */
    CHECK(model_cmd_start(&m, "cat; echo extra", &err) == 0);
    CHECK(model_cmd_query(m, &one, 1, &answer, &err) == 0);
    free(answer);
    CHECK(model_cmd_finish(m, &err) < 0);
    CHECK_STR(err.msg, "model command 'cat; echo extra': printed more lines than the 1 case "
                       "it was given");
}

static void line_ends(void)
{
    model_cmd *m;
    tells_error err;
    char *answers[3] = { NULL, NULL, NULL };
    CHECK(model_cmd_start(&m, "cat", &err) == 0);
    const char *bad[] = { "ok", "two\nlines", "ok" };
    CHECK(model_cmd_query(m, bad, 3, answers, &err) < 0);
    CHECK_STR(err.msg, "case 2 of 3 contains a line break");
    CHECK(err.kind == TELLS_ERR_USAGE);
    CHECK(all_null(answers, 3));
    const char *cr[] = { "carriage\rreturn" };
    CHECK(model_cmd_query(m, cr, 1, answers, &err) < 0);
    CHECK_STR(err.msg, "case 1 of 1 contains a line break");
    /* A rejected query sent nothing: the model is still in step. */
    const char *good[] = { "still", "fine" };
    CHECK(model_cmd_query(m, good, 2, answers, &err) == 0);
    CHECK_STR(answers[0] ? answers[0] : "(null)", "still");
    CHECK_STR(answers[1] ? answers[1] : "(null)", "fine");
    free_all(answers, 2);
    CHECK(model_cmd_finish(m, &err) == 0);

    /* CRLF answers lose the CR; only one CR is taken. */
    CHECK(model_cmd_start(&m, "while IFS= read -r l; do printf '%s\\r\\n' "
                              "\"$l\"; done", &err) == 0);
    const char *three[] = { "one", "", "three" };
    CHECK(model_cmd_query(m, three, 3, answers, &err) == 0);
    CHECK_STR(answers[0] ? answers[0] : "(null)", "one");
    CHECK_STR(answers[1] ? answers[1] : "(null)", "");
    CHECK_STR(answers[2] ? answers[2] : "(null)", "three");
    free_all(answers, 3);
    CHECK(model_cmd_finish(m, &err) == 0);

    /* A last answer without a newline still counts; an answer of exactly
       the limit is accepted. */
    CHECK(model_cmd_start(&m, "read l; head -c 1048576 /dev/zero | "
                              "tr '\\0' y", &err) == 0);
    CHECK(model_cmd_query(m, three, 1, answers, &err) == 0);
    CHECK(answers[0] && strlen(answers[0]) == 1048576 &&
          answers[0][0] == 'y' && answers[0][1048575] == 'y');
    free(answers[0]);
    CHECK(model_cmd_finish(m, &err) == 0);
}


/* The model's stderr as the callback got it: the pieces joined, each
   followed by '|' when it ends a line and '+' when the line goes on; the
   pieces' lengths the same way; and how many bytes came in all. */
static char seen[8192], shape[1024];
static size_t seen_bytes;

static void collect(void *ctx, const char *text, size_t len, bool line_end)
{
    (void)ctx;
    seen_bytes += len;
    size_t have = strlen(seen);
    if (have + len + 2 < sizeof seen) {
        memcpy(seen + have, text, len);
        seen[have + len] = line_end ? '|' : '+';
        seen[have + len + 1] = '\0';
    }
    have = strlen(shape);
    snprintf(shape + have, sizeof shape - have, "%zu%c", len, line_end ? '|' : '+');
}

/* Starts command with a timeout of seconds and stderr collected. */
static model_cmd *start(const char *command, double seconds)
{
    model_cmd *m = NULL;
    tells_error_clear(&err);
    CHECK(model_cmd_start(&m, command, &err) == 0);
    model_cmd_options o = { seconds, collect, NULL };
    model_cmd_set_options(m, &o);
    seen[0] = shape[0] = '\0';
    seen_bytes = 0;
    return m;
}

/* Whether process pid has gone (or is a zombie, which its new parent
   reaps). */
static bool gone(long pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", pid);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return true;
    bool zombie = false;
    while (fgets(line, sizeof line, fp))
        if (strncmp(line, "State:", 6) == 0)
            zombie = strchr(line, 'Z') != NULL;
    fclose(fp);
    return zombie;
}

static void timeouts(void)
{
    const char *lines[] = { "a", "b", "c", "d" };
    char *answers[4];

    /* Never answers: killed after the timeout, with what it said. */
    model_cmd *m = start("echo 'loading weights' >&2; exec sleep 30", 0.3);
    double t0 = now();
    CHECK(model_cmd_query(m, lines, 2, answers, &err) < 0);
    CHECK(now() - t0 < 3.0);
    CHECK(err.kind == TELLS_ERR_IO);
    CHECK_STR(err.msg, "model command 'echo 'loading weights' >&2; exec sleep 30': no answer "
                       "within 0.3 s after answering 0 of 2 cases (stderr: 'loading weights'); "
                       "if it holds back what it writes to a pipe, it answers only when its "
                       "buffer fills: tells runs it under stdbuf -oL with PYTHONUNBUFFERED=1, "
                       "which covers sed, grep and Python, but not mawk (give it -W "
                       "interactive) or a program with buffers of its own (have it flush each "
                       "line)");
    CHECK_STR(seen, "loading weights\n|");
    CHECK(all_null(answers, 2));
    CHECK(model_cmd_finish(m, &err) < 0);
    CHECK_STR(err.msg, "model command 'echo 'loading weights' >&2; exec sleep 30': cannot be "
                       "used after an earlier error");

    /* The timeout runs from the last answer: slow answers are fine. */
    m = start("while read -r l; do sleep 0.2; echo \"$l\"; done", 0.5);
    CHECK(model_cmd_query(m, lines, 4, answers, &err) == 0);
    CHECK_STR(answers[3] ? answers[3] : "(null)", "d");
    free_all(answers, 4);
    CHECK(model_cmd_finish(m, &err) == 0);

    /* Reads everything before answering: it hangs unless the query
       holds the run's last case, after which its input ends. */
    m = start("sort -r", 0.3);
    model_cmd_expect(m, 4);
    CHECK(model_cmd_query(m, lines, 2, answers, &err) < 0);
    CHECK_STR(err.msg, "model command 'sort -r': no answer within 0.3 s after answering 0 of "
                       "4 cases; if it holds back what it writes to a pipe, it answers only "
                       "when its buffer fills: tells runs it under stdbuf -oL with "
                       "PYTHONUNBUFFERED=1, which covers sed, grep and Python, but not mawk "
                       "(give it -W interactive) or a program with buffers of its own (have "
                       "it flush each line)");
    model_cmd_abort(m);
    m = start("sort -r", 0.3);
    model_cmd_expect(m, 4);
    CHECK(model_cmd_query(m, lines, 4, answers, &err) == 0);
    CHECK_STR(answers[0] ? answers[0] : "(null)", "d");
    free_all(answers, 4);
    CHECK(model_cmd_finish(m, &err) == 0);

    /* One answer per two cases: an early exit once its input ends. */
    m = start("sed -u -n 'n;p'", 0.3);
    model_cmd_expect(m, 4);
    CHECK(model_cmd_query(m, lines, 4, answers, &err) < 0);
    CHECK_STR(err.msg, "model command 'sed -u -n 'n;p'': exited with status 0 after answering "
                       "2 of 4 cases");
    model_cmd_abort(m);

    /* Answers everything but does not exit. */
    m = start("sed -u 's/^/ok /'; sleep 30", 0.3);
    CHECK(model_cmd_query(m, lines, 4, answers, &err) == 0);
    free_all(answers, 4);
    t0 = now();
    CHECK(model_cmd_finish(m, &err) < 0);
    CHECK(now() - t0 < 3.0);
    CHECK_STR(err.msg, "model command 'sed -u 's/^/ok /'; sleep 30': did not exit within 0.3 s "
                       "of the end of its input");

    /* No timeout: a slow model is waited for. */
    m = start("sleep 0.5; cat", 0);
    CHECK(model_cmd_query(m, lines, 1, answers, &err) == 0);
    free_all(answers, 1);
    CHECK(model_cmd_finish(m, &err) == 0);
}

static void process_group(void)
{
    /* The shell's child dies with it, and nothing is left behind. */
    char pidfile[] = "/tmp/test-modelcmd-XXXXXX";
    int fd = mkstemp(pidfile);
    CHECK(fd >= 0);
    close(fd);
    char command[256];
    snprintf(command, sizeof command, "sleep 30 & echo $! >%s; wait", pidfile);
    const char *one = "x";
    char *answer;
    model_cmd *m = start(command, 0.3);
    CHECK(model_cmd_query(m, &one, 1, &answer, &err) < 0);
    FILE *fp = fopen(pidfile, "r");
    long pid = 0;
    CHECK(fp && fscanf(fp, "%ld", &pid) == 1);
    if (fp)
        fclose(fp);
    unlink(pidfile);
    struct timespec nap = { 0, 100 * 1000000L };
    for (int i = 0; i < 20 && pid > 0 && !gone(pid); i++)
        nanosleep(&nap, NULL);
    CHECK(pid > 0 && gone(pid));
    model_cmd_abort(m);

    /* SIGTERM ignored: SIGKILL follows. */
    double t0 = now();
    m = start("trap '' TERM; sleep 30", 0.2);
    CHECK(model_cmd_query(m, &one, 1, &answer, &err) < 0);
    CHECK(now() - t0 < 5.0);
    model_cmd_abort(m);
}

static void stderr_lines(void)
{
    const char *lines[] = { "a", "b", "c" };
    char *answers[3];

    /* Passed on line by line; the last non-blank one is quoted, trimmed. */
    model_cmd *m = start("read l; printf 'one\\ntwo\\r  three  \\n\\n' >&2; "
                         "echo \"Traceback: KeyError: 'x'\" >&2; exit 1", 0);
    CHECK(model_cmd_query(m, lines, 3, answers, &err) < 0);
    CHECK_STR(seen, "one\n|two\r|  three  \n|\n|Traceback: KeyError: 'x'\n|");
    CHECK(strstr(err.msg, "exited with status 1 after answering 0 of 3 cases (stderr: "
                          "'Traceback: KeyError: 'x'')"));
    model_cmd_abort(m);

    /* An unfinished last line counts; a long or odd one is cleaned. */
    m = start("printf 'no newline' >&2; exit 2", 0);
    CHECK(model_cmd_query(m, lines, 1, answers, &err) < 0);
    CHECK_STR(seen, "no newline|");
    CHECK_STR(err.msg, "model command 'printf 'no newline' >&2; exit 2': exited with status 2 "
                       "after answering 0 of 1 case (stderr: 'no newline')");
    model_cmd_abort(m);
    m = start("printf 'a\\tb\\033[0m\\n' >&2; exit 1", 0);
    CHECK(model_cmd_query(m, lines, 1, answers, &err) < 0);
    CHECK(strstr(err.msg, "(stderr: 'a b [0m')"));
    model_cmd_abort(m);
    m = start("head -c 5000 /dev/zero | tr '\\0' e >&2; exit 1", 0);
    CHECK(model_cmd_query(m, lines, 1, answers, &err) < 0);
    char want[256];
    memset(want, 'e', 160);
    snprintf(want + 160, sizeof want - 160, "...')");
    CHECK(strstr(err.msg, want));
    /* 5000 bytes came as pieces of at most 4096, one line: the last
       piece, unfinished, ends it. */
    CHECK(strlen(seen) == 5002 && seen[4096] == '+' && seen[5001] == '|');
    CHECK_STR(shape, "4096+904|");
    model_cmd_abort(m);

    /* Lines of any length stay whole: pieces of one line are marked as
       such; the last line in a message is its start, not its tail. */
    m = start("exec 1>&2; printf 'start'; head -c 10000 /dev/zero | tr '\\0' e; "
              "printf ' end\\n'; exit 1", 0);
    CHECK(model_cmd_query(m, lines, 1, answers, &err) < 0);
    CHECK_STR(shape, "4096+4096+1818|");
    CHECK(seen_bytes == 10010);
    memcpy(want, "start", 5);
    memset(want + 5, 'e', 155);
    snprintf(want + 160, sizeof want - 160, "...')");
    CHECK(strstr(err.msg, want));
    model_cmd_abort(m);
    /* An unfinished last line of exactly one piece ends with an empty
       one. */
    m = start("head -c 4096 /dev/zero | tr '\\0' e >&2; exit 1", 0);
    CHECK(model_cmd_query(m, lines, 1, answers, &err) < 0);
    CHECK_STR(shape, "4096+0|");
    model_cmd_abort(m);

    /* A model with much to say on stderr is not blocked by it. */
    m = start("head -c 1000000 /dev/zero | tr '\\0' '\\n' >&2; cat", 5);
    CHECK(model_cmd_query(m, lines, 3, answers, &err) == 0);
    free_all(answers, 3);
    CHECK(model_cmd_finish(m, &err) == 0);
    CHECK(seen_bytes == 1000000);

    /* Without a callback the lines are only kept for messages. */
    tells_error_clear(&err);
    CHECK(model_cmd_start(&m, "echo quiet >&2; exit 5", &err) == 0);
    CHECK(model_cmd_query(m, lines, 1, answers, &err) < 0);
    CHECK(strstr(err.msg, "(stderr: 'quiet')"));
    model_cmd_abort(m);
}

static void over_the_run(void)
{
    const char *lines[] = { "a", "b", "c" };
    char *answers[3];

    /* Counts run over queries, out of the announced total. */
    model_cmd *m = start("for i in 1 2 3 4; do read -r l; echo \"$l\"; done; exit 5", 0);
    model_cmd_expect(m, 9);
    CHECK(model_cmd_query(m, lines, 3, answers, &err) == 0);
    free_all(answers, 3);
    CHECK(model_cmd_query(m, lines, 3, answers, &err) < 0);
    CHECK_STR(err.msg, "model command 'for i in 1 2 3 4; do read -r l; echo \"$l\"; done; "
                       "exit 5': exited with status 5 after answering 4 of 9 cases");
    model_cmd_abort(m);

    /* A long command is shortened, at a character. */
    m = start("exit 6 # ééééééééééééééééééééééééééééééééééééééé", 0);
    CHECK(model_cmd_query(m, lines, 1, answers, &err) < 0);
    CHECK_STR(err.msg, "model command 'exit 6 # ééééééééééééééééééééééééé...': exited with status "
                       "6 after answering 0 of 1 case");
    model_cmd_abort(m);

    /* Answer numbers too; and no more cases than announced. */
    m = start("sed -u '2s/.*/x/'", 0);
    model_cmd_expect(m, 4);
    CHECK(model_cmd_query(m, lines, 2, answers, &err) == 0);
    free_all(answers, 2);
    const char *bad[] = { "ok", "two\nlines" };
    CHECK(model_cmd_query(m, bad, 2, answers, &err) < 0);
    CHECK_STR(err.msg, "case 4 of 4 contains a line break");
    CHECK(model_cmd_query(m, lines, 2, answers, &err) == 0);
    free_all(answers, 2);
    CHECK(model_cmd_query(m, lines, 1, answers, &err) < 0);
    CHECK(err.kind == TELLS_ERR_USAGE);
    CHECK_STR(err.msg, "model command 'sed -u '2s/.*/x/'': more cases than the 4 announced");
    CHECK(model_cmd_finish(m, &err) == 0);
}

int main(void)
{
    cat_many();
    line_at_a_time();
    failures();
    extra_output();
    line_ends();
    timeouts();
    process_group();
    stderr_lines();
    over_the_run();
    CHECK_DONE();
}
