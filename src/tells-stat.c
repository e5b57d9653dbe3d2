/* tells-stat: evaluation metrics and significance tests over prediction
   files. */
#include <config.h>

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "base/outfile.h"
#include "stats/ertest.h"
#include "stats/statreport.h"

static void usage(void)
{
    printf("Usage: tells-stat [OPTION]... COMMAND FILE...\n"
"Evaluation metrics and significance tests over prediction files: TSVs with\n"
"a header naming at least the columns id, gold and predicted (others, such\n"
"as p_entailment, are ignored). Several files are systems joined by id: each\n"
"must hold the same ids, each once, with the same gold label. FILE '-' is\n"
"stdin, for one input only (two --column of it are read in one pass).\n"
"\n"
"Commands:\n"
"  metrics FILE...          accuracy, macro and micro precision, recall and\n"
"                           F1, Cohen's kappa, Matthews correlation; with\n"
"                           --multi-label subset accuracy and Hamming loss\n"
"  mcnemar A B              McNemar's test on per-example correctness: exact\n"
"                           binomial and chi-squared with continuity correction\n"
"  bootstrap A B            paired bootstrap test of metric(A) - metric(B)\n"
"  permutation A B          approximate randomisation test of the same\n"
"  cochran A B C...         Cochran's Q of k >= 3 systems' correctness\n"
"  friedman A B C...        Friedman's test and mean ranks of k >= 3 systems;\n"
"                           blocks are examples (score 1 when correct), or\n"
"                           with --scores the lines of files of numbers\n"
"  welch A B                Welch's t-test of per-seed scores, files of\n"
"                           numbers (one per line, or a --column)\n"
"  wilcoxon A B             Wilcoxon signed-rank test of paired numbers (line\n"
"                           j of A with line j of B)\n"
"  paired-t A B             paired t-test of the same\n"
"  fdr [FILE]               Benjamini-Hochberg adjusted p-values of the\n"
"                           p_value column of a TSV (stdin when absent)\n"
"  contrast --groups G FILE...  contrast-set consistency\n"
"  normalized-failure [NAME=]FILE...  ER-Test's normalised failure rate of\n"
"                           each functional test of tells-run tables; files\n"
"                           with the same NAME are seeds of one model\n"
"  seeds FILE...            mean and standard deviation across seeds: of\n"
"                           each metric of a metrics table (its systems are\n"
"                           the seeds), or of a file of numbers\n"
"\n"
"Options:\n"
"  -m, --metric NAME      accuracy, macro_f1 or micro_f1 (bootstrap,\n"
"                         permutation) [accuracy]\n"
"  -n, --samples N        resamples (bootstrap, permutation) [10000]\n"
"  -s, --seed N           seed of GSL's mt19937 (bootstrap, permutation) [1]\n"
"      --alternative H    two-sided, greater or less: the alternative to\n"
"                         metric(A) = metric(B), mean(A) = mean(B) or a\n"
"                         symmetric difference (bootstrap, permutation, welch,\n"
"                         wilcoxon, paired-t) [two-sided]\n"
"      --scores           friedman: FILEs hold numbers, line j of every file\n"
"                         is block j (per-seed or per-fold scores) [examples]\n"
"      --nemenyi          friedman: the Nemenyi post-hoc test of every pair\n"
"                         and its critical difference at --alpha\n"
"      --no-tie-correction  friedman: the statistic without the tie\n"
"                         correction, as Demsar (2006) writes it\n"
"      --no-continuity-correction  mcnemar: the chi-squared test without it;\n"
"                         wilcoxon: the normal approximation without it\n"
"  -c, --column NAME      read numbers from column NAME of a TSV with header\n"
"                         (welch, wilcoxon, paired-t: once for both files, or\n"
"                         twice, one per file or two columns of one file;\n"
"                         friedman --scores, seeds); fdr: the p-value column\n"
"                         [p_value]\n"
"  -a, --alpha X          fdr: level of the reject column; friedman --nemenyi:\n"
"                         level of the critical difference [0.05]\n"
"  -l, --labels LIST      fix the label set of macro averages and Hamming loss:\n"
"                         comma-separated, or @FILE with one label per line\n"
"                         (metrics, bootstrap, permutation) [the labels in gold\n"
"                         or the system's predictions]\n"
"  -g, --groups FILE      contrast: header 'original<TAB>contrast', then rows\n"
"                         ORIGINAL<TAB>CONTRAST[<TAB>CONTRAST]...\n"
"  -d, --details          metrics: also precision, recall, F1 per class\n"
"      --multi-label      gold and predicted cells are comma-separated label\n"
"                         sets; correct means the whole set is right\n"
"      --digits N         significant digits of p-values [2]\n"
"  -o, --output FILE      write here, atomically [stdout]\n"
"      --help             display this help and exit\n"
"      --version          output version information and exit\n"
"\n"
"Definitions (as scikit-learn, SciPy and statsmodels): per-class precision,\n"
"recall and F1 are 0 when undefined; macro averages are unweighted means over\n"
"the labels in gold or that system's predictions (or --labels); kappa and MCC\n"
"are the multiclass forms (MCC 0 when undefined, kappa nan). Resampling\n"
"p-values are (count + 1) / (samples + 1), count the resamples at least as\n"
"extreme. wilcoxon drops zero differences and is exact for at most 50 pairs\n"
"without zeros or tied |differences|, else the normal approximation with tie\n"
"and continuity corrections.\n"
"\n"
"Output: metrics and contrast write TSV 'system metric class value support'\n"
"(class '-' for averages; values with 6 decimals; metrics adds a row 'labels'\n"
"naming the labels the averages are over, their number as value); tests\n"
"write 'test statistic df p_value detail' (detail: key=value parameters, such\n"
"as samples and alternative; '-' where there is no df or p-value); fdr writes\n"
"its input with the columns p_adjusted, reject and fdr added. P-values have\n"
"--digits significant digits as printf's %%g, also below 1e-308 (1.1e-400).\n"
"normalized-failure writes the test's columns, model, seeds, failure_rate,\n"
"failure_rate_sd, normalized_failure_rate, normalized_failure_rate_sd, then\n"
"per model the means over the tests (test '(all)'); seeds writes 'system\n"
"metric class seeds mean sd' (sample standard deviation, nan for one seed).\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  tells-prep -q --split train corpora/synthetic/train.jsonl \\\n"
"    --split test corpora/synthetic/test.jsonl -o synth.tsv\n"
"  tells-baseline -q --model fasttext --epoch 25 --predictions hyp-only.tsv synth.tsv\n"
"  tells-baseline -q --model fasttext --epoch 25 --input pair \\\n"
"    --predictions full.tsv synth.tsv\n"
"  tells-stat metrics --details hyp-only.tsv full.tsv\n"
"  # two tests of full.tsv against hyp-only.tsv, then their FDR correction:\n"
"  { tells-stat mcnemar full.tsv hyp-only.tsv;\n"
"    tells-stat permutation -m macro_f1 full.tsv hyp-only.tsv | tail -n +2;\n"
"  } | tells-stat fdr --alpha 0.05\n"
"  # accuracy over three deals of 5-fold cross-validation, by Welch's t-test\n"
"  for s in 1 2 3; do tells-baseline -q --model fasttext --epoch 25 --folds 5 \\\n"
"    --seed $s synth.tsv | awk 'NR == 2 { print $7 }'; done >hyp-only.acc\n"
"  for s in 1 2 3; do tells-baseline -q --model fasttext --epoch 25 --folds 5 \\\n"
"    --input pair --seed $s synth.tsv | awk 'NR == 2 { print $7 }'; done >full.acc\n"
"  tells-stat welch full.acc hyp-only.acc\n");
}

