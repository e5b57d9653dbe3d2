#include <config.h>
#include "cli.h"
#include "text/redact.h"

#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "base/children.h"
#include "base/tempfile.h"

static const char *program = "tells";

/* OpenBLAS starts a pool of threads, one per processor the process may
   run on, when it is loaded, before main; they spin in sched_yield while
   they wait for work, and tells never gives them any (BLAS runs on
   tells's own threads, one call each: model/logreg.h). On the 2-CPU
   development machine the pool cost every program 7 ms of start-up and
   its spinning a tenth of a CPU second; tells-pairs on SNLI dev ten times
   over spent a third of its CPU time on it. So the program's
   .preinit_array, which runs before any library is initialised (the ELF
   gABI), lets the process run on one processor while OpenBLAS sizes its
   pool, and the program's own initialiser, which runs after every
   library's, gives the processors back before main: the program's
   threads and the commands it runs have them all. */
static cpu_set_t cpus_given;
static int cpus_narrowed;

static void one_cpu_for_blas(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)argv;
    (void)envp;
    if (sched_getaffinity(0, sizeof cpus_given, &cpus_given) != 0 ||
        CPU_COUNT(&cpus_given) < 2)
        return;
    int cpu = sched_getcpu();
    if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &cpus_given))
        for (cpu = 0; !CPU_ISSET(cpu, &cpus_given); cpu++)
            ;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    cpus_narrowed = sched_setaffinity(0, sizeof one, &one) == 0;
}

__attribute__((used, section(".preinit_array")))
static void (*const preinit_one_cpu_for_blas)(int, char **, char **) = one_cpu_for_blas;

__attribute__((constructor)) static void cpus_back(void)
{
    if (cpus_narrowed && sched_setaffinity(0, sizeof cpus_given, &cpus_given) == 0)
        cpus_narrowed = 0;
}

/* A signal that ends the program first removes its temporary files,
   then ends it as the signal would have. */
static void remove_temporaries(int sig)
{
    children_kill_all();
    temp_remove_all();
    raise(sig);   /* SA_RESETHAND restored the default action */
}

static void remove_temporaries_at_exit(void)
{
    children_kill_all();
    temp_remove_all();
}

void cli_init(char **argv, const char *program_name)
{
    program = program_name;
    argv[0] = (char *)program_name;
    if (cpus_narrowed)
        cli_warn("the processors held back while OpenBLAS loaded could not be given back; "
                 "running on one");
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remove_temporaries;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    /* Every signal that would end the program (base/tempfile.h), SIGPIPE
       too: "tells-x ... | head" ends it, as it always did (status 141),
       without leaving its temporary files behind. */
    for (size_t i = 0; i < temp_nsignals; i++) {
        struct sigaction old;
        /* A signal the caller chose to ignore (nohup) stays ignored. */
        if (sigaction(temp_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            sigaction(temp_signals[i], &sa, NULL);
    }
    atexit(remove_temporaries_at_exit);
    /* GSL's default handler aborts on a domain error; the library keeps
       arguments in range and checks results, so a slip gives a NaN that
       is reported, not a core dump (the fuzzers keep the abort, to find
       such slips). */
    gsl_set_error_handler_off();
    /* Every fastText model allocates and fills a 120 MB word index (its
       Dictionary's 30 million slots) and frees it again; the study trains
       a hundred of them. Taken from the heap and kept there rather than
       mapped and unmapped each time, the pages are faulted in once: the
       study's baselines take less than half the time (bench/study). Peak
       memory is unchanged; it is returned when the program ends. */
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
}
const char *cli_program(void) { return program; }

enum { MAX_HINTS = 8 };
static struct {
    tells_error_code code;
    const char *text;
} hints[MAX_HINTS];
static size_t nhints;

void cli_hint(tells_error_code code, const char *text)
{
    if (nhints < MAX_HINTS)
        hints[nhints++] = (typeof(hints[0])){code, text};
}

void cli_report(const tells_error *err)
{
    char buf[2200];
    tells_error_format(err, buf, sizeof buf);
    fprintf(stderr, "%s: %s", program, buf);
    for (size_t i = 0; err->code != TELLS_E_GENERIC && i < nhints; i++)
        if (hints[i].code == err->code) {
            fputs(" (", stderr);
            /* The hint's one %s is the subject; no other conversion. */
            const char *at = strstr(hints[i].text, "%s");
            if (at)
                fprintf(stderr, "%.*s%s%s", (int)(at - hints[i].text), hints[i].text,
                        err->subject, at + 2);
            else
                fputs(hints[i].text, stderr);
            fputc(')', stderr);
            break;
        }
    fputc('\n', stderr);
}

int cli_exit_status(const tells_error *err)
{
    return err->kind == TELLS_ERR_USAGE ? EXIT_USAGE : EXIT_DATA;
}

void cli_fail(const tells_error *err)
{
    if (err->kind == TELLS_ERR_NONE) {
        char buf[2200];
        tells_error_format(err, buf, sizeof buf);
        fprintf(stderr, "%s: internal error: a failure without a message%s%s\n", program,
                buf[0] ? ": " : "", buf);
        exit(EXIT_DATA);
    }
    cli_report(err);
    if (err->kind == TELLS_ERR_USAGE)
        cli_try_help();
    exit(EXIT_DATA);
}

void cli_fail_option(const char *opt, tells_error *err)
{
    /* Only a bad value is the option's fault: "--fill: out of memory"
       would blame it for the machine. */
    if (err->kind == TELLS_ERR_USAGE)
        tells_error_prefix(err, opt);
    cli_fail(err);
}

void cli_die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", program);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(EXIT_DATA);
}

char *cli_strdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        cli_die("out of memory");
    return d;
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", program);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void cli_try_help(void)
{
    fprintf(stderr, "Try '%s --help' for more information.\n", program);
    exit(EXIT_USAGE);
}

void cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", program);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    cli_try_help();
}

