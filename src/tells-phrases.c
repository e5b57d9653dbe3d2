/* tells-phrases: learn collocations for tells-prep --phrases. */
#include <config.h>

#include <getopt.h>
#include <limits.h>
#include <stdio.h>

#include "cli.h"
#include "text/collocations.h"

static void usage(void)
{
    printf("Usage: tells-phrases [OPTION]... [FILE]\n"
"Learn multi-word phrases (collocations) from a prepared TSV (FILE, or stdin\n"
"when absent or '-') and write a phrase list for 'tells-prep --phrases'.\n"
"A bigram 'a b' becomes a phrase when (as word2phrase does)\n"
"  score = (n(ab) - delta) / (n(a) n(b)) * N  >  threshold\n"
"where N is the number of tokens and n(a), n(b), n(ab) are all at least\n"
"--min-count. Each further pass runs on the text with the phrases found so\n"
"far merged, so phrases of three and more words appear.\n"
"\n"
"  -F, --field NAME       hypothesis, premise or both [both]\n"
"  -d, --delta D          discount subtracted from n(ab) [5]\n"
"  -t, --threshold T      score a phrase must exceed [100]\n"
"  -m, --min-count N      least count of a, b and ab [5]\n"
"  -p, --passes N         passes [1]\n"
"      --scores           also write count and score (TSV after a '#' header)\n"
"      --no-header        the input has no header line\n"
"  -o, --output FILE      write here, atomically [stdout]\n"
"      --help             display this help and exit\n"
"      --version          output version information and exit\n"
"\n"
"Output: one phrase per line, words separated by single spaces, by score\n"
"descending then by phrase; a '_' inside a learned token is written as a\n"
"space.\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  tells-prep --split train corpora/synthetic/train.jsonl -o raw.tsv\n"
"  tells-phrases --passes 2 -o phrases.txt raw.tsv\n"
"  tells-prep --phrases phrases.txt --split train corpora/synthetic/train.jsonl \\\n"
"    -o prepared.tsv\n");
}

enum { OPT_SCORES = 256, OPT_NO_HEADER };

static const struct option long_options[] = {
    {"field", required_argument, NULL, 'F'},
    {"delta", required_argument, NULL, 'd'},
    {"threshold", required_argument, NULL, 't'},
    {"min-count", required_argument, NULL, 'm'},
    {"passes", required_argument, NULL, 'p'},
    {"scores", no_argument, NULL, OPT_SCORES},
    {"no-header", no_argument, NULL, OPT_NO_HEADER},
    {"output", required_argument, NULL, 'o'},
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

typedef struct config {
    colloc_options opt;
    bool scores, no_header;
    const char *input, *output;
} config;

static void parse_args(int argc, char **argv, config *cfg)
{
    *cfg = (config){.opt = {.delta = 5, .threshold = 100, .min_count = 5, .passes = 1,
                            .field = FIELD_BOTH}};
    colloc_options *opt = &cfg->opt;
    int c;
    while ((c = getopt_long(argc, argv, "F:d:t:m:p:o:", long_options, NULL)) != -1) {
        if (cli_common_option(c, usage, NULL))
            continue;
        switch (c) {
        case 'F':
            if (text_field_parse(optarg, &opt->field) < 0)
                cli_usage_error("invalid field '%s' (hypothesis, premise or both)",
                                optarg);
            break;
        case 'd': opt->delta = cli_double("--delta", optarg, 0.0); break;
        case 't': opt->threshold = cli_double("--threshold", optarg, 0.0); break;
        case 'm':
            opt->min_count = (uint64_t)cli_long("--min-count", optarg, 1, LONG_MAX);
            break;
        case 'p': opt->passes = (int)cli_long("--passes", optarg, 1, 10); break;
        case OPT_SCORES: cfg->scores = true; break;
        case OPT_NO_HEADER: cfg->no_header = true; break;
        case 'o': cfg->output = optarg; break;
        default: cli_try_help();
        }
    }
    if (argc - optind > 1)
        cli_usage_error("extra operand '%s'", argv[optind + 1]);
    cfg->input = optind < argc ? argv[optind] : "-";
}

static void check_io(const config *cfg)
{
    io_plan io;
    io_plan_init(&io);
    io_input(&io, "FILE", cfg->input);
    io_output(&io, "--output", cfg->output ? cfg->output : "-");
    cli_check_io(&io);
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-phrases");
    cli_hint(TELLS_E_NOT_PREPARED, "--no-header for headerless input");
    config cfg;
    parse_args(argc, argv, &cfg);
    check_io(&cfg);
    tells_error err;
    tells_error_clear(&err);
    if (colloc_run(cfg.input, cfg.no_header, &cfg.opt, cfg.scores, cfg.output, &err) < 0)
        cli_fail(&err);
    return 0;
}
