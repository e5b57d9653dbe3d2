/* tells-leaks: does a folder hold text of a corpus? */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "text/redact.h"

static void usage(void)
{
    printf("Usage: tells-leaks [OPTION]... PATH CORPUS...\n"
"Check that PATH (a folder, read whole, or a file) holds no text of the\n"
"corpus files: no run of N words of a premise or hypothesis, and no word\n"
"found in fewer than K premises (a premise and its hypotheses count once).\n"
"What tells-study --redact and the --redact of the other programs promise,\n"
"checked by anyone before a folder is shared.\n"
"\n"
"  -n, --ngram N            words in a run [%d]\n"
"  -k, --min-examples K     fewest premises of a word that may appear [%d]\n"
"  -f, --format FMT         the CORPUS files: jsonl, csv, tsv or auto (by\n"
"                           extension) [auto]; a prepared TSV is found by\n"
"                           its header\n"
"      --premise-field NAME, --hypothesis-field NAME, --label-field NAME\n"
"                           as tells-prep [sentence1, sentence2, gold_label]\n"
"      --skip-invalid       leave malformed corpus records out\n"
"      --allow TEXT         TEXT's words are not corpus text wherever they\n"
"                           appear alone (a study's --name, a model's name,\n"
"                           a folder's); repeatable\n"
"  -q, --quiet              say nothing when the folder is clean\n"
"      --help               display this help and exit\n"
"      --version            output version information and exit\n"
"\n"
"Words: runs of ASCII letters and digits and of letters beyond ASCII (not\n"
"punctuation, symbols, spaces or emoji; soft hyphens and zero-width\n"
"characters ignored), lowercased as the tokenizer does (ASCII, Latin-1), so\n"
"that the check does not depend on the tokenizer that prepared the corpus.\n"
"Files are read as text, a line's tab-separated fields apart; .html, .htm\n"
"and .svg as markup (their text, comments, style and script, and the title,\n"
"alt and aria-label attributes, character references decoded); a file with\n"
"a NUL byte as its printable runs, in bytes and in 2- and 4-byte units\n"
"(UTF-16, NumPy strings; ASCII characters only). A run never spans two\n"
"fields, elements (but inline ones: b, code, span, ...) or lines. Not\n"
"read: compressed files, JSON's \\u escapes. Not leaks: a run of numbers only, a\n"
"word of digits, the corpus's labels and its files' paths, the words of\n"
"--allow, and the words tells itself writes (its prose, markup and\n"
"figures; a word of the corpus that tells also writes is therefore only\n"
"found in runs).\n"
"\n"
"Output: nothing but a count on success; each file's first finding as\n"
"  tells-leaks: FILE:LINE: 'WORDS' is corpus text (CORPUS:LINE)\n"
"  tells-leaks: FILE:LINE: 'WORD' is a corpus word of 3 premises, fewer than K\n"
"\n"
"Exit status: 0 clean, 1 a leak found or bad data, 2 usage error.\n"
"\n"
"Examples:\n"
"  tells-study -q --redact -o shared \\\n"
"    --split train corpora/synthetic/train.jsonl \\\n"
"    --split test corpora/synthetic/test.jsonl\n"
"  tells-leaks shared corpora/synthetic/train.jsonl corpora/synthetic/test.jsonl\n",
           REDACT_NGRAM, REDACT_MIN_EXAMPLES);
}

enum { OPT_PREMISE = 256, OPT_HYPOTHESIS, OPT_LABEL, OPT_SKIP, OPT_ALLOW };

