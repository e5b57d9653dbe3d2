/* tells-pvi: pointwise V-information of every example, by cross-fitting. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "text/redact.h"
#include "base/dataset.h"
#include "base/outfile.h"
#include "model/pvi.h"

static void usage(void)
{
    printf("Usage: tells-pvi [OPTION]... FILE\n"
"How many bits the hypothesis alone gives about each example's label:\n"
"pointwise V-information (PVI; Ethayarajh, Choi and Swayamdipta 2022) of\n"
"every example of a prepared TSV (FILE, or - for stdin), by cross-fitting.\n"
"\n"
"Definition: the examples are dealt into K folds (--seed), the hypotheses of\n"
"one premise in the same fold (--group-by). For each fold, g_x is a\n"
"fastText model trained on the other folds and g_null the label\n"
"distribution of those folds (the best a model that sees no input can do).\n"
"For an example x of gold label y in the fold,\n"
"PVI(x -> y) = -log2 g_null(y) + log2 g_x(y). The corpus's V-information is\n"
"the mean PVI; low-PVI examples are the hard ones.\n"
"\n"
"Data and model:\n"
"      --folds K            folds [5]\n"
CLI_GROUP_BY_HELP
"      --tune               choose g_x's epochs and learning rate in each fold\n"
"                           by log loss on a held-out fifth of its training\n"
"                           rows (of about 50,000 of them, dealt as the folds\n"
"                           are, when there are more, and then ceil(epochs x\n"
"                           those rows / all rows) epochs over all), as\n"
"                           tells-study does\n"
"      --input MODE         what g_x reads: hypothesis, or pair (premise\n"
"                           __sep__ hypothesis) [hypothesis]\n"
"      --word-ngrams N      fastText word n-grams [2]\n"
"      --epoch N            fastText epochs [5]\n"
"      --lr X               fastText learning rate [0.1]\n"
"      --dim N              fastText dimensions (hidden units) [10, or the\n"
"                           labels less one above 11 labels, at most 100]\n"
"      --bucket N           fastText hash buckets [4 per distinct n-gram of\n"
"                           the training text, at most 2000000]\n"
"      --threads N          fastText threads, of which only 1 gives the same\n"
"                           output every run; and the bootstrap's, which any\n"
"                           number gives the same [1]\n"
"      --seed N             the folds' deal, fastText's seed and the\n"
"                           bootstrap's [0]\n"
"\n"
"Output:\n"
"  -o, --output FILE        the per-example table, atomically [stdout]\n"
"      --summary FILE       the V-information overall and per class, with\n"
"                           a bootstrap interval\n"
"      --bootstrap B        resamples of the interval [2000]\n"
"      --low FILE           ids of the examples with PVI below --threshold\n"
"      --high FILE          ids of the examples with PVI at --threshold or\n"
"                           above\n"
"      --threshold T        in bits [0]\n"
"      --tokens FILE        token-level artefacts: the mean PVI drop when a\n"
"                           token is deleted from the hypotheses that hold it\n"
"      --min-count N        --tokens: tokens in at least N examples of the\n"
"                           class [5]\n"
"      --redact             --tokens names a token only when it occurs in\n"
"                           examples of at least K premises; the others read\n"
"                           [withheld], with their numbers\n"
"      --min-examples K     with --redact: that K [10]\n"
"  -q, --quiet              no progress on stderr\n"
"      --progress           progress on stderr even when it is not a terminal\n"
"      --help               display this help and exit\n"
"      --version            output version information and exit\n"
"\n"
"The per-example table: id, gold, pvi, p_gold (g_x(y)), p_null (g_null(y)),\n"
"predicted (g_x's most probable label), fold (1 to K), in input order; 6\n"
"decimals.\n"
"\n"
"--summary: class, n, v_info, ci_low, ci_high; the row 'all' first, then the\n"
"classes in byte order. v_info is the mean PVI of the examples; the interval\n"
"is the 95%% bootstrap percentile interval of that mean: B resamples of the\n"
"examples with replacement (within the class for a class row; each resample\n"
"from GSL's mt19937 seeded from --seed, the row and the resample's number),\n"
"the 2.5%% and 97.5%% quantiles of the resampled means.\n"
"\n"
"--tokens (the paper's section 4.3): for every example and every distinct\n"
"token of its hypothesis, PVI(x -> y) - PVI(x without every occurrence of the\n"
"token -> y) with the fold's g_x and g_null; columns class, token, n,\n"
"pvi_drop (the mean over the n examples of the class holding the token);\n"
"tokens by drop descending. The id files are written with a .sha256 beside\n"
"them, as tells-aflite's.\n"
"\n"
"Deterministic: with one thread and the same --seed the outputs are the same\n"
"bytes every run (fastText with several threads is not).\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  tells-prep -q -t whitespace --split dev corpora/snli/snli_1.0_dev.jsonl -o snli.tsv\n"
"  tells-pvi --summary summary.tsv --low hard.ids -o pvi.tsv snli.tsv\n"
"  tells-baseline --train dev --folds 5 --partition hard=hard.ids snli.tsv\n");
}

enum {
    OPT_FOLDS = 256, OPT_GROUP_BY, OPT_TUNE, OPT_INPUT,
    OPT_SEED, OPT_SUMMARY, OPT_BOOTSTRAP, OPT_LOW, OPT_HIGH, OPT_THRESHOLD,
    OPT_TOKENS, OPT_MIN_COUNT
};

static const struct option long_options[] = {
    {"folds", required_argument, NULL, OPT_FOLDS},
    {"group-by", required_argument, NULL, OPT_GROUP_BY},
    {"tune", no_argument, NULL, OPT_TUNE},
    {"input", required_argument, NULL, OPT_INPUT},
    CLI_FASTTEXT_OPTIONS,
    {"seed", required_argument, NULL, OPT_SEED},
    {"output", required_argument, NULL, 'o'},
    {"summary", required_argument, NULL, OPT_SUMMARY},
    {"bootstrap", required_argument, NULL, OPT_BOOTSTRAP},
    {"low", required_argument, NULL, OPT_LOW},
    {"high", required_argument, NULL, OPT_HIGH},
    {"threshold", required_argument, NULL, OPT_THRESHOLD},
    {"tokens", required_argument, NULL, OPT_TOKENS},
    {"min-count", required_argument, NULL, OPT_MIN_COUNT},
    CLI_REDACT_OPTIONS,
    CLI_QUIET_OPTION,
    CLI_PROGRESS_OPTION,
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

typedef struct config {
    pvi_options o;
    const char *input, *output, *summary, *low, *high, *tokens;
    double threshold;
    size_t min_count;
    cli_redact redact;
} config;

static void parse_args(int argc, char **argv, config *cfg)
{
    *cfg = (config){.threshold = 0, .min_count = 5};
    pvi_options *o = &cfg->o;
    pvi_options_default(o);
    cli_verbosity v = {0};
    int c;
    while ((c = getopt_long(argc, argv, "o:q", long_options, NULL)) != -1) {
        if (cli_common_option(c, usage, &v) || cli_fasttext_option(c, &o->ft) ||
            cli_redact_option(c, &cfg->redact))
            continue;
        switch (c) {
        case OPT_FOLDS: o->folds = (size_t)cli_long("--folds", optarg, 2, 1000); break;
        case OPT_GROUP_BY: o->group = cli_group_by(optarg); break;
        case OPT_TUNE: o->tune = true; break;
        case OPT_INPUT:
            if (baseline_input_parse(optarg, &o->input) < 0 ||
                (o->input != INPUT_HYPOTHESIS && o->input != INPUT_PAIR))
                cli_usage_error("invalid input '%s' (hypothesis or pair)", optarg);
            break;
        case OPT_SEED:
            o->ft.seed = (int)cli_long("--seed", optarg, 0, 2147483647);
            o->seed = (unsigned long)o->ft.seed;
            break;
        case 'o': cfg->output = optarg; break;
        case OPT_SUMMARY: cfg->summary = optarg; break;
        case OPT_BOOTSTRAP:
            o->samples = (size_t)cli_long("--bootstrap", optarg, 1, 10000000);
            break;
        case OPT_LOW: cfg->low = optarg; break;
        case OPT_HIGH: cfg->high = optarg; break;
        case OPT_THRESHOLD:
            cfg->threshold = cli_double_range("--threshold", optarg, -INFINITY, INFINITY,
                                              CLI_CLOSED);
            break;
        case OPT_TOKENS: cfg->tokens = optarg; o->tokens = true; break;
        case OPT_MIN_COUNT:
            cfg->min_count = (size_t)cli_long("--min-count", optarg, 1, 1L << 40);
            break;
        default: cli_try_help();
        }
    }
    cli_redact_check(&cfg->redact);
    o->threads = (size_t)o->ft.threads;
    if (argc - optind != 1)
        cli_usage_error(argc == optind ? "no input file (use - for stdin)"
                                       : "only one input file");
    cfg->input = argv[optind];
    if (cli_show_progress(v.quiet, v.progress))
        o->progress = cli_progress;
}

static void check_io(const config *cfg)
{
    io_plan io;
    io_plan_init(&io);
    io_input(&io, "FILE", cfg->input);
    io_output(&io, "--output", cfg->output ? cfg->output : "-");
    io_output(&io, "--summary", cfg->summary);
    io_output(&io, "--tokens", cfg->tokens);
    io_output_idfile(&io, "--low", cfg->low);
    io_output_idfile(&io, "--high", cfg->high);
    cli_check_io(&io);
}

/* The id files, then --summary, --tokens and the table, committed
   together. */
