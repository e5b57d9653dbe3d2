/* tells-embed: every example as the average of its token vectors. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "base/dataset.h"
#include "model/embed.h"
#include "base/npy.h"
#include "base/outfile.h"
#include "model/baseline.h"

static void usage(void)
{
    printf("Usage: tells-embed [OPTION]... FILE\n"
"Write every row of a prepared TSV (FILE, or stdin for '-') as the average\n"
"of its token vectors: a float32 matrix in NumPy's .npy format, rows in\n"
"the TSV's order, for tells-aflite --embeddings (or numpy.load).\n"
"\n"
"Vectors:\n"
"  -v, --vectors FILE       a fastText model (.bin: a token it does not\n"
"                           know gets its character n-gram vectors) or a\n"
"                           text file of vectors, one word and its numbers\n"
"                           per line, with an optional 'WORDS DIMENSIONS'\n"
"                           first line (fastText's .vec, GloVe)\n"
"      --train-vectors FILE  first train fastText skipgram vectors on the\n"
"                           distinct premises and hypotheses of FILE, save\n"
"                           them here (.bin, atomically) and use them\n"
"      --dim N              dimensions of trained vectors [100]\n"
"      --epoch N            epochs of training [5]\n"
"      --min-count N        fewest occurrences of a trained word [5]\n"
"      --threads N          training threads; 1 is deterministic [1]\n"
"      --seed N             training seed [0]\n"
"      --parts N            train N models of DIM/N dimensions instead, each\n"
"                           on one thread with a seed of its own drawn from\n"
"                           --seed, side by side on --threads, and join them\n"
"                           (a word's vector is theirs one after the other):\n"
"                           the same bytes whatever --threads; tells-study's\n"
"                           vectors are --dim 100 --parts 2 [none: one\n"
"                           model on --threads fastText threads]\n"
"      --centres WHICH      all: every word of the text is trained, as\n"
"                           fastText does; input: only the words of\n"
"                           --input's texts, the ones averaged (their own\n"
"                           and character n-gram rows), every other word\n"
"                           a context only, on one thread: much faster\n"
"                           when the premises are long and only\n"
"                           hypotheses are averaged; tells-study takes\n"
"                           input where those words are under a quarter\n"
"                           of the text's tokens [all]\n"
"\n"
"Averaging:\n"
"  -i, --input MODE         hypothesis, premise, or pair [hypothesis]\n"
"      --pair HOW           sum: mean of the premise plus mean of the\n"
"                           hypothesis (the MedNLI study's code); concat:\n"
"                           the two means side by side [sum]\n"
"      --skip-oov           average over the tokens that have a vector; by\n"
"                           default a token without one counts as a zero\n"
"                           vector, as in the study's code\n"
"\n"
"Output:\n"
"  -o, --output FILE        write the .npy matrix here, atomically [stdout,\n"
"                           unless it is a terminal]\n"
"  -q, --quiet              no progress on stderr\n"
"      --progress           progress and token counts on stderr even when\n"
"                           it is not a terminal\n"
"      --help               display this help and exit\n"
"      --version            output version information and exit\n"
"\n"
"A text without tokens (or, with --skip-oov, without a token that has a\n"
"vector) is a zero vector. Tokens are the TSV's space-separated tokens,\n"
"merged ones (brain_injury) included.\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  tells-prep -q --split train corpora/synthetic/train.jsonl -o synth.tsv\n"
"  tells-embed --train-vectors synth-vectors.bin --dim 50 -o hyp.npy synth.tsv\n"
"  tells-embed -v synth-vectors.bin --input pair -o pair.npy synth.tsv\n"
"  # As tells-study trains its vectors: the same bytes on 1 thread or 2\n"
"  tells-embed --train-vectors study-vectors.bin --dim 100 --parts 2 --threads 2 \\\n"
"      --seed 1 -o study-hyp.npy synth.tsv\n"
"  # Only the hypotheses' words trained, as tells-study does for long premises:\n"
"  tells-embed --train-vectors hyp-vectors.bin --dim 100 --parts 2 --threads 2 \\\n"
"      --centres input --seed 1 -o hyp-only.npy synth.tsv\n");
}

enum {
    OPT_TRAIN_VECTORS = 256, OPT_DIM, OPT_EPOCH, OPT_MIN_COUNT, OPT_THREADS, OPT_SEED,
    OPT_PAIR, OPT_SKIP_OOV, OPT_PARTS, OPT_CENTRES
};

static const struct option long_options[] = {
    {"vectors", required_argument, NULL, 'v'},
    {"train-vectors", required_argument, NULL, OPT_TRAIN_VECTORS},
    {"dim", required_argument, NULL, OPT_DIM},
    {"epoch", required_argument, NULL, OPT_EPOCH},
    {"min-count", required_argument, NULL, OPT_MIN_COUNT},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"parts", required_argument, NULL, OPT_PARTS},
    {"centres", required_argument, NULL, OPT_CENTRES},
    {"input", required_argument, NULL, 'i'},
    {"pair", required_argument, NULL, OPT_PAIR},
    {"skip-oov", no_argument, NULL, OPT_SKIP_OOV},
    {"output", required_argument, NULL, 'o'},
    CLI_QUIET_OPTION,
    CLI_PROGRESS_OPTION,
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

typedef struct config {
    const char *input, *vectors, *train_vectors, *output;
    embed_options eo;
    ft_train_args ta;
    int parts;   /* 0: one model on ta.threads fastText threads */
    bool centres_input;   /* --centres input */
    bool centres_given;
} config;

