/* tells-carto: dataset cartography from training dynamics. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "analysis/aflite.h"
#include "base/dataset.h"
#include "base/outfile.h"
#include "model/carto.h"

static void usage(void)
{
    printf("Usage: tells-carto [OPTION]... EPOCH-FILE...\n"
"  or:  tells-carto --train FILE (--embeddings X.npy | --vectors FILE) [OPTION]...\n"
"Dataset cartography (Swayamdipta et al. 2020): how sure a model is of each\n"
"training example's gold label over the epochs of its training, and the\n"
"easy-to-learn, ambiguous and hard-to-learn regions of the data map.\n"
"\n"
"Training dynamics, one file per epoch in epoch order: the cartography code's\n"
"dynamics_epoch_K.jsonl (lines {\"guid\": ..., \"logits_epoch_K\": [...],\n"
"\"gold\": CLASS-INDEX}, each key once, K consecutive from file to file and\n"
"at most 2^63 - 1; probabilities are the softmax of the logits) or a tells\n"
"predictions TSV (columns id, gold, p_CLASS for every class, as\n"
"tells-baseline --predictions writes; other columns are ignored; a row's\n"
"probabilities each from 0 to 1, summing to 1 within 0.01). Every epoch\n"
"holds the same examples.\n"
"\n"
"Or --train: a hypothesis-only model trained here, recording every training\n"
"example's gold probability after each epoch: a softmax regression over the\n"
"averaged embeddings of FILE's hypotheses (tells-embed's), columns\n"
"standardised, trained by minibatch SGD from zero weights (--batch examples\n"
"per step, step size --lr, no penalty; the examples shuffled every epoch with\n"
"GSL's mt19937 seeded with --seed). Minibatch SGD, not the L-BFGS of\n"
"tells-aflite, because cartography needs a model that learns over epochs,\n"
"as the paper's fine-tuned networks do; the same seed gives the same bytes.\n"
"\n"
"Per example, with p_e its gold probability after epoch e of E and c_e\n"
"whether the most probable class (the first of equals) was the gold one:\n"
"confidence = mean p_e; variability = population standard deviation of p_e;\n"
"correctness = (sum c_e) / E; forgetfulness = the times c_e = 1 and\n"
"c_{e+1} = 0. (The cartography code keeps correctness as the count and\n"
"writes forgetfulness 1000 for an example never right.)\n"
"\n"
"Regions: every example in exactly one. Ambiguous: the floor(F N) + 1\n"
"examples of the highest variability (the cartography code's region size);\n"
"of the others, easy-to-learn: the half of the highest confidence (the larger\n"
"half when odd); hard-to-learn: the rest. Ties by id in byte order, so the\n"
"regions do not depend on the order of the rows.\n"
"\n"
"  -o, --output FILE        the per-example table, atomically [stdout]\n"
"      --easy FILE          ids of the easy-to-learn region\n"
"      --ambiguous FILE     ids of the ambiguous region\n"
"      --hard FILE          ids of the hard-to-learn region\n"
"      --fraction F         the share F of the examples that is ambiguous; the\n"
"                           other two regions halve the rest [0.33]\n"
"      --train FILE         train on this prepared TSV's examples\n"
"      --embeddings FILE    --train: its matrix (.npy, a row per example)\n"
"      --vectors FILE       --train: word vectors to average instead (.bin or\n"
"                           .vec, as tells-embed)\n"
"      --epochs E           --train: epochs [6]\n"
"      --batch N            --train: examples per step [32]\n"
"      --lr X               --train: step size [0.1]\n"
"      --seed N             --train: the shuffle's seed [0]\n"
"      --help               display this help and exit\n"
"      --version            output version information and exit\n"
"\n"
"Output: TSV with header id, gold, confidence, variability, correctness,\n"
"forgetfulness; examples in the order of the first epoch (of FILE with\n"
"--train); 6 decimals. Id files in input order, with a .sha256 beside each.\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  tells-prep -q --split train corpora/synthetic/train.jsonl -o synth.tsv\n"
"  tells-embed --train-vectors vec.bin --dim 50 -o hyp.npy synth.tsv\n"
"  tells-carto --train synth.tsv --embeddings hyp.npy --easy easy.ids \\\n"
"    --hard hard.ids --ambiguous amb.ids\n");
}

enum {
    OPT_EASY = 256, OPT_AMBIGUOUS, OPT_HARD, OPT_FRACTION, OPT_TRAIN, OPT_EMBEDDINGS,
    OPT_VECTORS, OPT_EPOCHS, OPT_BATCH, OPT_LR, OPT_SEED
};

static const struct option long_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"easy", required_argument, NULL, OPT_EASY},
    {"ambiguous", required_argument, NULL, OPT_AMBIGUOUS},
    {"hard", required_argument, NULL, OPT_HARD},
    {"fraction", required_argument, NULL, OPT_FRACTION},
    {"train", required_argument, NULL, OPT_TRAIN},
    {"embeddings", required_argument, NULL, OPT_EMBEDDINGS},
    {"vectors", required_argument, NULL, OPT_VECTORS},
    {"epochs", required_argument, NULL, OPT_EPOCHS},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"lr", required_argument, NULL, OPT_LR},
    {"seed", required_argument, NULL, OPT_SEED},
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

typedef struct config {
    const char *output, *region[3], *train, *embeddings, *vectors;
    double fraction;
    carto_train_options to;
    char **epochs;            /* the EPOCH-FILEs */
    int nepochs;
} config;