static int write_outputs(const config *cfg, const dataset *d, const pvi_result *r,
                         tells_error *err)
{
    if (cfg->low && pvi_write_ids(cfg->low, d, r, cfg->threshold, true, err) < 0)
        return -1;
    if (cfg->high && pvi_write_ids(cfg->high, d, r, cfg->threshold, false, err) < 0)
        return -1;
    int rc = 0;
    out_set set = {0};
    FILE *fp;
    if (cfg->summary) {
        if (!(fp = out_set_open(&set, cfg->summary, err)))
            rc = -1;
        else
            pvi_write_summary(fp, d, r);
    }
    if (rc == 0 && cfg->tokens) {
        if (!(fp = out_set_open(&set, cfg->tokens, err)))
            rc = -1;
        else {
            redact_gate *g = NULL;
            if (cfg->redact.on && !(g = redact_gate_new(d, cfg->redact.k, err)))
                rc = -1;
            else
                rc = pvi_write_tokens(fp, d, r, cfg->min_count, 0, g, err) < 0 && err->kind
                         ? -1
                         : 0;
            redact_gate_free(g);
        }
    }
    if (rc == 0) {
        if (!(fp = out_set_open(&set, cfg->output, err)))
            rc = -1;
        else
            pvi_write_examples(fp, d, r);
    }
    if (rc == 0)
        return out_set_commit(&set, err);
    out_set_abort(&set);
    return rc;
}

static int pvi(const config *cfg, tells_error *err)
{
    dataset d = {0};
    pvi_result r = {0};
    int rc = dataset_load(&d, cfg->input, err);
    if (rc == 0)
        rc = dataset_require_examples(&d, err);
    if (rc == 0)
        rc = pvi_run(&d, &cfg->o, &r, err);
    if (rc == 0)
        rc = write_outputs(cfg, &d, &r, err);
    pvi_result_free(&r);
    dataset_free(&d);
    return rc;
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-pvi");
    config cfg;
    parse_args(argc, argv, &cfg);
    check_io(&cfg);
    tells_error err;
    tells_error_clear(&err);
    if (pvi(&cfg, &err) < 0)
        cli_fail(&err);
    return 0;
}