static void parse_args(int argc, char **argv, config *cfg)
{
    *cfg = (config){.eo = {.input = EMBED_HYPOTHESIS, .pair = EMBED_PAIR_SUM},
                    .ta = {.mode = "skipgram", .threads = 1}};
    embed_options *eo = &cfg->eo;
    ft_train_args *ta = &cfg->ta;
    cli_verbosity v = {0};
    bool pair_given = false;
    int c;
    while ((c = getopt_long(argc, argv, "v:i:o:q", long_options, NULL)) != -1) {
        if (cli_common_option(c, usage, &v))
            continue;
        switch (c) {
        case 'v': cfg->vectors = optarg; break;
        case OPT_TRAIN_VECTORS: cfg->train_vectors = optarg; break;
        case OPT_DIM: ta->dim = (int)cli_long("--dim", optarg, 1, 10000); break;
        case OPT_EPOCH: ta->epoch = (int)cli_long("--epoch", optarg, 1, 100000); break;
        case OPT_MIN_COUNT: ta->min_count = (int)cli_long("--min-count", optarg, 1, 1000000000); break;
        case OPT_THREADS: ta->threads = (int)cli_long("--threads", optarg, 1, 1024); break;
        case OPT_SEED: ta->seed = (int)cli_long("--seed", optarg, 0, 2147483647); break;
        case OPT_PARTS: cfg->parts = (int)cli_long("--parts", optarg, 1, EMBED_MAX_PARTS); break;
        case OPT_CENTRES:
            if (strcmp(optarg, "input") != 0 && strcmp(optarg, "all") != 0)
                cli_usage_error("invalid --centres '%s' (input or all)", optarg);
            cfg->centres_input = strcmp(optarg, "input") == 0;
            cfg->centres_given = true;
            break;
        case 'i':
            if (embed_input_parse(optarg, &eo->input) < 0)
                cli_usage_error("invalid --input '%s' (hypothesis, premise or pair)", optarg);
            break;
        case OPT_PAIR:
            if (embed_pair_parse(optarg, &eo->pair) < 0)
                cli_usage_error("invalid --pair '%s' (sum or concat)", optarg);
            pair_given = true;
            break;
        case OPT_SKIP_OOV: eo->skip_oov = true; break;
        case 'o': cfg->output = optarg; break;
        default: cli_try_help();
        }
    }
    if (optind + 1 != argc) {
        if (optind >= argc)
            cli_usage_error("missing the prepared TSV");
        cli_usage_error("one prepared TSV only (extra operand '%s')", argv[optind + 1]);
    }
    cfg->input = argv[optind];
    if (!cfg->vectors == !cfg->train_vectors)
        cli_usage_error(cfg->vectors ? "--vectors and --train-vectors exclude each other"
                                     : "give --vectors FILE or --train-vectors FILE");
    if (pair_given && eo->input != EMBED_PAIR)
        cli_usage_error("--pair needs --input pair");
    if (cfg->parts && !cfg->train_vectors)
        cli_usage_error("--parts needs --train-vectors");
    if (cfg->centres_given && !cfg->train_vectors)
        cli_usage_error("--centres needs --train-vectors");
    if (cfg->parts && !ta->dim)
        ta->dim = 100;   /* fastText's default, which the parts share */
    if (cfg->parts && ta->dim % cfg->parts != 0)
        cli_usage_error("--dim %d is not a multiple of --parts %d", ta->dim, cfg->parts);
    if ((!cfg->output || strcmp(cfg->output, "-") == 0) && isatty(STDOUT_FILENO))
        cli_usage_error("will not write a binary matrix to a terminal (use -o FILE)");
    if (cli_show_progress(v.quiet, v.progress))
        eo->progress = cli_progress;
}

