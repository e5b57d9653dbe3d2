/* tells-aflite: split a corpus into easy and difficult examples. */
#include <config.h>

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/aflite.h"
#include "base/dataset.h"
#include "base/npy.h"
#include "base/outfile.h"
#include "cli.h"
#include "model/embed.h"
#include "model/logreg.h"

static void usage(void)
{
    printf("Usage: tells-aflite [OPTION]... FILE\n"
"Split the examples of a prepared TSV (FILE) into an easy partition, which\n"
"a linear model over averaged word vectors gets right from shortcuts, and\n"
"a difficult one, by AFLite adversarial filtering: while more than m\n"
"examples remain, train n logistic regressions on random parts of m of\n"
"them, score each example by how often the models that did not train on\n"
"it got it right, and remove the k best scored ones whose score is at\n"
"least tau. Removed examples are easy, the rest difficult.\n"
"\n"
"Embeddings (one of):\n"
"  -e, --embeddings FILE    a .npy matrix with one row per example, in the\n"
"                           TSV's order (tells-embed writes one)\n"
"  -v, --vectors FILE       compute it from these vectors as tells-embed\n"
"                           does, with --input, --pair and --skip-oov\n"
"  -i, --input MODE         hypothesis, premise or pair [hypothesis]\n"
"      --pair HOW           sum or concat [sum]\n"
"      --skip-oov           leave tokens without a vector out of averages\n"
"\n"
"AFLite:\n"
"  -n, --models N           models per round [64]\n"
"  -m, --train-size N       training examples per model [5620]\n"
"      --train-frac X       instead, this fraction of all examples\n"
"  -k, --cutoff N           most examples removed per round [500]\n"
"      --tau X              least score of a removed example [0.75]\n"
"      --target N           also stop once at most N examples remain [m]\n"
"      --rounds N           stop after N rounds [no limit]\n"
"      --seed N             seed of the random training parts [0]\n"
"      --splits FILE        the first round's training parts: one line per\n"
"                           model, m 0-based row numbers separated by spaces\n"
"      --threads N          threads; the results do not depend on it\n"
"                           [the processors online]\n"
"      --tol X              stopping tolerance of the solver [1e-6]\n"
"      --max-iter N         most solver iterations per model [1000]\n"
"      --cold-start         every round's models start from zero, not from\n"
"                           the last round's (slower; for comparison)\n"
"\n"
"Output:\n"
"  -o, --output FILE        the table of rounds, atomically [stdout]\n"
"      --easy FILE          ids of the removed examples, one per line, in\n"
"                           input order, and FILE.sha256 (sha256sum -c)\n"
"      --difficult FILE     ids of the remaining examples, likewise\n"
"      --scores FILE        every example's score in every round it was in\n"
"      --write-splits FILE  the first round's training parts, as --splits\n"
"  -q, --quiet              no progress on stderr\n"
"      --progress           a line per round, and the solver's work, on\n"
"                           stderr even when it is not a terminal\n"
"      --help               display this help and exit\n"
"      --version            output version information and exit\n"
"\n"
"Output: TSV with header round, examples, at_tau, removed, remaining: per\n"
"round the examples it started with, how many scored at least tau, how\n"
"many it removed and how many remained. --scores: TSV with header round,\n"
"id, score, held_out, removed_in_round (score with 6 decimals; '-' for an\n"
"example never removed). The model is scikit-learn's LogisticRegression()\n"
"(multinomial, L2 penalty with C = 1, intercept), trained by L-BFGS.\n"
"\n"
"Environment: an OpenBLAS older than the CPU (Debian 12's) may choose its\n"
"slow SSE3 kernels (Prescott); on a CPU with AVX2 or AVX-512, tells-aflite\n"
"then restarts itself at once with OPENBLAS_CORETYPE=Haswell or SkylakeX,\n"
"about five times faster. It does not when OPENBLAS_CORETYPE is set: set it\n"
"to choose (Prescott keeps OpenBLAS's choice). --progress names the kernels.\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  tells-prep -q --split train corpora/synthetic/train.jsonl \\\n"
"    --split test corpora/synthetic/test.jsonl -o synth.tsv\n"
"  tells-embed --train-vectors vec.bin --dim 50 -o hyp.npy synth.tsv\n"
"  tells-aflite -e hyp.npy --train-frac 0.4 -k 100 --easy easy.ids \\\n"
"    --difficult difficult.ids synth.tsv\n"
"  tells-baseline --partition easy=easy.ids --partition difficult=difficult.ids \\\n"
"    synth.tsv\n");
}

