/* tells-baseline: how far a model gets without the premise. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/baseline.h"
#include "cli.h"
#include "base/dataset.h"
#include "model/evaluate.h"
#include "base/idfile.h"
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
"      --train SPLIT        split to train on [train]\n"
"      --eval SPLITS        comma-separated splits to evaluate on [every\n"
"                           split but the training one]\n"
"      --folds K            instead, K-fold cross-validation within the\n"
"                           training split; predictions of the K held-out\n"
"                           folds are pooled and reported as split 'cv'\n"
"      --input MODE         hypothesis, or pair (premise " PAIR_SEPARATOR " hypothesis)\n"
"                           [hypothesis]\n"
"      --partition NAME=IDFILE  also score the rows whose id is in IDFILE,\n"
"                           with the change from the full split; repeatable\n"
"\n"
"Models:\n"
"      --model NAME         majority, fasttext or both [both]\n"
"      --majority-from SET  train (majority label of the training split) or\n"
"                           eval (of each evaluated split, as the MedNLI\n"
"                           reference code) [train]\n"
"      --word-ngrams N      fastText word n-grams [2]\n"
"      --epoch N            fastText epochs [5]\n"
"      --lr X               fastText learning rate [0.1]\n"
"      --dim N              fastText dimensions [100]\n"
"      --bucket N           fastText hash buckets of word n-grams; fewer make\n"
"                           a smaller model [2000000]\n"
"      --threads N          fastText threads; 1 is deterministic [1]\n"
"      --seed N             fastText seed, and the fold shuffle's [0]\n"
"\n"
"Output:\n"
"  -o, --output FILE        write the table here, atomically [stdout]\n"
"      --details            also confusion matrices (rows gold, columns\n"
"                           predicted) and per-class precision, recall, F1\n"
"      --save-model FILE    save the fastText model (.bin), atomically\n"
"      --predictions FILE   write id, split, gold, predicted and one\n"
"                           probability column per label for every evaluated\n"
"                           row (fastText's, or majority's if it runs alone)\n"
"  -q, --quiet              no progress on stderr\n"
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
"  tells-prep -q --split train train.jsonl --split dev dev.jsonl --split test test.jsonl \\\n"
"    | tells-baseline --details -\n"
"  tells-prep -q -t whitespace --split dev corpora/snli/snli_1.0_dev.jsonl -o snli.tsv\n"
"  tells-baseline --train dev --folds 5 snli.tsv\n");
}

enum {
    OPT_TRAIN = 256, OPT_EVAL, OPT_FOLDS, OPT_INPUT, OPT_PARTITION, OPT_MODEL,
    OPT_MAJORITY_FROM, OPT_NGRAMS, OPT_EPOCH, OPT_LR, OPT_DIM, OPT_BUCKET, OPT_THREADS,
    OPT_SEED, OPT_DETAILS, OPT_SAVE, OPT_PREDICTIONS, OPT_PROGRESS, OPT_HELP,
    OPT_VERSION
};

static const struct option long_options[] = {
    {"train", required_argument, NULL, OPT_TRAIN},
    {"eval", required_argument, NULL, OPT_EVAL},
    {"folds", required_argument, NULL, OPT_FOLDS},
    {"input", required_argument, NULL, OPT_INPUT},
    {"partition", required_argument, NULL, OPT_PARTITION},
    {"model", required_argument, NULL, OPT_MODEL},
    {"majority-from", required_argument, NULL, OPT_MAJORITY_FROM},
    {"word-ngrams", required_argument, NULL, OPT_NGRAMS},
    {"epoch", required_argument, NULL, OPT_EPOCH},
    {"lr", required_argument, NULL, OPT_LR},
    {"dim", required_argument, NULL, OPT_DIM},
    {"bucket", required_argument, NULL, OPT_BUCKET},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"output", required_argument, NULL, 'o'},
    {"details", no_argument, NULL, OPT_DETAILS},
    {"save-model", required_argument, NULL, OPT_SAVE},
    {"predictions", required_argument, NULL, OPT_PREDICTIONS},
    {"quiet", no_argument, NULL, 'q'},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0}
};

enum { MAX_PARTITIONS = 32 };

typedef struct partition {
    char *name;
    const char *path;
    id_set ids;
} partition;

typedef struct config {
    const char *input_path, *train, *eval, *output, *save_model, *predictions;
    baseline_input input;
    bool run_majority, run_fasttext, majority_from_eval, details, progress;
    int folds;
    ft_train_args ft;
    partition part[MAX_PARTITIONS];
    size_t nparts;
} config;

/* One evaluated split of one model. */
typedef struct run {
    const char *model;
    const char *split;
    predictions pred;
} run;