void cli_version(void)
{
    printf("%s (%s) %s\n", program, PACKAGE_NAME, PACKAGE_VERSION);
    printf("License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n"
           "This is free software: you are free to change and redistribute it.\n"
           "There is NO WARRANTY, to the extent permitted by law.\n");
}

void cli_check_io(io_plan *p)
{
    tells_error err;
    tells_error_clear(&err);
    int rc = io_plan_check(p, &err);
    io_plan_free(p);
    if (rc < 0)
        cli_fail(&err);
}

fold_grouping cli_group_by(const char *arg)
{
    fold_grouping g;
    if (fold_grouping_parse(arg, &g) < 0)
        cli_usage_error("invalid value '%s' for --group-by (expected premise or none)", arg);
    return g;
}

long cli_long(const char *opt, const char *arg, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(arg, &end, 10);
    bool number = end != arg && !*end;
    /* strtol gives LONG_MAX with ERANGE for any larger value. */
    bool too_large = number && ((errno == ERANGE && v == LONG_MAX) || v > max);
    if (!number || errno || v < min || v > max) {
        if (max == LONG_MAX && !too_large)
            cli_usage_error("invalid value '%s' for %s (expected an integer "
                            ">= %ld)", arg, opt, min);
        cli_usage_error("invalid value '%s' for %s (expected an integer "
                        "from %ld to %ld)", arg, opt, min, max);
    }
    return v;
}

/* "a number > 0 and <= 1" and its kin, for a range as cli_double_range
   takes it. */
static void describe_range(char *buf, size_t size, double min, double max, int open)
{
    bool lo = min > -INFINITY, hi = max < INFINITY;
    const char *ge = open & CLI_OPEN_MIN ? ">" : ">=", *le = open & CLI_OPEN_MAX ? "<" : "<=";
    if (lo && hi && !open)
        snprintf(buf, size, "a number from %g to %g", min, max);
    else if (lo && hi)
        snprintf(buf, size, "a number %s %g and %s %g", ge, min, le, max);
    else if (lo)
        snprintf(buf, size, "a number %s %g", ge, min);
    else if (hi)
        snprintf(buf, size, "a number %s %g", le, max);
    else
        snprintf(buf, size, "a number");
}

double cli_double_range(const char *opt, const char *arg, double min, double max,
                        int open)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    bool number = end != arg && !*end;
    if (number && errno == ERANGE && isinf(v) && v > 0 && max == INFINITY)
        cli_usage_error("invalid value '%s' for %s (too large for a double: at most %g)",
                        arg, opt, DBL_MAX);
    if (number && errno == ERANGE && isinf(v) && v < 0 && min == -INFINITY)
        cli_usage_error("invalid value '%s' for %s (too far below 0 for a double: at "
                        "least %g)", arg, opt, -DBL_MAX);
    /* glibc's strtod flags every result below the normal doubles: a
       subnormal one is still the number given (or its nearest double),
       but 0 is not. */
    if (number && errno == ERANGE && v == 0)
        cli_usage_error("invalid value '%s' for %s (too small for a double: the "
                        "smallest above 0 is %g)", arg, opt, DBL_TRUE_MIN);
    bool in_range = number && isfinite(v) &&
                    (open & CLI_OPEN_MIN ? v > min : v >= min) &&
                    (open & CLI_OPEN_MAX ? v < max : v <= max);
    if (!in_range) {
        char range[128];
        describe_range(range, sizeof range, min, max, open);
        cli_usage_error("invalid value '%s' for %s (expected %s)", arg, opt, range);
    }
    return v;
}

double cli_double(const char *opt, const char *arg, double min)
{
    return cli_double_range(opt, arg, min, INFINITY, CLI_CLOSED);
}