enum {
    OPT_PAIR = 256, OPT_SKIP_OOV, OPT_TRAIN_FRAC, OPT_TAU, OPT_TARGET, OPT_ROUNDS,
    OPT_SEED, OPT_SPLITS, OPT_THREADS, OPT_TOL, OPT_MAX_ITER, OPT_EASY, OPT_DIFFICULT,
    OPT_SCORES, OPT_WRITE_SPLITS, OPT_COLD_START
};

static const struct option long_options[] = {
    {"embeddings", required_argument, NULL, 'e'},
    {"vectors", required_argument, NULL, 'v'},
    {"input", required_argument, NULL, 'i'},
    {"pair", required_argument, NULL, OPT_PAIR},
    {"skip-oov", no_argument, NULL, OPT_SKIP_OOV},
    {"models", required_argument, NULL, 'n'},
    {"train-size", required_argument, NULL, 'm'},
    {"train-frac", required_argument, NULL, OPT_TRAIN_FRAC},
    {"cutoff", required_argument, NULL, 'k'},
    {"tau", required_argument, NULL, OPT_TAU},
    {"target", required_argument, NULL, OPT_TARGET},
    {"rounds", required_argument, NULL, OPT_ROUNDS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"splits", required_argument, NULL, OPT_SPLITS},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"tol", required_argument, NULL, OPT_TOL},
    {"max-iter", required_argument, NULL, OPT_MAX_ITER},
    {"cold-start", no_argument, NULL, OPT_COLD_START},
    {"output", required_argument, NULL, 'o'},
    {"easy", required_argument, NULL, OPT_EASY},
    {"difficult", required_argument, NULL, OPT_DIFFICULT},
    {"scores", required_argument, NULL, OPT_SCORES},
    {"write-splits", required_argument, NULL, OPT_WRITE_SPLITS},
    CLI_QUIET_OPTION,
    CLI_PROGRESS_OPTION,
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

typedef struct config {
    const char *input, *embeddings, *vectors, *splits;
    const char *output, *easy, *difficult, *scores, *write_splits;
    embed_options eo;
    aflite_options ao;
    double train_frac;     /* 0: -m */
    bool m_given, show_progress;
} config;

static void parse_args(int argc, char **argv, config *cfg)
{
    cli_verbosity v = {0};
    bool pair_given = false;
    aflite_options_default(&cfg->ao);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    cfg->ao.lr.threads = cpus > 0 ? (int)(cpus < 256 ? cpus : 256) : 1;
    cfg->eo = (embed_options){.input = EMBED_HYPOTHESIS, .pair = EMBED_PAIR_SUM};
    int c;
    while ((c = getopt_long(argc, argv, "e:v:i:n:m:k:o:q", long_options, NULL)) != -1) {
        if (cli_common_option(c, usage, &v))
            continue;
        switch (c) {
        case 'e': cfg->embeddings = optarg; break;
        case 'v': cfg->vectors = optarg; break;
        case 'i':
            if (embed_input_parse(optarg, &cfg->eo.input) < 0)
                cli_usage_error("invalid --input '%s' (hypothesis, premise or pair)", optarg);
            break;
        case OPT_PAIR:
            if (embed_pair_parse(optarg, &cfg->eo.pair) < 0)
                cli_usage_error("invalid --pair '%s' (sum or concat)", optarg);
            pair_given = true;
            break;
        case OPT_SKIP_OOV: cfg->eo.skip_oov = true; break;
        case 'n': cfg->ao.models = (size_t)cli_long("--models", optarg, 1, 100000); break;
        case 'm':
            cfg->ao.train_size = (size_t)cli_long("--train-size", optarg, 1, LONG_MAX);
            cfg->m_given = true;
            break;
        case OPT_TRAIN_FRAC:
            cfg->train_frac = cli_double_range("--train-frac", optarg, 0, 1, CLI_OPEN);
            break;
        case 'k': cfg->ao.cutoff = (size_t)cli_long("--cutoff", optarg, 1, LONG_MAX); break;
        case OPT_TAU:
            cfg->ao.tau = cli_double_range("--tau", optarg, 0, 1, CLI_CLOSED);
            break;
        case OPT_TARGET: cfg->ao.target = (size_t)cli_long("--target", optarg, 1, LONG_MAX); break;
        case OPT_ROUNDS: cfg->ao.max_rounds = (size_t)cli_long("--rounds", optarg, 1, LONG_MAX); break;
        case OPT_SEED: cfg->ao.seed = (unsigned long)cli_long("--seed", optarg, 0, 4294967295L); break;
        case OPT_SPLITS: cfg->splits = optarg; break;
        case OPT_THREADS: cfg->ao.lr.threads = (int)cli_long("--threads", optarg, 1, 256); break;
        case OPT_TOL:
            cfg->ao.lr.tol = cli_double_range("--tol", optarg, 0, INFINITY, CLI_OPEN_MIN);
            break;
        case OPT_MAX_ITER: cfg->ao.lr.max_iter = (int)cli_long("--max-iter", optarg, 1, 1000000); break;
        case OPT_COLD_START: cfg->ao.cold_start = true; break;
        case 'o': cfg->output = optarg; break;
        case OPT_EASY: cfg->easy = optarg; break;
        case OPT_DIFFICULT: cfg->difficult = optarg; break;
        case OPT_SCORES: cfg->scores = optarg; break;
        case OPT_WRITE_SPLITS: cfg->write_splits = optarg; break;
        default: cli_try_help();
        }
    }
    if (optind + 1 != argc) {
        if (optind >= argc)
            cli_usage_error("missing the prepared TSV");
        cli_usage_error("one prepared TSV only (extra operand '%s')", argv[optind + 1]);
    }
    cfg->input = argv[optind];
    if (!cfg->embeddings == !cfg->vectors)
        cli_usage_error(cfg->embeddings ? "--embeddings and --vectors exclude each other"
                                        : "give --embeddings FILE.npy or --vectors FILE");
    if (cfg->embeddings && (cfg->eo.input != EMBED_HYPOTHESIS || pair_given || cfg->eo.skip_oov))
        cli_usage_error("--input, --pair and --skip-oov go with --vectors");
    if (pair_given && cfg->eo.input != EMBED_PAIR)
        cli_usage_error("--pair needs --input pair");
    if (cfg->train_frac > 0 && cfg->m_given)
        cli_usage_error("--train-size and --train-frac exclude each other");
    cfg->show_progress = cli_show_progress(v.quiet, v.progress);
    if (cfg->show_progress)
        cfg->eo.progress = cli_progress;
}