typedef struct state {
    config *cfg;
    dataset data;
    run *runs;
    size_t nruns, cap;
} state;

static void parse_partition(config *cfg, char *arg)
{
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        cli_usage_error("invalid partition '%s' (expected NAME=IDFILE)", arg);
    if (cfg->nparts == MAX_PARTITIONS)
        cli_usage_error("at most %d partitions", MAX_PARTITIONS);
    *eq = '\0';
    if (strcmp(arg, "full") == 0 || strpbrk(arg, "\t\n"))
        cli_usage_error("invalid partition name '%s'", arg);
    cfg->part[cfg->nparts].name = arg;
    cfg->part[cfg->nparts].path = eq + 1;
    cfg->nparts++;
}

static void parse_args(int argc, char **argv, config *cfg)
{
    cfg->train = "train";
    cfg->run_majority = cfg->run_fasttext = true;
    cfg->ft = (ft_train_args){.mode = "supervised", .word_ngrams = 2, .threads = 1};
    bool quiet = false, forced = false;
    int c;
    while ((c = getopt_long(argc, argv, "o:q", long_options, NULL)) != -1) {
        switch (c) {
        case OPT_TRAIN: cfg->train = optarg; break;
        case OPT_EVAL: cfg->eval = optarg; break;
        case OPT_FOLDS: cfg->folds = (int)cli_long("--folds", optarg, 2, 1000); break;
        case OPT_INPUT:
            if (baseline_input_parse(optarg, &cfg->input) < 0)
                cli_usage_error("invalid input '%s' (hypothesis or pair)", optarg);
            break;
        case OPT_PARTITION: parse_partition(cfg, optarg); break;
        case OPT_MODEL:
            cfg->run_majority = strcmp(optarg, "majority") == 0 || strcmp(optarg, "both") == 0;
            cfg->run_fasttext = strcmp(optarg, "fasttext") == 0 || strcmp(optarg, "both") == 0;
            if (!cfg->run_majority && !cfg->run_fasttext)
                cli_usage_error("invalid model '%s' (majority, fasttext or both)", optarg);
            break;
        case OPT_MAJORITY_FROM:
            if (strcmp(optarg, "train") != 0 && strcmp(optarg, "eval") != 0)
                cli_usage_error("invalid --majority-from '%s' (train or eval)", optarg);
            cfg->majority_from_eval = strcmp(optarg, "eval") == 0;
            break;
        case OPT_NGRAMS: cfg->ft.word_ngrams = (int)cli_long("--word-ngrams", optarg, 1, 10); break;
        case OPT_EPOCH: cfg->ft.epoch = (int)cli_long("--epoch", optarg, 1, 100000); break;
        case OPT_LR: cfg->ft.lr = cli_double("--lr", optarg, 1e-9); break;
        case OPT_DIM: cfg->ft.dim = (int)cli_long("--dim", optarg, 1, 10000); break;
        case OPT_BUCKET:
            cfg->ft.bucket = (int)cli_long("--bucket", optarg, 1, 100000000);
            break;
        case OPT_THREADS: cfg->ft.threads = (int)cli_long("--threads", optarg, 1, 256); break;
        case OPT_SEED: cfg->ft.seed = (int)cli_long("--seed", optarg, 0, 2147483647); break;
        case 'o': cfg->output = optarg; break;
        case OPT_DETAILS: cfg->details = true; break;
        case OPT_SAVE: cfg->save_model = optarg; break;
        case OPT_PREDICTIONS: cfg->predictions = optarg; break;
        case 'q': quiet = true; break;
        case OPT_PROGRESS: forced = true; break;
        case OPT_HELP: usage(); exit(0);
        case OPT_VERSION: cli_version(); exit(0);
        default: cli_try_help();
        }
    }
    if (argc - optind != 1)
        cli_usage_error(argc == optind ? "no input file (use - for stdin)"
                                       : "only one input file");
    cfg->input_path = argv[optind];
    if (cfg->save_model && !cfg->run_fasttext)
        cli_usage_error("--save-model needs the fasttext model");
    if (cfg->folds && cfg->eval)
        cli_usage_error("--folds and --eval cannot be combined");
    cfg->progress = cli_show_progress(quiet, forced);
}