enum {
    OPT_ALTERNATIVE = 256, OPT_SCORES, OPT_MULTI, OPT_DIGITS, OPT_NEMENYI, OPT_NO_TIES,
    OPT_NO_CONTINUITY
};

static const struct option long_options[] = {
    {"metric", required_argument, NULL, 'm'},
    {"samples", required_argument, NULL, 'n'},
    {"seed", required_argument, NULL, 's'},
    {"alternative", required_argument, NULL, OPT_ALTERNATIVE},
    {"scores", no_argument, NULL, OPT_SCORES},
    {"column", required_argument, NULL, 'c'},
    {"alpha", required_argument, NULL, 'a'},
    {"groups", required_argument, NULL, 'g'},
    {"details", no_argument, NULL, 'd'},
    {"multi-label", no_argument, NULL, OPT_MULTI},
    {"digits", required_argument, NULL, OPT_DIGITS},
    {"labels", required_argument, NULL, 'l'},
    {"nemenyi", no_argument, NULL, OPT_NEMENYI},
    {"no-tie-correction", no_argument, NULL, OPT_NO_TIES},
    {"no-continuity-correction", no_argument, NULL, OPT_NO_CONTINUITY},
    {"output", required_argument, NULL, 'o'},
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

/* Options a command may take, as bits. */
enum {
    O_METRIC = 1 << 0, O_SAMPLES = 1 << 1, O_SEED = 1 << 2, O_ALT = 1 << 3,
    O_SCORES = 1 << 4, O_COLUMN = 1 << 5, O_ALPHA = 1 << 6, O_GROUPS = 1 << 7,
    O_DETAILS = 1 << 8, O_MULTI = 1 << 9, O_DIGITS = 1 << 10, O_LABELS = 1 << 11,
    O_NEMENYI = 1 << 12, O_NO_TIES = 1 << 13, O_NO_CONTINUITY = 1 << 14
};
static const char *const option_names[] = {
    "--metric", "--samples", "--seed", "--alternative", "--scores", "--column",
    "--alpha", "--groups", "--details", "--multi-label", "--digits", "--labels",
    "--nemenyi", "--no-tie-correction", "--no-continuity-correction"
};

typedef enum {
    CMD_METRICS, CMD_MCNEMAR, CMD_BOOTSTRAP, CMD_PERMUTATION, CMD_FRIEDMAN,
    CMD_WELCH, CMD_FDR, CMD_CONTRAST, CMD_COCHRAN, CMD_WILCOXON, CMD_PAIRED_T,
    CMD_NORMALIZED_FAILURE, CMD_SEEDS
} command;

static const struct {
    const char *name;
    unsigned options;
} commands[] = {
    {"metrics", O_DETAILS | O_MULTI | O_LABELS},
    {"mcnemar", O_MULTI | O_DIGITS | O_NO_CONTINUITY},
    {"bootstrap", O_METRIC | O_SAMPLES | O_SEED | O_ALT | O_MULTI | O_DIGITS | O_LABELS},
    {"permutation", O_METRIC | O_SAMPLES | O_SEED | O_ALT | O_MULTI | O_DIGITS | O_LABELS},
    {"friedman", O_SCORES | O_COLUMN | O_MULTI | O_DIGITS | O_NEMENYI | O_NO_TIES | O_ALPHA},
    {"welch", O_COLUMN | O_ALT | O_DIGITS},
    {"fdr", O_COLUMN | O_ALPHA | O_DIGITS},
    {"contrast", O_GROUPS | O_MULTI},
    {"cochran", O_MULTI | O_DIGITS},
    {"wilcoxon", O_COLUMN | O_ALT | O_DIGITS | O_NO_CONTINUITY},
    {"paired-t", O_COLUMN | O_ALT | O_DIGITS},
    {"normalized-failure", 0},
    {"seeds", O_COLUMN},
};
#define COMMAND_LIST "metrics, mcnemar, bootstrap, permutation, cochran, friedman, welch, " \
    "wilcoxon, paired-t, fdr, contrast, normalized-failure or seeds"
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static void need_files(const char *cmd, int nfiles, int min, int max)
{
    if (nfiles >= min && nfiles <= max)
        return;
    if (min == max)
        cli_usage_error("%s compares exactly %d files (got %d)", cmd, min, nfiles);
    if (nfiles < min)
        cli_usage_error("%s needs at least %d file%s (got %d)", cmd, min,
                        min == 1 ? "" : "s", nfiles);
    cli_usage_error("%s takes at most %d file%s (got %d)", cmd, max,
                    max == 1 ? "" : "s", nfiles);
}

static int run_command(command cmd, const statreport_settings *st, char **files,
                       size_t nfiles, FILE *fp, tells_error *err)
{
    switch (cmd) {
    case CMD_METRICS: return statreport_metrics(st, files, nfiles, fp, err);
    case CMD_MCNEMAR: return statreport_mcnemar(st, files, fp, err);
    case CMD_BOOTSTRAP: return statreport_resample(st, RESAMPLE_BOOTSTRAP, files, fp, err);
    case CMD_PERMUTATION:
        return statreport_resample(st, RESAMPLE_PERMUTATION, files, fp, err);
    case CMD_FRIEDMAN: return statreport_friedman(st, files, nfiles, fp, err);
    case CMD_WELCH: return statreport_welch(st, files, nfiles, fp, err);
    case CMD_FDR: return statreport_fdr(st, nfiles ? files[0] : "-", fp, err);
    case CMD_CONTRAST: return statreport_contrast(st, files, nfiles, fp, err);
    case CMD_COCHRAN: return statreport_cochran(st, files, nfiles, fp, err);
    case CMD_WILCOXON: return statreport_paired(st, PAIRED_WILCOXON, files, nfiles, fp, err);
    case CMD_PAIRED_T: return statreport_paired(st, PAIRED_T, files, nfiles, fp, err);
    case CMD_NORMALIZED_FAILURE: {
        model_file *mf = malloc(nfiles * sizeof *mf);
        if (!mf)
            return tells_error_nomem(err, NULL, 0);
        for (size_t i = 0; i < nfiles; i++)
            mf[i] = model_file_parse(files[i]);
        int rc = normalized_failure_report(mf, nfiles, fp, err);
        free(mf);
        return rc;
    }
    case CMD_SEEDS: return seeds_report(files, nfiles, st->column[0], fp, err);
    }
    return tells_error_usage(err, "unknown command");
}

typedef struct config {
    statreport_settings st;
    unsigned given;           /* the options given, as bits */
    const char *output, *labels;
    command cmd;
    const char *name;         /* the command as given */
    char **files;
    int nfiles;
} config;

/* Takes option c of getopt_long into cfg; usage errors exit. */
static void take_option(int c, config *cfg)
{
    statreport_settings *st = &cfg->st;
    switch (c) {
    case 'm':
        if (metric_parse(optarg, &st->metric) < 0)
            cli_usage_error("invalid metric '%s' (accuracy, macro_f1 or micro_f1)", optarg);
        cfg->given |= O_METRIC;
        break;
    case 'n':
        st->samples = (size_t)cli_long("--samples", optarg, 1, 100000000);
        cfg->given |= O_SAMPLES;
        break;
    case 's':
        /* mt19937 keeps 32 bits of the seed: refuse seeds that collide. */
        st->seed = (unsigned long)cli_long("--seed", optarg, 0, 4294967295L);
        cfg->given |= O_SEED;
        break;
    case OPT_ALTERNATIVE:
        if (alternative_parse(optarg, &st->alt) < 0)
            cli_usage_error("invalid alternative '%s' (two-sided, greater or less)", optarg);
        cfg->given |= O_ALT;
        break;
    case OPT_SCORES: st->scores = true; cfg->given |= O_SCORES; break;
    case 'c':
        if (st->ncolumns == 2)
            cli_usage_error("--column given more than twice");
        st->column[st->ncolumns++] = optarg;
        cfg->given |= O_COLUMN;
        break;
    case 'a':
        st->alpha = cli_double_range("--alpha", optarg, 0, 1, CLI_OPEN_MIN);
        cfg->given |= O_ALPHA;
        break;
    case 'g': st->groups = optarg; cfg->given |= O_GROUPS; break;
    case 'd': st->details = true; cfg->given |= O_DETAILS; break;
    case OPT_MULTI: st->multi = true; cfg->given |= O_MULTI; break;
    case OPT_DIGITS:
        st->digits = (int)cli_long("--digits", optarg, 1, 17);
        cfg->given |= O_DIGITS;
        break;
    case 'l': cfg->labels = optarg; cfg->given |= O_LABELS; break;
    case OPT_NEMENYI: st->nemenyi = true; cfg->given |= O_NEMENYI; break;
    case OPT_NO_TIES: st->no_ties = true; cfg->given |= O_NO_TIES; break;
    case OPT_NO_CONTINUITY: st->no_continuity = true; cfg->given |= O_NO_CONTINUITY; break;
    case 'o': cfg->output = optarg; break;
    default: cli_try_help();
    }
}

/* The command named; usage errors exit. */
static command find_command(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0)
            return (command)i;
    cli_usage_error("unknown command '%s' (" COMMAND_LIST ")", name);
}