static void check_io(const config *cfg)
{
    io_plan io;
    io_plan_init(&io);
    io_input(&io, "FILE", cfg->input);
    io_input(&io, "--vectors", cfg->vectors);
    io_output(&io, "--output", cfg->output ? cfg->output : "-");
    /* fastText's model files are never standard output (baseline.h). */
    io_output(&io, "--train-vectors", fasttext_model_path(cfg->train_vectors));
    cli_check_io(&io);
}

/* Trains the vectors when asked, then writes the matrix. */
static int embed(const config *cfg, tells_error *err)
{
    const embed_options *eo = &cfg->eo;
    const char *vectors = cfg->vectors;
    dataset d;
    if (dataset_load(&d, cfg->input, err) < 0)
        return -1;
    int rc = dataset_require_examples(&d, err);
    embed_words centres = {NULL, NULL, 0};
    if (rc == 0 && cfg->train_vectors) {
        ft_train_args ta = cfg->ta;
        if (cfg->centres_input && (rc = embed_words_collect(&d, eo->input, &centres, err)) == 0) {
            ta.centres = centres.words;
            ta.ncentres = centres.n;
        }
        if (rc == 0 && eo->progress)
            cli_progress("training skipgram vectors", NULL);
        if (rc == 0)
            rc = cfg->parts ? embed_train_vectors_parts(&d, cfg->train_vectors, &ta, cfg->parts,
                                                        (size_t)ta.threads, err)
                            : embed_train_vectors(&d, cfg->train_vectors, &ta, err);
        vectors = cfg->train_vectors;
    }
    embed_words_free(&centres);
    npy_matrix m = {0};
    embed_stats st;
    if (rc == 0)
        rc = embed_dataset(&d, vectors, eo, &m, &st, err);
    if (rc == 0) {
        if (eo->progress)
            cli_warn("%zu rows x %zu: %zu of %zu tokens (%zu of %zu types) without a vector, "
                     "%zu empty texts", m.rows, m.cols, st.oov_tokens, st.tokens, st.oov_types,
                     st.types, st.empty);
        rc = out_write(cfg->output, npy_write_matrix, &m, err);
    }
    npy_free(&m);
    dataset_free(&d);
    return rc;
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-embed");
    config cfg;
    parse_args(argc, argv, &cfg);
    check_io(&cfg);
    tells_error err;
    tells_error_clear(&err);
    if (embed(&cfg, &err) < 0)
        cli_fail(&err);
    return 0;
}