static void parse_args(int argc, char **argv, config *cfg)
{
    *cfg = (config){.fraction = 0.33};
    carto_train_options_default(&cfg->to);
    carto_train_options *to = &cfg->to;
    bool training_option = false;
    int c;
    while ((c = getopt_long(argc, argv, "o:", long_options, NULL)) != -1) {
        if (cli_common_option(c, usage, NULL))
            continue;
        switch (c) {
        case 'o': cfg->output = optarg; break;
        case OPT_EASY: cfg->region[CARTO_EASY] = optarg; break;
        case OPT_AMBIGUOUS: cfg->region[CARTO_AMBIGUOUS] = optarg; break;
        case OPT_HARD: cfg->region[CARTO_HARD] = optarg; break;
        case OPT_FRACTION:
            cfg->fraction = cli_double_range("--fraction", optarg, 0, 1, CLI_OPEN);
            break;
        case OPT_TRAIN: cfg->train = optarg; break;
        case OPT_EMBEDDINGS: cfg->embeddings = optarg; break;
        case OPT_VECTORS: cfg->vectors = optarg; break;
        case OPT_EPOCHS:
            to->epochs = (size_t)cli_long("--epochs", optarg, 1, 10000);
            training_option = true;
            break;
        case OPT_BATCH:
            to->batch = (size_t)cli_long("--batch", optarg, 1, 1L << 30);
            training_option = true;
            break;
        case OPT_LR:
            to->lr = cli_double("--lr", optarg, 1e-12);
            training_option = true;
            break;
        case OPT_SEED:
            to->seed = (unsigned long)cli_long("--seed", optarg, 0, 2147483647);
            training_option = true;
            break;
        default: cli_try_help();
        }
    }
    if (cfg->train) {
        if (optind < argc)
            cli_usage_error("--train makes the dynamics: no epoch files with it");
        if (!cfg->embeddings == !cfg->vectors)
            cli_usage_error("--train needs --embeddings or --vectors (one of them)");
    } else {
        if (cfg->embeddings || cfg->vectors || training_option)
            cli_usage_error("--embeddings, --vectors, --epochs, --batch, --lr and --seed "
                            "go with --train");
        if (optind == argc)
            cli_usage_error("no epoch files (or --train)");
    }
    cfg->epochs = argv + optind;
    cfg->nepochs = argc - optind;
}

static void check_io(const config *cfg)
{
    io_plan io;
    io_plan_init(&io);
    for (int k = 0; k < cfg->nepochs; k++)
        io_input(&io, "EPOCH-FILE", cfg->epochs[k]);
    io_input(&io, "--train", cfg->train);
    io_input(&io, "--embeddings", cfg->embeddings);
    io_input(&io, "--vectors", cfg->vectors);
    io_output(&io, "--output", cfg->output ? cfg->output : "-");
    io_output_idfile(&io, "--easy", cfg->region[CARTO_EASY]);
    io_output_idfile(&io, "--ambiguous", cfg->region[CARTO_AMBIGUOUS]);
    io_output_idfile(&io, "--hard", cfg->region[CARTO_HARD]);
    cli_check_io(&io);
}

/* The dynamics: trained here (--train) or read from the epoch files. */
static int dynamics(const config *cfg, carto_dynamics *d, tells_error *err)
{
    if (!cfg->train) {
        for (int k = 0; k < cfg->nepochs; k++)
            if (carto_read_epoch(d, cfg->epochs[k], err) < 0)
                return -1;
        return 0;
    }
    embed_options eo = {.input = EMBED_HYPOTHESIS, .pair = EMBED_PAIR_SUM};
    dataset ds = {0};
    npy_matrix x = {0};
    int rc = dataset_load(&ds, cfg->train, err);
    if (rc == 0)
        rc = dataset_require_examples(&ds, err);
    if (rc == 0)
        rc = aflite_matrix(&ds, cfg->embeddings, cfg->vectors, &eo, &x, err);
    if (rc == 0)
        rc = carto_train(&ds, x.data, x.cols, &cfg->to, d, err);
    npy_free(&x);
    dataset_free(&ds);
    return rc;
}

/* The per-example table and the regions' id files. */
static int carto(const config *cfg, tells_error *err)
{
    carto_dynamics d;
    carto_stats s = {0};
    int rc = carto_dynamics_init(&d, err);
    if (rc == 0)
        rc = dynamics(cfg, &d, err);
    if (rc == 0)
        rc = carto_compute(&d, &s, err);
    for (int r = 0; rc == 0 && r < 3; r++)
        if (cfg->region[r])
            rc = carto_write_ids(cfg->region[r], &d, &s, (carto_region)r, cfg->fraction, err);
    out_file o;
    if (rc == 0)
        rc = out_open(&o, cfg->output, err);
    if (rc == 0) {
        carto_write_table(o.fp, &d, &s);
        rc = out_commit(&o, err);
    }
    carto_stats_free(&s);
    carto_dynamics_free(&d);
    return rc;
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-carto");
    config cfg;
    parse_args(argc, argv, &cfg);
    check_io(&cfg);
    tells_error err;
    tells_error_clear(&err);
    if (carto(&cfg, &err) < 0)
        cli_fail(&err);
    return 0;
}
