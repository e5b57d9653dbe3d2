/* tells-baseline: how far a model gets without the premise. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "analysis/baselines.h"
#include "base/alloc.h"
#include "base/dataset.h"
#include "base/lineio.h"
#include "base/outfile.h"

static void usage(void)
{
    printf("Usage: tells-baseline [OPTION]... FILE\n"
"Train baselines on one split of a prepared TSV and evaluate them on the\n"
"others: the majority class, and fastText on the hypothesis alone (or on\n"
"premise and hypothesis). A hypothesis-only model far above the majority\n"
"class means the corpus can be solved without reading the premise.\n"
"\n"
"Data:\n"
"      --train SPLIT        split to train on: two examples and two classes at\n"
"                           least [train]\n"
"      --eval SPLITS        comma-separated splits to evaluate on [every\n"
"                           split but the training one, by name]\n"
"      --folds K            instead, K-fold cross-validation within the\n"
"                           training split; predictions of the K held-out\n"
"                           folds are pooled and reported as split 'cv'\n"
CLI_GROUP_BY_HELP
"      --input MODE         hypothesis; pair (premise " PAIR_SEPARATOR " hypothesis, one\n"
"                           bag of words, the MedNLI paper's); or pair-features\n"
"                           (side-marked words, premise-by-hypothesis word\n"
"                           pairs, overlap and length difference: a model\n"
"                           that can relate the two); or premise, alone (a\n"
"                           check) [hypothesis]\n"
"      --partition NAME=IDFILE  also score the rows whose id is in IDFILE (one\n"
"                           id per line, or a NumPy .npy array of strings),\n"
"                           with the change from the full split; repeatable.\n"
"                           Each evaluated split must have some of its rows;\n"
"                           ids that no row has are counted on stderr\n"
"\n"
"Models:\n"
"      --model NAME         majority, fasttext or both [both]\n"
"      --majority-from SET  train (majority label of the training split) or\n"
"                           eval (of each evaluated split, and of each\n"
"                           partition's rows in it, as the MedNLI reference\n"
"                           code) [train]\n"
"      --word-ngrams N      fastText word n-grams [2]\n"
"      --epoch N            fastText epochs [5]\n"
"      --lr X               fastText learning rate [0.1]\n"
"      --dim N              fastText dimensions (hidden units) [10, or the\n"
"                           labels less one above 11 labels, at most 100]\n"
"      --bucket N           fastText hash buckets of word n-grams; fewer make\n"
"                           a smaller model [4 per distinct n-gram of the\n"
"                           training text, at most 2000000]\n"
"      --threads N          fastText threads; 1 is deterministic [1]\n"
"      --seed N             fastText seed, and the folds' deal [0]\n"
"\n"
"Output:\n"
"  -o, --output FILE        write the table here, atomically [stdout]\n"
"      --details            also confusion matrices (rows gold, columns\n"
"                           predicted) and per-class precision, recall, F1\n"
"      --save-model FILE    save the fastText model (.bin), atomically\n"
"      --predictions FILE   write id, split, gold, predicted and one\n"
"                           probability column per label for every evaluated\n"
"                           row (fastText's, or majority's if it runs alone),\n"
"                           and with --folds a last column, its fold (1 to K)\n"
"  -q, --quiet              no progress or warnings on stderr\n"
"      --progress           progress on stderr even when it is not a terminal\n"
"      --help               display this help and exit\n"
"      --version            output version information and exit\n"
"\n"
"Output: TSV with header model, input, split, n, micro_f1, macro_f1,\n"
"accuracy; with --partition, a partition column after split ('full' for the\n"
"whole split) and change_micro_f1, change_macro_f1, change_accuracy (the\n"
"partition minus full). Numbers with 6 decimals. --details adds, after a\n"
"blank line, blocks that start with a '# ' line naming model, input and split.\n"
"macro_f1 averages the labels seen in gold or predictions, as scikit-learn.\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  tells-prep -q --split train corpora/synthetic/train.jsonl \\\n"
"    --split dev corpora/synthetic/dev.jsonl --split test corpora/synthetic/test.jsonl \\\n"
"    | tells-baseline --details -\n"
"  tells-prep -q -t whitespace --split dev corpora/snli/snli_1.0_dev.jsonl -o snli.tsv\n"
"  tells-baseline --train dev --folds 5 snli.tsv\n");
}

enum {
    OPT_TRAIN = 256, OPT_EVAL, OPT_FOLDS, OPT_GROUP_BY, OPT_INPUT, OPT_PARTITION, OPT_MODEL,
    OPT_MAJORITY_FROM,
    OPT_SEED, OPT_DETAILS, OPT_SAVE, OPT_PREDICTIONS
};

static const struct option long_options[] = {
    {"train", required_argument, NULL, OPT_TRAIN},
    {"eval", required_argument, NULL, OPT_EVAL},
    {"folds", required_argument, NULL, OPT_FOLDS},
    {"group-by", required_argument, NULL, OPT_GROUP_BY},
    {"input", required_argument, NULL, OPT_INPUT},
    {"partition", required_argument, NULL, OPT_PARTITION},
    {"model", required_argument, NULL, OPT_MODEL},
    {"majority-from", required_argument, NULL, OPT_MAJORITY_FROM},
    CLI_FASTTEXT_OPTIONS,
    {"seed", required_argument, NULL, OPT_SEED},
    {"output", required_argument, NULL, 'o'},
    {"details", no_argument, NULL, OPT_DETAILS},
    {"save-model", required_argument, NULL, OPT_SAVE},
    {"predictions", required_argument, NULL, OPT_PREDICTIONS},
    CLI_QUIET_OPTION,
    CLI_PROGRESS_OPTION,
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

enum { MAX_PARTITIONS = 32 };

typedef struct options {
    const char *input_path, *output, *save_model, *predictions;
    bool details, group_given;
    cli_verbosity v;
    char *eval;                       /* --eval, split in place */
    comparison_config cmp;
    comparison_partition part[MAX_PARTITIONS];
    comparison *result;
} options;

