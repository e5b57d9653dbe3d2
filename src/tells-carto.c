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
"Regions as the cartography code selects them (train_dy_filtering.py): sort\n"
"by the metric, ties in input order, take the first floor(F N) + 1 examples\n"
"(its head(n=num_samples+1)): easy by confidence descending, ambiguous by\n"
"variability descending, hard by confidence ascending.\n"
"\n"
"  -o, --output FILE        the per-example table, atomically [stdout]\n"
"      --easy FILE          ids of the easy-to-learn region\n"
"      --ambiguous FILE     ids of the ambiguous region\n"
"      --hard FILE          ids of the hard-to-learn region\n"
"      --fraction F         the share F of the examples in each region [0.33]\n"
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
"  tells-carto --easy easy.ids --hard hard.ids dynamics_epoch_{0..4}.jsonl\n"
"  tells-embed --vectors vectors.bin -o hyp.npy prepared.tsv\n"
"  tells-carto --train prepared.tsv --embeddings hyp.npy --ambiguous amb.ids\n");
}

enum {
    OPT_EASY = 256, OPT_AMBIGUOUS, OPT_HARD, OPT_FRACTION, OPT_TRAIN, OPT_EMBEDDINGS,
    OPT_VECTORS, OPT_EPOCHS, OPT_BATCH, OPT_LR, OPT_SEED, OPT_HELP, OPT_VERSION
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
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0}
};

int main(int argc, char **argv)
{
    cli_init(argv, "tells-carto");
    const char *output = NULL, *region[3] = {NULL}, *train = NULL, *embeddings = NULL,
               *vectors = NULL;
    double fraction = 0.33;
    carto_train_options to;
    carto_train_options_default(&to);
    bool training_option = false;
    int c;
    while ((c = getopt_long(argc, argv, "o:", long_options, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case OPT_EASY: region[CARTO_EASY] = optarg; break;
        case OPT_AMBIGUOUS: region[CARTO_AMBIGUOUS] = optarg; break;
        case OPT_HARD: region[CARTO_HARD] = optarg; break;
        case OPT_FRACTION:
            fraction = cli_double_range("--fraction", optarg, 0, 1, CLI_OPEN);
            break;
        case OPT_TRAIN: train = optarg; break;
        case OPT_EMBEDDINGS: embeddings = optarg; break;
        case OPT_VECTORS: vectors = optarg; break;
        case OPT_EPOCHS:
            to.epochs = (size_t)cli_long("--epochs", optarg, 1, 10000);
            training_option = true;
            break;
        case OPT_BATCH:
            to.batch = (size_t)cli_long("--batch", optarg, 1, 1L << 30);
            training_option = true;
            break;
        case OPT_LR:
            to.lr = cli_double("--lr", optarg, 1e-12);
            training_option = true;
            break;
        case OPT_SEED:
            to.seed = (unsigned long)cli_long("--seed", optarg, 0, 2147483647);
            training_option = true;
            break;
        case OPT_HELP: usage(); return 0;
        case OPT_VERSION: cli_version(); return 0;
        default: cli_try_help();
        }
    }
    if (train) {
        if (optind < argc)
            cli_usage_error("--train makes the dynamics: no epoch files with it");
        if (!embeddings == !vectors)
            cli_usage_error("--train needs --embeddings or --vectors (one of them)");
    } else {
        if (embeddings || vectors || training_option)
            cli_usage_error("--embeddings, --vectors, --epochs, --batch, --lr and --seed "
                            "go with --train");
        if (optind == argc)
            cli_usage_error("no epoch files (or --train)");
    }
    io_plan io;
    io_plan_init(&io);
    for (int k = optind; k < argc; k++)
        io_input(&io, "EPOCH-FILE", argv[k]);
    io_input(&io, "--train", train);
    io_input(&io, "--embeddings", embeddings);
    io_input(&io, "--vectors", vectors);
    io_output(&io, "--output", output ? output : "-");
    io_output_idfile(&io, "--easy", region[CARTO_EASY]);
    io_output_idfile(&io, "--ambiguous", region[CARTO_AMBIGUOUS]);
    io_output_idfile(&io, "--hard", region[CARTO_HARD]);
    cli_check_io(&io);

    tells_error err;
    tells_error_clear(&err);
    carto_dynamics d;
    carto_stats s = {0};
    dataset ds = {0};
    npy_matrix x = {0};
    int rc = carto_dynamics_init(&d, &err);
    if (rc == 0 && train) {
        embed_options eo = {.input = EMBED_HYPOTHESIS, .pair = EMBED_PAIR_SUM};
        rc = dataset_load(&ds, train, &err);
        if (rc == 0)
            rc = dataset_require_examples(&ds, &err);
        if (rc == 0)
            rc = aflite_matrix(&ds, embeddings, vectors, &eo, &x, &err);
        if (rc == 0)
            rc = carto_train(&ds, x.data, x.cols, &to, &d, &err);
    }
    for (int k = optind; rc == 0 && !train && k < argc; k++)
        rc = carto_read_epoch(&d, argv[k], &err);
    if (rc == 0)
        rc = carto_compute(&d, &s, &err);
    for (int r = 0; rc == 0 && r < 3; r++)
        if (region[r])
            rc = carto_write_ids(region[r], &d, &s, (carto_region)r, fraction, &err);
    out_file o;
    if (rc == 0)
        rc = out_open(&o, output, &err);
    if (rc == 0) {
        carto_write_table(o.fp, &d, &s);
        rc = out_commit(&o, &err);
    }
    carto_stats_free(&s);
    carto_dynamics_free(&d);
    npy_free(&x);
    dataset_free(&ds);
    if (rc < 0)
        cli_fail(&err);
    return 0;
}