static void check_io(const config *cfg)
{
    io_plan io;
    io_plan_init(&io);
    io_input(&io, "FILE", cfg->input);
    io_input(&io, "--embeddings", cfg->embeddings);
    io_input(&io, "--vectors", cfg->vectors);
    io_input(&io, "--splits", cfg->splits);
    io_output_idfile(&io, "--easy", cfg->easy);
    io_output_idfile(&io, "--difficult", cfg->difficult);
    io_output(&io, "--scores", cfg->scores);
    io_output(&io, "--write-splits", cfg->write_splits);
    io_output(&io, "--output", cfg->output ? cfg->output : "-");
    cli_check_io(&io);
}

/* ---- the run ---- */

typedef struct run_state {
    const config *cfg;
    aflite_record rec;
    out_file splits;        /* --write-splits, committed at the end */
    bool splits_open;
} run_state;

/* "13049" as "13,049". */
static const char *grouped(size_t v, char *buf, size_t size)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%zu", v), o = 0;
    for (int i = 0; i < n && (size_t)o + 2 < size; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

static int round_done(const aflite_round *r, void *user, tells_error *err)
{
    run_state *st = user;
    if (aflite_record_round(r, &st->rec, err) < 0)
        return -1;
    if (r->round == 1 && st->cfg->write_splits) {
        if (out_open(&st->splits, st->cfg->write_splits, err) < 0)
            return -1;
        st->splits_open = true;
        if (aflite_write_splits(st->splits.fp, r) < 0)
            return tells_error_io(err, st->cfg->write_splits, 0, "write error");
    }
    if (st->cfg->show_progress) {
        char a[32];
        cli_warn("round %zu: %s remain, removed %zu, %.1f s (%.2f iterations per model, %ld "
                 "passes)", r->round, grouped(r->examples, a, sizeof a), r->removed, r->seconds,
                 (double)r->stats.iterations / (double)r->models, r->stats.passes);
    }
    return 0;
}

/* OpenBLAS picks its kernels once, when the program loads it, from the
   CPU's model number, and they cannot be changed afterwards. An OpenBLAS
   older than the CPU (Debian 12's 0.3.21 on a 2023 Xeon) does not know it
   and falls back to its slowest, SSE3 kernels ("Prescott"), with which
   AFLite runs five times slower. When that happened on a CPU that runs
   better ones (logreg_blas_better_core), the program starts itself again,
   same process, same arguments, with OPENBLAS_CORETYPE naming them, before
   it has read anything: the user sees only the speed (--progress names the
   kernels in use). OPENBLAS_CORETYPE set by the user, to anything, is
   left alone and there is no restart (that is how to turn it off); if
   the restart fails, the run goes on with the slow kernels. */
static void use_fast_blas_kernels(char **argv)
{
    const char *core = logreg_blas_better_core();
    if (core && !getenv("OPENBLAS_CORETYPE") && setenv("OPENBLAS_CORETYPE", core, 1) == 0)
        execv("/proc/self/exe", argv);
}

/* The filtering of d's examples into st->rec: their classes, the first
   round's training parts, the matrix, the rounds. */
static int filter(config *cfg, const dataset *d, run_state *st, tells_error *err)
{
    npy_matrix x = {0};
    int *y = NULL;
    size_t classes = 0, *splits = NULL;
    int rc = aflite_classes(d, &y, &classes, err);
    if (rc == 0 && cfg->train_frac > 0)
        cfg->ao.train_size = aflite_train_size(cfg->train_frac, d->n);
    if (rc == 0 && cfg->ao.train_size >= d->n)
        rc = tells_error_set(err, d->source, 0, "the training size m = %zu is not smaller "
                             "than the %zu examples (give -m or --train-frac)",
                             cfg->ao.train_size, d->n);
    if (rc == 0 && cfg->splits)
        rc = aflite_read_splits(cfg->splits, cfg->ao.models, cfg->ao.train_size, d->n,
                                &splits, err);
    if (rc == 0)
        rc = aflite_matrix(d, cfg->embeddings, cfg->vectors, &cfg->eo, &x, err);
    if (rc == 0)
        rc = aflite_record_init(&st->rec, d, cfg->scores, err);
    uint64_t *keys = NULL;
    if (rc == 0 && !(keys = aflite_row_keys(d)))
        rc = tells_error_nomem(err, NULL, 0);
    if (rc == 0) {
        cfg->ao.first_splits = splits;
        cfg->ao.row_keys = keys;
        cfg->ao.round_done = round_done;
        cfg->ao.user = st;
        rc = aflite_run(x.data, x.rows, x.cols, y, classes, &cfg->ao, &st->rec.result, err);
    }
    free(splits);
    free(keys);
    free(y);
    npy_free(&x);
    return rc;
}

/* --progress's last line: the partition and the solver's work. */
static void report_solver(const config *cfg, const dataset *d, const aflite_result *res)
{
    double s = res->stats.seconds > 0 ? res->stats.seconds : 1e-9;
    double fits = (double)cfg->ao.models * (double)(res->rounds ? res->rounds : 1);
    cli_warn("%zu easy, %zu difficult; solver: %.1f GFLOP in %.1f s (%.1f GFLOP/s, "
             "OpenBLAS %s kernels, %d threads), %ld passes, %.2f iterations per model "
             "per round (at most %ld), %zu unconverged", res->easy, d->n - res->easy,
             res->stats.flops * 1e-9, res->stats.seconds, res->stats.flops * 1e-9 / s,
             logreg_blas_core(), cfg->ao.lr.threads, res->stats.passes,
             (double)res->stats.iterations / fits, res->stats.max_iterations,
             res->stats.unconverged);
}

/* Every file is complete before the next one is started; the table of
   rounds comes last. */
static int write_outputs(const config *cfg, run_state *st, tells_error *err)
{
    if (cfg->easy && aflite_write_ids(cfg->easy, &st->rec, true, err) < 0)
        return -1;
    if (cfg->difficult && aflite_write_ids(cfg->difficult, &st->rec, false, err) < 0)
        return -1;
    if (cfg->scores && out_write(cfg->scores, aflite_write_scores, &st->rec, err) < 0)
        return -1;
    if (st->splits_open) {
        st->splits_open = false;
        if (out_commit(&st->splits, err) < 0)
            return -1;
    }
    return out_write(cfg->output, aflite_write_rounds, &st->rec, err);
}

int main(int argc, char **argv)
{
    use_fast_blas_kernels(argv);
    cli_init(argv, "tells-aflite");
    config cfg = {0};
    parse_args(argc, argv, &cfg);
    check_io(&cfg);
    tells_error err;
    tells_error_clear(&err);
    dataset d;
    if (dataset_load(&d, cfg.input, &err) < 0)
        cli_fail(&err);
    run_state st = {.cfg = &cfg};
    int rc = filter(&cfg, &d, &st, &err);
    if (rc == 0 && cfg.show_progress)
        report_solver(&cfg, &d, &st.rec.result);
    if (rc == 0)
        rc = write_outputs(&cfg, &st, &err);
    if (st.splits_open)
        out_abort(&st.splits);
    aflite_record_free(&st.rec);
    dataset_free(&d);
    if (rc < 0)
        cli_fail(&err);
    return 0;
}
