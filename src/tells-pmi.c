/* tells-pmi: token-class PMI of a prepared TSV. */
#include <config.h>

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "text/redact.h"
#include "stats/pmi.h"

static void usage(void)
{
    printf("Usage: tells-pmi [OPTION]... [FILE]...\n"
"Rank the tokens that give each label away: pointwise mutual information\n"
"between tokens and classes over a prepared TSV (FILE, or stdin when FILE is\n"
"absent or '-'; several files are read as one corpus).\n"
"\n"
"Definition: count(w,c) = occurrences of token w in the chosen field of\n"
"class-c examples (--binary: examples containing w); keep w whose total\n"
"count is at least --min-count; add --smoothing K to count(w,c) for every\n"
"kept w and every class; p(w,c) = smoothed count / sum of smoothed counts;\n"
"PMI(w,c) = log2 p(w,c) / (p(w,.) p(.,c)).\n"
"\n"
"      --measure NAME     pmi; z: the competency test of Gardner et al.\n"
"                         (2021); logodds: Monroe et al.'s (2008) log-odds\n"
"                         ratio with an informative Dirichlet prior;\n"
"                         pmi-published: PMI as the MedNLI study's published\n"
"                         code computes it [pmi]\n"
"  -F, --field NAME       hypothesis, premise or both [hypothesis]\n"
"  -b, --binary           count each example at most once per token\n"
"  -m, --min-count N      keep tokens seen at least N times in all (z: in at\n"
"                         least N examples; pmi-published: in at least N\n"
"                         examples of the class) [5]\n"
"      --alpha A          z: family-wise level, Bonferroni over the token-class\n"
"                         pairs tested [0.01]\n"
"      --class-prior      z: expect each class's share of the examples, not\n"
"                         1/classes\n"
"      --exact            z: p-values from the exact binomial tail, not the\n"
"                         normal approximation\n"
"      --prior FILE       logodds: the prior counts a_w of a background corpus:\n"
"                         a counts file (--emit-counts) or token<TAB>count\n"
"                         lines [the corpus's own counts]\n"
"      --prior-scale X    logodds: multiply the prior counts by X [1]\n"
"  -k, --smoothing K      add K to every kept count [50]\n"
"  -n, --top N            rows per class [15]\n"
"  -a, --all              every kept token for every class (kept tokens x\n"
"                         classes rows, held in memory until written)\n"
"      --no-header        the input has no header line (shards)\n"
"  -j, --threads N        threads reading a large file; results do not\n"
"                         depend on it [number of CPUs, at most 8]\n"
"      --emit-counts      write mergeable counts instead of the table\n"
"      --from-counts      the FILEs are counts files made by --emit-counts;\n"
"                         sum them and write the table\n"
"      --redact         name a token only when it occurs in examples of at\n"
"                       least K premises; the others read [withheld], with\n"
"                       their numbers (one prepared FILE, not counts)\n"
"      --min-examples K with --redact: that K [10]\n"
"  -o, --output FILE      write here, atomically [stdout]\n"
"      --help             display this help and exit\n"
"      --version          output version information and exit\n"
"\n"
"Output: TSV with header class, token, pmi, count, class_share; classes in\n"
"byte order of their names, tokens by PMI descending then by token; count is\n"
"the raw count(w,c); class_share the fraction of class-c examples whose\n"
"field contains w; pmi and class_share with 6 decimals.\n"
"\n"
"--measure z: for a token in n examples, p_hat of them of class c, p0 = 1 /\n"
"classes (or the class's share), z = (p_hat - p0) / sqrt(p0 (1 - p0) / n),\n"
"p = P(Z >= z) (--exact: P(X >= p_hat n) for X ~ Binomial(n, p0), the same\n"
"one-sided test without the approximation); significant when p <= alpha / m,\n"
"m the token-class pairs tested. Columns class, token, n, p_hat, z, p_value,\n"
"significant (yes or no); tokens by z descending; p_value with 3 significant\n"
"digits.\n"
"\n"
"--measure logodds (Monroe, Colaresi and Quinn 2008, section 3.5), each\n"
"class c against the other classes pooled (r): y_w^c the count of w in c,\n"
"n^c the class's token total, a_w the prior count of w (by default w's count\n"
"in the whole corpus), a_0 the sum of the prior counts;\n"
"delta = ln((y_w^c + a_w) / (n^c + a_0 - y_w^c - a_w))\n"
"      - ln((y_w^r + a_w) / (n^r + a_0 - y_w^r - a_w)),\n"
"var = 1/(y_w^c + a_w) + 1/(y_w^r + a_w), z = delta / sqrt(var); natural\n"
"logarithms. Tokens with a count of at least --min-count and a prior count\n"
"above 0. Columns class, token, count (y_w^c), delta, var, z; tokens by z\n"
"descending; 6 decimals.\n"
"\n"
"--measure pmi-published follows src/analysis/lexical.py of the MedNLI\n"
"study's code (crherlihy/clinical_nli_artifacts, commit b330f71): tokens are\n"
"re-read as scikit-learn's CountVectorizer reads text (lowercased runs of two\n"
"or more word characters); p(w) = (count(w) + K) / the sum of (count + K)\n"
"over every token of the corpus, stop words included; for class c only\n"
"tokens that are not scikit-learn's English stop words and are in at least\n"
"--min-count examples of c; p(w|c) = (count(w,c) + K) / the sum of\n"
"(count + K) over those tokens; p(c) = the class's share of the examples;\n"
"PMI = log2 p(w|c) / (p(w) p(c)). Columns class, token, pmi, count, percent:\n"
"percent is 100 p(w|c) with 2 decimals, the '%%' column the code prints (not\n"
"a share of examples). Its settings were K = 50 and --min-count 5.\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  tells-prep -q -t whitespace --split dev corpora/snli/snli_1.0_dev.jsonl \\\n"
"    -o snli.tsv\n"
"  tells-pmi --smoothing 100 --top 10 snli.tsv\n"
"  # the same table from shards, e.g. under GNU parallel or Hadoop Streaming:\n"
"  # (the counts go to counts.*, so that shard.* is the shards alone and the\n"
"  # lines run again give the same table)\n"
"  tail -n +2 snli.tsv | split -l 2000 - shard.\n"
"  for s in shard.*; do\n"
"    tells-pmi --no-header --emit-counts -o counts.${s#shard.} $s; done\n"
"  tells-pmi --smoothing 100 --top 10 --from-counts counts.*\n"
"  tells-pmi --measure z --top 5 snli.tsv   # Gardner et al.'s test\n"
"  tells-pmi --measure z --exact --top 5 snli.tsv\n"
"  tells-pmi --measure logodds --top 10 snli.tsv\n");
}