/* The usage errors of the command's options and files. */
static void check_command(const config *cfg)
{
    const statreport_settings *st = &cfg->st;
    command cmd = cfg->cmd;
    const char *name = cfg->name;
    int nfiles = cfg->nfiles;
    unsigned extra = cfg->given & ~commands[cmd].options;
    for (int b = 0; extra; b++)
        if (extra & (1u << b))
            cli_usage_error("%s does not apply to %s", option_names[b], name);
    if (cmd == CMD_FRIEDMAN && st->scores && st->multi)
        cli_usage_error("--multi-label does not apply to friedman --scores");
    if (cmd == CMD_FRIEDMAN && !st->scores && st->ncolumns)
        cli_usage_error("--column needs friedman --scores");
    if (cmd == CMD_FRIEDMAN && (cfg->given & O_ALPHA) && !st->nemenyi)
        cli_usage_error("--alpha needs friedman --nemenyi");
    switch (cmd) {
    case CMD_METRICS: need_files(name, nfiles, 1, INT_MAX); break;
    case CMD_MCNEMAR:
    case CMD_BOOTSTRAP:
    case CMD_PERMUTATION: need_files(name, nfiles, 2, 2); break;
    case CMD_FRIEDMAN: need_files(name, nfiles, 3, INT_MAX); break;
    case CMD_WELCH:
    case CMD_WILCOXON:
    case CMD_PAIRED_T:
        need_files(name, nfiles, st->ncolumns == 2 ? 1 : 2, 2);
        break;
    case CMD_COCHRAN: need_files(name, nfiles, 3, INT_MAX); break;
    case CMD_NORMALIZED_FAILURE: need_files(name, nfiles, 2, INT_MAX); break;
    case CMD_SEEDS:
        need_files(name, nfiles, 1, INT_MAX);
        if (st->ncolumns > 1)
            cli_usage_error("seeds reads one --column");
        break;
    case CMD_FDR:
        need_files(name, nfiles, 0, 1);
        if (st->ncolumns > 1)
            cli_usage_error("fdr reads one --column");
        break;
    case CMD_CONTRAST:
        if (!st->groups)
            cli_usage_error("contrast needs --groups FILE");
        need_files(name, nfiles, 1, INT_MAX);
        break;
    }
    if (cmd == CMD_FRIEDMAN && st->ncolumns > 1)
        cli_usage_error("friedman --scores reads one --column");
}