char **cli_operands(int argc, char **argv, int *n)
{
    static char dash[] = "-";
    static char *stdin_only[] = {dash};
    if (optind < argc) {
        *n = argc - optind;
        return argv + optind;
    }
    *n = 1;
    return stdin_only;
}

bool cli_show_progress(bool quiet, bool forced)
{
    if (quiet)
        return false;
    return forced || isatty(STDERR_FILENO);
}

void cli_progress(const char *msg, void *user)
{
    if (!user || *(const bool *)user)
        cli_warn("%s", msg);
}

bool cli_common_option(int c, void (*usage)(void), cli_verbosity *v)
{
    switch (c) {
    case CLI_OPT_HELP: usage(); exit(0);
    case CLI_OPT_VERSION: cli_version(); exit(0);
    case 'q':
        if (!v)
            return false;
        v->quiet = true;
        return true;
    case CLI_OPT_PROGRESS:
        if (!v)
            return false;
        v->progress = true;
        return true;
    default:
        return false;
    }
}

bool cli_fasttext_option(int c, ft_train_args *ft)
{
    switch (c) {
    case CLI_OPT_NGRAMS: ft->word_ngrams = (int)cli_long("--word-ngrams", optarg, 1, 10); break;
    case CLI_OPT_EPOCH: ft->epoch = (int)cli_long("--epoch", optarg, 1, 100000); break;
    case CLI_OPT_LR: ft->lr = cli_double("--lr", optarg, 1e-9); break;
    case CLI_OPT_DIM: ft->dim = (int)cli_long("--dim", optarg, 1, 10000); break;
    case CLI_OPT_BUCKET: ft->bucket = (int)cli_long("--bucket", optarg, 1, 100000000); break;
    case CLI_OPT_THREADS: ft->threads = (int)cli_long("--threads", optarg, 1, 256); break;
    default: return false;
    }
    return true;
}

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/tells"
#endif
const char *const CLI_PKGDATADIR = PKGDATADIR;

/* Whether this program runs from the build tree it was built in
   (TELLS_BUILD_DIR, recorded by configure): then its data are the
   source tree's corpora/, not an installed copy that may not exist. */
static bool in_build_tree(void)
{
#ifdef TELLS_BUILD_DIR
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return false;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return false;
    *slash = '\0';
    slash = strrchr(exe, '/');
    if (!slash || (strcmp(slash, "/src") != 0 && strcmp(slash, "/tools") != 0))
        return false;
    *slash = '\0';
    return strcmp(exe, TELLS_BUILD_DIR) == 0;
#else
    return false;
#endif
}

const char *cli_data_dir(void)
{
    const char *dir = getenv("TELLS_DATA");
    if (dir && *dir)
        return dir;
#ifdef TELLS_SOURCE_DATA
    if (in_build_tree())
        return TELLS_SOURCE_DATA;
#endif
    return PKGDATADIR;
}

char *cli_data_file(const char *rel)
{
    const char *dir = cli_data_dir();
    size_t n = strlen(dir) + strlen(rel) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, rel);
    return p;
}

int cli_check_data_file(const char *path, tells_error *err)
{
    if (access(path, F_OK) == 0)
        return 0;
    return tells_error_io(err, path, 0, "cannot open: no such file (install "
                           "tells, set TELLS_DATA to the corpora folder of its "
                           "source tree, or name the file)");
}

bool cli_linking_option(int c, cli_linking *l)
{
    switch (c) {
    case CLI_OPT_TERMS: l->terms = optarg; return true;
    case CLI_OPT_NO_TERMS: l->no_terms = true; return true;
    case CLI_OPT_STEM: l->stem = 1; return true;
    case CLI_OPT_NO_STEM: l->stem = 0; return true;
    default: return false;
    }
}

void cli_linking_check(const cli_linking *l)
{
    if (l->terms && l->no_terms)
        cli_usage_error("--terms and --no-terms exclude each other");
}

void cli_linking_sources(cli_linking *l, bool builtin, heur_sources *src)
{
    bool by_default = !l->mesh;
    char *mesh = by_default ? cli_data_file(CLI_MESH2024_FILE) : NULL;
    char *terms = by_default && !l->terms && !l->no_terms ? cli_data_file(CLI_TERMS2024_FILE)
                                                          : NULL;
    char *defs = builtin ? cli_data_file(by_default ? CLI_HEURISTICS2024_FILE
                                                    : CLI_HEURISTICS_FILE)
                         : NULL;
    if ((by_default && !mesh) || (builtin && !defs) ||
        (by_default && !l->terms && !l->no_terms && !terms))
        cli_die("out of memory");
    l->owned[0] = mesh;
    l->owned[1] = terms;
    l->owned[2] = defs;
    src->mesh = by_default ? mesh : l->mesh;
    src->mesh_in_data = by_default;
    src->terms = l->terms ? l->terms : terms;
    src->terms_in_data = terms != NULL;
    src->stem = l->stem >= 0 ? l->stem : by_default;
    src->builtin = defs;
    src->check_data = cli_check_data_file;
}