enum {
    OPT_NO_HEADER = 256, OPT_EMIT, OPT_FROM, OPT_MEASURE, OPT_ALPHA, OPT_CLASS_PRIOR,
    OPT_EXACT, OPT_PRIOR, OPT_PRIOR_SCALE
};

static const struct option long_options[] = {
    {"field", required_argument, NULL, 'F'},
    {"measure", required_argument, NULL, OPT_MEASURE},
    {"alpha", required_argument, NULL, OPT_ALPHA},
    {"class-prior", no_argument, NULL, OPT_CLASS_PRIOR},
    {"exact", no_argument, NULL, OPT_EXACT},
    {"prior", required_argument, NULL, OPT_PRIOR},
    {"prior-scale", required_argument, NULL, OPT_PRIOR_SCALE},
    {"binary", no_argument, NULL, 'b'},
    {"min-count", required_argument, NULL, 'm'},
    {"smoothing", required_argument, NULL, 'k'},
    {"top", required_argument, NULL, 'n'},
    {"all", no_argument, NULL, 'a'},
    {"no-header", no_argument, NULL, OPT_NO_HEADER},
    {"threads", required_argument, NULL, 'j'},
    {"emit-counts", no_argument, NULL, OPT_EMIT},
    {"from-counts", no_argument, NULL, OPT_FROM},
    CLI_REDACT_OPTIONS,
    {"output", required_argument, NULL, 'o'},
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

typedef struct config {
    pmi_job job;
    const char *output;
    char **files;
    int nfiles;
    cli_redact redact;
} config;

/* The usage errors of options that do not go together. */
static void check_options(const pmi_job *job)
{
    if (job->emit_counts && job->from_counts)
        cli_usage_error("--emit-counts and --from-counts cannot be combined");
    if (job->measure != MEASURE_Z && (job->alpha > 0 || job->class_prior || job->exact))
        cli_usage_error("--alpha, --class-prior and --exact go with --measure z");
    if (job->measure != MEASURE_LOGODDS && (job->prior || job->prior_scale > 0))
        cli_usage_error("--prior and --prior-scale go with --measure logodds");
    if (job->measure == MEASURE_PMI_PUBLISHED && job->opt.binary)
        cli_usage_error("--binary does not go with --measure pmi-published (the "
                        "published code counts occurrences)");
    if (job->measure == MEASURE_PMI && job->opt.smoothing == 0.0 && job->opt.min_count == 0)
        cli_usage_error("--smoothing 0 needs --min-count of at least 1 "
                        "(an unseen token would have PMI -inf)");
}

static void parse_args(int argc, char **argv, config *cfg)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    *cfg = (config){.job = {.field = FIELD_HYPOTHESIS,
                            .opt = {.min_count = 5, .smoothing = 50.0},
                            .top = 15,
                            .threads = cpus < 1 ? 1 : cpus > 8 ? 8 : (int)cpus}};
    pmi_job *job = &cfg->job;
    int c;
    while ((c = getopt_long(argc, argv, "F:bm:k:n:aj:o:", long_options, NULL)) != -1) {
        if (cli_common_option(c, usage, NULL) || cli_redact_option(c, &cfg->redact))
            continue;
        switch (c) {
        case 'F':
            if (text_field_parse(optarg, &job->field) < 0)
                cli_usage_error("invalid field '%s' (hypothesis, premise or both)",
                                optarg);
            break;
        case OPT_MEASURE:
            if (pmi_measure_parse(optarg, &job->measure) < 0)
                cli_usage_error("invalid measure '%s' (pmi, z, logodds or pmi-published)",
                                optarg);
            break;
        case OPT_ALPHA:
            job->alpha = cli_double_range("--alpha", optarg, 0, 1, CLI_OPEN);
            break;
        case OPT_CLASS_PRIOR: job->class_prior = true; break;
        case OPT_EXACT: job->exact = true; break;
        case OPT_PRIOR: job->prior = optarg; break;
        case OPT_PRIOR_SCALE:
            job->prior_scale = cli_double_range("--prior-scale", optarg, 0, INFINITY,
                                                CLI_OPEN_MIN);
            break;
        case 'b': job->opt.binary = true; break;
        case 'm':
            job->opt.min_count = (uint64_t)cli_long("--min-count", optarg, 0, LONG_MAX);
            break;
        case 'k': job->opt.smoothing = cli_double("--smoothing", optarg, 0.0); break;
        case 'n': job->top = (size_t)cli_long("--top", optarg, 1, LONG_MAX); break;
        case 'a': job->top = 0; break;
        case OPT_NO_HEADER: job->no_header = true; break;
        case 'j': job->threads = (int)cli_long("--threads", optarg, 1, 64); break;
        case OPT_EMIT: job->emit_counts = true; break;
        case OPT_FROM: job->from_counts = true; break;
        case 'o': cfg->output = optarg; break;
        default: cli_try_help();
        }
    }
    check_options(job);
    cfg->files = cli_operands(argc, argv, &cfg->nfiles);
    cli_redact_check(&cfg->redact);
    if (cfg->redact.on &&
        (job->from_counts || job->emit_counts || job->no_header || cfg->nfiles != 1 ||
         strcmp(cfg->files[0], "-") == 0))
        cli_usage_error("--redact needs one prepared FILE with its header (its premises "
                        "decide what is shown), and writes no counts");
}

static void check_io(const config *cfg)
{
    io_plan io;
    io_plan_init(&io);
    for (int i = 0; i < cfg->nfiles; i++)
        io_input(&io, "FILE", cfg->files[i]);
    io_input(&io, "--prior", cfg->job.prior);
    io_output(&io, "--output", cfg->output ? cfg->output : "-");
    cli_check_io(&io);
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-pmi");
    cli_hint(TELLS_E_NOT_PREPARED, "--no-header for headerless input");
    cli_hint(TELLS_E_NOT_COUNTS, "made by tells-pmi --emit-counts");
    config cfg;
    parse_args(argc, argv, &cfg);
    check_io(&cfg);
    redact_gate *gate = cli_redact_gate(&cfg.redact, cfg.nfiles ? cfg.files[0] : NULL);
    cfg.job.shown = gate;
    tells_error err;
    tells_error_clear(&err);
    if (pmi_run(&cfg.job, cfg.files, (size_t)cfg.nfiles, cfg.output, &err) < 0)
        cli_fail(&err);
    redact_gate_free(gate);
    return 0;
}