static void parse_partition(options *o, char *arg)
{
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        cli_usage_error("invalid partition '%s' (expected NAME=IDFILE)", arg);
    if (o->cmp.nparts == MAX_PARTITIONS)
        cli_usage_error("at most %d partitions", MAX_PARTITIONS);
    *eq = '\0';
    if (strcmp(arg, "full") == 0 || strpbrk(arg, "\t\n"))
        cli_usage_error("invalid partition name '%s'", arg);
    o->part[o->cmp.nparts++] = (comparison_partition){arg, eq + 1};
}

/* The comma-separated split names of --eval (empty names are passed
   over); the caller frees the array. */
static const char **parse_eval(char *list, size_t *n)
{
    size_t max = 1;
    for (const char *s = list; *s; s++)
        max += *s == ',';
    const char **names = array_new(max, sizeof *names);
    if (!names)
        cli_die("out of memory");
    *n = 0;
    for (char *s = list, *comma; s; s = comma ? comma + 1 : NULL) {
        if ((comma = strchr(s, ',')))
            *comma = '\0';
        if (*s)
            names[(*n)++] = s;
    }
    if (*n == 0)
        cli_usage_error("--eval names no split");
    return names;
}

static void parse_args(int argc, char **argv, options *o)
{
    comparison_config *c = &o->cmp;
    comparison_config_default(c);
    int opt;
    while ((opt = getopt_long(argc, argv, "o:q", long_options, NULL)) != -1) {
        if (cli_common_option(opt, usage, &o->v) || cli_fasttext_option(opt, &c->ft))
            continue;
        switch (opt) {
        case OPT_TRAIN: c->train = optarg; break;
        case OPT_EVAL: o->eval = optarg; break;
        case OPT_FOLDS: c->folds = (size_t)cli_long("--folds", optarg, 2, 1000); break;
        case OPT_GROUP_BY: c->group = cli_group_by(optarg); o->group_given = true; break;
        case OPT_INPUT:
            if (baseline_input_parse(optarg, &c->input) < 0)
                cli_usage_error("invalid input '%s' (hypothesis, pair, pair-features or "
                                "premise)", optarg);
            break;
        case OPT_PARTITION: parse_partition(o, optarg); break;
        case OPT_MODEL:
            c->run_majority = strcmp(optarg, "majority") == 0 || strcmp(optarg, "both") == 0;
            c->run_fasttext = strcmp(optarg, "fasttext") == 0 || strcmp(optarg, "both") == 0;
            if (!c->run_majority && !c->run_fasttext)
                cli_usage_error("invalid model '%s' (majority, fasttext or both)", optarg);
            break;
        case OPT_MAJORITY_FROM:
            if (strcmp(optarg, "train") != 0 && strcmp(optarg, "eval") != 0)
                cli_usage_error("invalid --majority-from '%s' (train or eval)", optarg);
            c->majority_from_eval = strcmp(optarg, "eval") == 0;
            break;
        case OPT_SEED: c->ft.seed = (int)cli_long("--seed", optarg, 0, 2147483647); break;
        case 'o': o->output = optarg; break;
        case OPT_DETAILS: o->details = true; break;
        case OPT_SAVE: o->save_model = optarg; break;
        case OPT_PREDICTIONS: o->predictions = optarg; break;
        default: cli_try_help();
        }
    }
    if (argc - optind != 1)
        cli_usage_error(argc == optind ? "no input file (use - for stdin)"
                                       : "only one input file");
    o->input_path = argv[optind];
    if (o->save_model && !c->run_fasttext)
        cli_usage_error("--save-model needs the fasttext model");
    if (c->folds && o->eval)
        cli_usage_error("--folds and --eval cannot be combined");
    if (o->group_given && !c->folds)
        cli_usage_error("--group-by needs --folds");
    if (o->eval)
        c->eval = parse_eval(o->eval, &c->neval);
    c->parts = o->part;
    c->keep_model = o->save_model != NULL;
    if (cli_show_progress(o->v.quiet, o->v.progress))
        c->progress = cli_progress;
}