static run *add_run(state *st, const char *model, const char *split)
{
    if (st->nruns == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 8;
        run *r = realloc(st->runs, cap * sizeof *r);
        if (!r)
            return NULL;
        st->runs = r;
        st->cap = cap;
    }
    run *r = &st->runs[st->nruns++];
    memset(r, 0, sizeof *r);
    r->model = model;
    r->split = split;
    return r;
}

/* The splits to evaluate, as split ids; 0 and an error when one is absent. */
static size_t eval_splits(const state *st, size_t train, size_t *out,
                          tells_error *err)
{
    size_t n = 0;
    const vocab *splits = st->data.splits;
    if (!st->cfg->eval) {
        for (size_t s = 0; s < vocab_size(splits); s++)
            if (s != train)
                out[n++] = s;
        if (n == 0)
            tells_error_set(err, st->data.source, 0, "no split to evaluate on besides "
                            "'%s' (use --folds for cross-validation)",
                            vocab_str(splits, train));
        return n;
    }
    char *list = strdup(st->cfg->eval);
    for (char *tok = list ? strtok(list, ",") : NULL; tok; tok = strtok(NULL, ",")) {
        long s = vocab_find(splits, tok, strlen(tok));
        if (s < 0) {
            tells_error_set(err, st->data.source, 0, "no split named '%s'", tok);
            n = 0;
            break;
        }
        out[n++] = (size_t)s;
    }
    free(list);
    return n;
}

/* The library's view of one model of this run. */
static baseline_config model_config(const config *cfg, const char *model)
{
    baseline_config bc = {
        .kind = strcmp(model, "majority") == 0 ? MODEL_MAJORITY : MODEL_FASTTEXT,
        .input = cfg->input,
        .majority_from_eval = cfg->majority_from_eval,
        .ft = cfg->ft,
    };
    return bc;
}

static void progress(const char *msg, void *user)
{
    if (*(const bool *)user)
        cli_warn("%s", msg);
}

static int train_and_predict(state *st, const size_t *train_rows, size_t ntrain,
                             const size_t *eval_rows, size_t neval, const char *model,
                             predictions *out, tells_error *err)
{
    baseline_config bc = model_config(st->cfg, model);
    bc.progress = progress;
    bc.progress_user = &st->cfg->progress;
    return baseline_fit_predict(&st->data, train_rows, ntrain, eval_rows, neval, &bc,
                                out, err);
}

static int cross_validate(state *st, const size_t *rows, size_t n, const char *model,
                          predictions *out, tells_error *err)
{
    baseline_config bc = model_config(st->cfg, model);
    bc.progress = progress;
    bc.progress_user = &st->cfg->progress;
    return baseline_cross_validate(&st->data, rows, n, (size_t)st->cfg->folds,
                                   (unsigned long)st->cfg->ft.seed, &bc, out, err);
}