static void parse_args(int argc, char **argv, config *cfg)
{
    *cfg = (config){0};
    statreport_defaults(&cfg->st);
    int c;
    while ((c = getopt_long(argc, argv, "m:n:s:c:a:g:dl:o:", long_options, NULL)) != -1)
        if (!cli_common_option(c, usage, NULL))
            take_option(c, cfg);
    if (optind >= argc)
        cli_usage_error("missing command (" COMMAND_LIST ")");
    cfg->name = argv[optind];
    cfg->cmd = find_command(cfg->name);
    cfg->files = argv + optind + 1;
    cfg->nfiles = argc - optind - 1;
    check_command(cfg);
}

static void check_io(const config *cfg)
{
    io_plan io;
    io_plan_init(&io);
    for (int i = 0; i < cfg->nfiles; i++)
        io_input(&io, "FILE", cfg->cmd == CMD_NORMALIZED_FAILURE
                                  ? model_file_path(cfg->files[i])
                                  : cfg->files[i]);
    if (cfg->cmd == CMD_FDR && cfg->nfiles == 0)
        io_input(&io, "FILE", "-");
    io_input(&io, "--groups", cfg->st.groups);
    io_input(&io, "--labels", cfg->labels && cfg->labels[0] == '@' ? cfg->labels + 1 : NULL);
    io_output(&io, "--output", cfg->output ? cfg->output : "-");
    cli_check_io(&io);
}

/* Runs the command into the output. Not out_write: a report's own errors
   (a file it read, or none) must not be named after the output.
   out_commit reports a write error. */
static int report(const config *cfg, tells_error *err)
{
    statreport_settings st = cfg->st;
    label_set fixed;
    if (cfg->labels) {
        if (label_set_parse(&fixed, cfg->labels, err) < 0)
            return -1;
        st.labels = &fixed;
    }
    out_file out;
    int rc = out_open(&out, cfg->output, err);
    if (rc == 0 && (rc = run_command(cfg->cmd, &st, cfg->files, (size_t)cfg->nfiles, out.fp,
                                     err)) < 0)
        out_abort(&out);
    if (rc == 0)
        rc = out_commit(&out, err);
    if (cfg->labels)
        label_set_free(&fixed);
    return rc;
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-stat");
    config cfg;
    parse_args(argc, argv, &cfg);
    check_io(&cfg);
    tells_error err;
    tells_error_clear(&err);
    if (report(&cfg, &err) < 0)
        cli_fail(&err);
    return 0;
}