void cli_linking_io(const heur_sources *src, io_plan *p)
{
    io_input(p, src->mesh_in_data ? "the MeSH tree file" : "--mesh", src->mesh);
    io_input(p, src->terms_in_data ? "the MeSH entry-term file" : "--terms", src->terms);
    io_input(p, "the built-in heuristics", src->builtin);
    for (size_t i = 0; i < src->nsynonyms; i++)
        io_input(p, "--synonyms", src->synonyms[i]);
    for (size_t i = 0; i < src->ndefinitions; i++)
        io_input(p, "--heuristics", src->definitions[i]);
}

void cli_linking_free(cli_linking *l)
{
    for (size_t i = 0; i < 3; i++) {
        free(l->owned[i]);
        l->owned[i] = NULL;
    }
}

/* A comma-separated list as a NULL-terminated array (in place). */
static const char **split_list(char *s)
{
    size_t n = 2;
    for (char *p = s; *p; p++)
        n += *p == ',';
    const char **v = calloc(n, sizeof *v);
    if (!v)
        cli_die("out of memory");
    size_t k = 0;
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ","))
        v[k++] = tok;
    return v;
}

bool cli_corpus_option(int c, int argc, char **argv, cli_corpus *cc)
{
    prep_options *p = cc->prep;
    switch (c) {
    case 's':
        if (optind >= argc)
            cli_usage_error("option '--split' needs a NAME and a FILE");
        if (optarg[0] == '\0' || strpbrk(optarg, "\t\n\r"))
            cli_usage_error("invalid split name '%s'", optarg);
        cc->inputs[cc->ninputs].split = optarg;
        cc->inputs[cc->ninputs++].path = argv[optind++];
        return true;
    case 'f':
        if (corpus_format_parse(optarg, &p->format) < 0)
            cli_usage_error("invalid format '%s' (jsonl, csv, tsv or auto)", optarg);
        return true;
    case CLI_OPT_ID_FIELD: p->fields.id = optarg; return true;
    case CLI_OPT_LABEL_FIELD: p->fields.label = optarg; return true;
    case CLI_OPT_PREMISE_FIELD: p->fields.premise = optarg; return true;
    case CLI_OPT_HYPOTHESIS_FIELD: p->fields.hypothesis = optarg; return true;
    case CLI_OPT_LABELS:
        free((void *)p->labels);
        p->labels = split_list(optarg);
        if (!p->labels[0])
            cli_usage_error("invalid label list '%s'", optarg);
        return true;
    case CLI_OPT_SKIP_INVALID: p->skip_invalid = true; return true;
    case 't':
        if (tokenizer_parse(optarg, &p->tok.kind) < 0)
            cli_usage_error("invalid tokenizer '%s' (default or whitespace)", optarg);
        return true;
    default:
        return false;
    }
}

void cli_corpus_io(const cli_corpus *cc, io_plan *p)
{
    for (size_t i = 0; i < cc->ninputs; i++) {
        char role[160];
        snprintf(role, sizeof role, "--split %s", cc->inputs[i].split);
        io_input(p, role, cc->inputs[i].path);
    }
}

void cli_corpus_free(cli_corpus *cc)
{
    free((void *)cc->prep->labels);
    cc->prep->labels = NULL;
}

bool cli_redact_option(int c, cli_redact *r)
{
    if (!r->k)
        r->k = REDACT_MIN_EXAMPLES;
    switch (c) {
    case CLI_OPT_REDACT: r->on = true; return true;
    case CLI_OPT_MIN_EXAMPLES:
        r->k = (size_t)cli_long("--min-examples", optarg, 1, 1000000000L);
        r->k_given = true;
        return true;
    default: return false;
    }
}

void cli_redact_check(const cli_redact *r)
{
    if (r->k_given && !r->on)
        cli_usage_error("--min-examples is the least a token shown under --redact needs");
    if (!r->k)
        ((cli_redact *)r)->k = REDACT_MIN_EXAMPLES;
}

redact_gate *cli_redact_gate(const cli_redact *r, const char *prepared)
{
    if (!r->on)
        return NULL;
    tells_error err;
    tells_error_clear(&err);
    dataset d;
    redact_gate *g = NULL;
    if (dataset_load(&d, prepared, &err) == 0) {
        g = redact_gate_new(&d, r->k ? r->k : REDACT_MIN_EXAMPLES, &err);
        dataset_free(&d);
    }
    if (!g)
        cli_fail(&err);
    return g;
}