static int run_model(state *st, const char *model, size_t train, const size_t *evals,
                     size_t nevals, ft_model **keep, tells_error *err)
{
    const dataset *d = &st->data;
    size_t ntrain;
    size_t *train_rows = split_rows(d, train, &ntrain);
    int rc = train_rows ? 0 : tells_error_nomem(err, NULL, 0);
    if (rc == 0 && st->cfg->folds) {
        run *r = add_run(st, model, "cv");
        rc = r ? cross_validate(st, train_rows, ntrain, model, &r->pred, err)
               : tells_error_nomem(err, NULL, 0);
        if (rc < 0 && r)
            st->nruns--;
    }
    /* One model trained on the whole split predicts every evaluated split,
       and is the one --save-model keeps (after cross-validation too). */
    ft_model *m = NULL;
    if (rc == 0 && strcmp(model, "fasttext") == 0 && (!st->cfg->folds || keep)) {
        if (st->cfg->progress)
            cli_warn("training fastText on %zu examples", ntrain);
        m = fasttext_train_rows(d, train_rows, ntrain, st->cfg->input, &st->cfg->ft, err);
        if (!m)
            rc = -1;
    }
    for (size_t k = 0; rc == 0 && !st->cfg->folds && k < nevals; k++) {
        size_t neval;
        size_t *rows = split_rows(d, evals[k], &neval);
        run *r = rows ? add_run(st, model, vocab_str(d->splits, evals[k])) : NULL;
        if (!r)
            rc = tells_error_nomem(err, NULL, 0);
        else if (m)
            rc = fasttext_predict_rows(m, d, rows, neval, st->cfg->input, &r->pred, err);
        else
            rc = train_and_predict(st, train_rows, ntrain, rows, neval, model,
                                   &r->pred, err);
        if (rc < 0 && r)
            st->nruns--;
        free(rows);
    }
    free(train_rows);
    if (rc == 0 && keep)
        *keep = m;
    else
        ft_free(m);
    return rc;
}

static void write_scores(FILE *fp, const scores *s, const scores *full)
{
    fprintf(fp, "%zu\t%.6f\t%.6f\t%.6f", s->n, s->micro_f1, s->macro_f1, s->accuracy);
    if (full)
        fprintf(fp, "\t%.6f\t%.6f\t%.6f", s->micro_f1 - full->micro_f1,
                s->macro_f1 - full->macro_f1, s->accuracy - full->accuracy);
    putc('\n', fp);
}

static int write_table(state *st, FILE *fp, tells_error *err)
{
    config *cfg = st->cfg;
    const char *input = baseline_input_name(cfg->input);
    bool parts = cfg->nparts > 0;
    fprintf(fp, "model\tinput\tsplit%s\tn\tmicro_f1\tmacro_f1\taccuracy%s\n",
            parts ? "\tpartition" : "",
            parts ? "\tchange_micro_f1\tchange_macro_f1\tchange_accuracy" : "");
    scores *all = calloc(st->nruns ? st->nruns : 1, sizeof *all);
    if (!all)
        return tells_error_nomem(err, NULL, 0);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < st->nruns; i++) {
        run *r = &st->runs[i];
        if (scores_compute(&all[i], &st->data, &r->pred, NULL) < 0) {
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        fprintf(fp, "%s\t%s\t%s%s\t", r->model, input, r->split, parts ? "\tfull" : "");
        write_scores(fp, &all[i], parts ? &all[i] : NULL);
        for (size_t k = 0; k < cfg->nparts; k++) {
            scores ps;
            if (scores_compute(&ps, &st->data, &r->pred, &cfg->part[k].ids) < 0) {
                rc = tells_error_nomem(err, NULL, 0);
                break;
            }
            fprintf(fp, "%s\t%s\t%s\t%s\t", r->model, input, r->split, cfg->part[k].name);
            write_scores(fp, &ps, &all[i]);
            scores_free(&ps);
        }
    }
    for (size_t i = 0; cfg->details && rc == 0 && i < st->nruns; i++) {
        run *r = &st->runs[i];
        fprintf(fp, "\n# confusion: %s %s %s (rows gold, columns predicted)\n",
                r->model, input, r->split);
        scores_write_confusion(&all[i], &st->data, fp);
        fprintf(fp, "\n# per-class: %s %s %s\n", r->model, input, r->split);
        scores_write_per_class(&all[i], &st->data, fp);
    }
    for (size_t i = 0; i < st->nruns; i++)
        scores_free(&all[i]);
    free(all);
    return rc;
}