static void check_io(const options *o)
{
    io_plan io;
    io_plan_init(&io);
    io_input(&io, "FILE", o->input_path);
    for (size_t k = 0; k < o->cmp.nparts; k++)
        io_input(&io, "--partition", o->part[k].path);
    io_output(&io, "--save-model", fasttext_model_path(o->save_model));
    io_output(&io, "--predictions", o->predictions);
    io_output(&io, "--output", o->output ? o->output : "-");
    cli_check_io(&io);
}

static int write_predictions(FILE *fp, void *cmp, tells_error *err)
{
    return comparison_write_predictions(fp, cmp, err);
}

static int write_table(FILE *fp, void *opts, tells_error *err)
{
    const options *o = opts;
    return comparison_write_table(fp, o->result, o->details, err);
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-baseline");
    cli_hint(TELLS_E_NO_EVAL_SPLIT, "use --folds for cross-validation");
    options o = {0};
    parse_args(argc, argv, &o);
    check_io(&o);
    tells_error err;
    tells_error_clear(&err);
    dataset data = {0};
    comparison cmp = {0};
    o.result = &cmp;
    /* The table comes last, so that a run that fails writes no table. */
    int rc = dataset_load(&data, o.input_path, &err);
    if (rc == 0)
        rc = comparison_run(&cmp, &data, &o.cmp, &err);
    for (size_t k = 0; rc == 0 && !o.v.quiet && k < cmp.nparts; k++)
        if (cmp.part_unknown[k])
            cli_warn("%s: %zu of %zu ids not found in %s", display_name(o.part[k].path),
                     cmp.part_unknown[k], id_set_size(&cmp.part_ids[k]), data.source);
    if (rc == 0 && o.save_model)
        rc = fasttext_save(cmp.model, o.save_model, &err);
    if (rc == 0 && o.predictions)
        rc = out_write(o.predictions, write_predictions, &cmp, &err);
    if (rc == 0)
        rc = out_write(o.output, write_table, &o, &err);
    comparison_free(&cmp);
    dataset_free(&data);
    free((void *)o.cmp.eval);
    if (rc < 0)
        cli_fail(&err);
    return 0;
}