static const struct option long_options[] = {
    {"ngram", required_argument, NULL, 'n'},
    {"min-examples", required_argument, NULL, 'k'},
    {"format", required_argument, NULL, 'f'},
    {"premise-field", required_argument, NULL, OPT_PREMISE},
    {"hypothesis-field", required_argument, NULL, OPT_HYPOTHESIS},
    {"label-field", required_argument, NULL, OPT_LABEL},
    {"skip-invalid", no_argument, NULL, OPT_SKIP},
    {"allow", required_argument, NULL, OPT_ALLOW},
    CLI_QUIET_OPTION,
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

typedef struct config {
    size_t ngram, k;
    corpus_format format;
    corpus_fields fields;
    bool skip_invalid;
    char **allow;              /* room for argc */
    size_t nallow;
    cli_verbosity v;
    const char *path;
    char **corpora;
    int ncorpora;
} config;

static void parse_args(int argc, char **argv, config *cfg)
{
    *cfg = (config){.ngram = REDACT_NGRAM, .k = REDACT_MIN_EXAMPLES,
                    .fields = CORPUS_FIELDS_DEFAULT};
    if (!(cfg->allow = calloc((size_t)argc, sizeof *cfg->allow)))
        cli_die("out of memory");
    int c;
    while ((c = getopt_long(argc, argv, "n:k:f:q", long_options, NULL)) != -1) {
        if (cli_common_option(c, usage, &cfg->v))
            continue;
        switch (c) {
        case 'n': cfg->ngram = (size_t)cli_long("--ngram", optarg, 2, 32); break;
        case 'k': cfg->k = (size_t)cli_long("--min-examples", optarg, 1, 1000000000L); break;
        case 'f':
            if (corpus_format_parse(optarg, &cfg->format) < 0)
                cli_usage_error("invalid format '%s' (jsonl, csv, tsv or auto)", optarg);
            break;
        case OPT_PREMISE: cfg->fields.premise = optarg; break;
        case OPT_HYPOTHESIS: cfg->fields.hypothesis = optarg; break;
        case OPT_LABEL: cfg->fields.label = optarg; break;
        case OPT_SKIP: cfg->skip_invalid = true; break;
        case OPT_ALLOW: cfg->allow[cfg->nallow++] = optarg; break;
        default: cli_try_help();
        }
    }
    int n;
    char **ops = cli_operands(argc, argv, &n);
    if (n < 2)
        cli_usage_error(n ? "missing CORPUS after '%s'" : "missing PATH and CORPUS%s",
                        n ? ops[0] : "");
    cfg->path = ops[0];
    cfg->corpora = ops + 1;
    cfg->ncorpora = n - 1;
}

static bool print_finding(const leak_finding *f, void *user)
{
    (void)user;
    char what[2048];
    leak_finding_text(f, what, sizeof what);
    fprintf(stderr, "%s: %s:%ld: %s\n", cli_program(), f->file, f->line, what);
    return true;
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-leaks");
    config cfg;
    parse_args(argc, argv, &cfg);
    io_plan io;
    io_plan_init(&io);
    for (int i = 0; i < cfg.ncorpora; i++)
        io_input(&io, "CORPUS", cfg.corpora[i]);
    cli_check_io(&io);
    tells_error err;
    tells_error_clear(&err);
    leak_index *ix = leak_index_new(cfg.ngram, cfg.k, &err);
    if (!ix)
        cli_fail(&err);
    for (int i = 0; i < cfg.ncorpora; i++)
        if (leak_index_add_corpus(ix, cfg.corpora[i], cfg.format, &cfg.fields,
                                  cfg.skip_invalid, &err) < 0)
            cli_fail(&err);
    for (size_t i = 0; i < cfg.nallow; i++)
        if (leak_index_allow(ix, cfg.allow[i], &err) < 0)
            cli_fail(&err);
    long files = 0;
    long hits = leak_scan_path(ix, cfg.path, print_finding, NULL, &files, &err);
    leak_index_free(ix);
    free(cfg.allow);
    if (hits < 0)
        cli_fail(&err);
    if (hits > 0) {
        fprintf(stderr, "%s: %ld of %ld file%s hold%s corpus text\n", cli_program(), hits,
                files, files == 1 ? "" : "s", hits == 1 ? "s" : "");
        return 1;
    }
    if (!cfg.v.quiet)
        printf("%s: %s: %ld file%s, no corpus text (%zu-word runs, words of fewer than %zu "
               "premises)\n", cli_program(), cfg.path, files, files == 1 ? "" : "s", cfg.ngram,
               cfg.k);
    return 0;
}