/* The fastText runs' predictions, or majority's when it ran alone. */
static int write_predictions(state *st, const char *path, tells_error *err)
{
    const char *model = st->cfg->run_fasttext ? "fasttext" : "majority";
    const dataset *d = &st->data;
    size_t *order = vocab_sorted_ids(d->labels);
    out_file out;
    if (!order)
        return tells_error_nomem(err, NULL, 0);
    if (out_open(&out, path, err) < 0) {
        free(order);
        return -1;
    }
    fputs("id\tsplit\tgold\tpredicted", out.fp);
    for (size_t l = 0; l < vocab_size(d->labels); l++)
        fprintf(out.fp, "\tp_%s", vocab_str(d->labels, order[l]));
    putc('\n', out.fp);
    for (size_t i = 0; i < st->nruns; i++) {
        const run *r = &st->runs[i];
        if (strcmp(r->model, model) != 0)
            continue;
        const predictions *p = &r->pred;
        for (size_t j = 0; j < p->n; j++) {
            const example *e = &d->ex[p->row[j]];
            fprintf(out.fp, "%s\t%s\t%s\t%s", e->id, r->split, vocab_str(d->labels, e->label),
                    vocab_str(d->labels, p->pred[j]));
            for (size_t l = 0; l < p->nlabels; l++) {
                double v = p->prob ? p->prob[j * p->nlabels + order[l]]
                                   : (double)(p->pred[j] == order[l]);
                fprintf(out.fp, "\t%.6f", v);
            }
            putc('\n', out.fp);
        }
    }
    free(order);
    return out_commit(&out, err);
}

static int run_all(state *st, tells_error *err)
{
    config *cfg = st->cfg;
    if (dataset_load(&st->data, cfg->input_path, err) < 0)
        return -1;
    long train = vocab_find(st->data.splits, cfg->train, strlen(cfg->train));
    if (train < 0)
        return tells_error_set(err, st->data.source, 0, "no split named '%s' to train on",
                               cfg->train);
    for (size_t k = 0; k < cfg->nparts; k++)
        if (id_set_load(&cfg->part[k].ids, cfg->part[k].path, err) < 0)
            return -1;
    size_t *evals = malloc((vocab_size(st->data.splits) + 1) * sizeof *evals);
    if (!evals)
        return tells_error_nomem(err, NULL, 0);
    size_t nevals = cfg->folds ? 0 : eval_splits(st, (size_t)train, evals, err);
    int rc = cfg->folds || nevals ? 0 : -1;
    ft_model *model = NULL;
    if (rc == 0 && cfg->run_majority)
        rc = run_model(st, "majority", (size_t)train, evals, nevals, NULL, err);
    if (rc == 0 && cfg->run_fasttext)
        rc = run_model(st, "fasttext", (size_t)train, evals, nevals,
                       cfg->save_model ? &model : NULL, err);
    free(evals);
    /* The table comes last, so that a run that fails writes no table. */
    if (rc == 0 && model)
        rc = fasttext_save(model, cfg->save_model, err);
    if (rc == 0 && cfg->predictions)
        rc = write_predictions(st, cfg->predictions, err);
    out_file out;
    if (rc == 0 && (rc = out_open(&out, cfg->output, err)) == 0) {
        if (write_table(st, out.fp, err) < 0) {
            out_abort(&out);
            rc = -1;
        } else
            rc = out_commit(&out, err);
    }
    ft_free(model);
    return rc;
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-baseline");
    config cfg = {0};
    parse_args(argc, argv, &cfg);
    state st = {.cfg = &cfg};
    tells_error err;
    tells_error_clear(&err);
    int rc = run_all(&st, &err);
    if (rc < 0)
        cli_report(&err);
    for (size_t i = 0; i < st.nruns; i++)
        predictions_free(&st.runs[i].pred);
    free(st.runs);
    for (size_t k = 0; k < cfg.nparts; k++)
        id_set_free(&cfg.part[k].ids);
    dataset_free(&st.data);
    return rc < 0 ? EXIT_DATA : 0;
}
