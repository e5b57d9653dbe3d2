/* tells-study: the whole artifact study of a corpus in one command. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "study/capstudy.h"
#include "study/study.h"
#include "base/outdir.h"
#include "model/carto.h"
#include "cli.h"
#include "text/redact.h"

/* "  TERM" then text from column 28, wrapped before column 80. */
static void print_item(const char *term, const char *text)
{
    enum { COLUMN = 27, WIDTH = 79 };
    int col = printf("  %s", term);
    if (col > COLUMN - 2) {
        putchar('\n');
        col = 0;
    }
    for (const char *w = text; *w;) {
        size_t len = strcspn(w, " ");
        if (col > COLUMN && col + 1 + (int)len > WIDTH) {
            putchar('\n');
            col = 0;
        }
        if (col < COLUMN)
            col += printf("%*s", COLUMN - col, "");
        else
            col += printf(" ");
        col += printf("%.*s", (int)len, w);
        w += len;
        w += strspn(w, " ");
    }
    putchar('\n');
}

/* The steps and the checks, from the study's table. */
static void list_steps(void)
{
    printf("\nSteps, in this order, each writing into DIR as the program named would\n"
           "(--progress times them):\n");
    for (size_t i = 0; study_step_at(i); i++)
        print_item(study_step_at(i)->name, study_step_at(i)->writes);
}

static void list_checks_help(void)
{
    printf("\nsummary.tsv has a row per finding: check, value, reference, effect, ci_low,\n"
           "ci_high, p_value, q_value, significant, detail. The checks:\n");
    for (size_t i = 0; study_check_at(i); i++)
        print_item(study_check_at(i)->name, study_check_at(i)->definition);
    printf("q-values: Benjamini-Hochberg over the primary checks (every row but the\n"
           "token:W:CLASS screens and the audit:BATCH:CHECK tests); significant when\n"
           "q <= --alpha and the effect points the way of a shortcut. token:W:CLASS rows\n"
           "are their own family (q: Bonferroni over the pairs tested), audit:BATCH:CHECK\n"
           "rows the audit's (q as in audit.tsv). detail ends with the family and its\n"
           "size, e.g. family=primary(7).\n");
}

static void list_checks(void)
{
    for (size_t i = 0; study_check_at(i); i++)
        printf("%s\t%s\n", study_check_at(i)->name, study_check_at(i)->definition);
}

static void usage(void)
{
    printf("Usage: tells-study [OPTION]... -o DIR --split NAME FILE...\n"
"  or:  tells-study [OPTION]... -o DIR PREPARED.tsv\n"
"  or:  tells-study [-o DIR]\n"
"Run the whole annotation-artifact study of an NLI corpus and write its\n"
"tables, its verdicts (DIR/summary.tsv) and a report (DIR/report.html) into\n"
"DIR: token PMI and the competency test, hypothesis length, the annotator\n"
"heuristics, majority against hypothesis-only and premise+hypothesis\n"
"fastText models, AFLite's easy and difficult partitions, log-odds, PVI and\n"
"dataset cartography with the partitions side by side, and audits of new\n"
"batches. Which split trains and which is evaluated follows the corpus:\n"
"train and test (else dev) when there is a split named train and another,\n"
"else K-fold cross-validation over every example. Without a corpus, the\n"
"bundled ones (SNLI dev, the synthetic MedNLI-style corpus, and the ADE\n"
"capability tests), each in a folder of DIR. A corpus has 2 to %d classes:\n"
"AFLite's models need memory that grows with the square of the classes.\n"
"\n"
"Corpus (as tells-prep reads it):\n"
"  -s, --split NAME FILE    read FILE as split NAME; repeatable\n"
"  -f, --format FMT         jsonl, csv, tsv or auto [auto]\n"
"      --id-field NAME      [pairID]\n"
"      --label-field NAME   [gold_label]\n"
"      --premise-field NAME [sentence1]\n"
"      --hypothesis-field NAME  [sentence2]\n"
"      --labels LIST        comma-separated allowed labels [any label]\n"
"      --skip-invalid       skip malformed records instead of failing\n"
"  -t, --tokenizer NAME     default or whitespace [default]\n"
"      --phrases FILE       merge these phrases into tokens; repeatable\n"
"      --mesh FILE          merge the terms of this MeSH tree file into tokens,\n"
"                           and link concepts for the heuristics with it as\n"
"                           before MeSH 2024 became the default: headings on\n"
"                           exact tokens, the built-in heuristics for MeSH\n"
"                           2017 [for the heuristics only: DATA/" CLI_MESH2024_FILE "\n"
"                           with its entry terms, on stems]\n"
"      --terms FILE         MeSH entry-term file of the heuristics\n"
"                           [DATA/" CLI_TERMS2024_FILE " without --mesh]\n"
"      --no-terms           the heuristics link headings only\n"
"      --stem, --no-stem    the heuristics match Snowball stems, or exact\n"
"                           tokens [--stem without --mesh]\n"
"  PREPARED.tsv             a corpus tells-prep already prepared\n"
"\n"
"Study:\n"
"      --batch FILE         a new annotation batch to audit against the corpus\n"
"                           (prepared like it, unless a prepared TSV);\n"
"                           repeatable\n"
"      --negation FILE      the pair features' negation cues, one phrase per\n"
"                           line [DATA/lexicons/negation-triggers.txt]\n"
"      --vectors FILE       word vectors for AFLite (fastText .bin, .vec or\n"
"                           GloVe) [skipgram vectors trained on the corpus]\n"
"      --keep-vectors[=FMT] keep the trained vectors: vec, the trained words\n"
"                           as text (vectors.vec); bin, the fastText model\n"
"                           (vectors.bin, 100 bytes a word or bucket) [not\n"
"                           kept; vec when FMT is left out]\n"
"      --vector-epochs N    epochs of the trained vectors; fewer make a large\n"
"                           corpus faster, and AFLite may filter less well\n"
"                           (man tells-study, WORD VECTORS) [enough to see\n"
"                           about 2.5 million tokens, 1 to 20]\n"
"      --vector-centres WHICH  the words the vectors train: hypothesis, the\n"
"                           hypotheses' words, the ones AFLite averages,\n"
"                           every other word a context only (fast when the\n"
"                           premises are long); all, every word, as\n"
"                           fastText trains; auto, hypothesis when their\n"
"                           words are under a quarter of the text's tokens,\n"
"                           else all [auto]\n"
"  -H, --heuristics FILE    more heuristic definitions (tells-heur's); repeatable\n"
"      --redact             a folder to share under a data-use agreement: no\n"
"                           premise or hypothesis text in any file, figure or\n"
"                           page; tokens named only when they occur in\n"
"                           examples of at least K premises; no prepared\n"
"                           corpus, batches, heur-pairs.tsv or hypothesis.npy;\n"
"                           paths cut to file names; checked by tells-leaks's\n"
"                           check before the folder is put in place\n"
"      --min-examples K     with --redact: the fewest premises a token shown\n"
"                           occurs with [%d]\n"
"      --id-key FILE        replace every example id by its keyed hash\n"
"                           (HMAC-SHA256 with FILE's bytes, at least 16; the\n"
"                           first 96 bits in hex): whoever holds FILE can map\n"
"                           them back [the corpus's ids]\n"
"      --folds-only         prepare the corpus and write DIR/folds.tsv (each\n"
"                           example's id, split, role and fold), then stop: the\n"
"                           folds and splits to train a model of your own on\n"
"      --hypothesis-predictions FILE  a hypothesis-only model trained elsewhere,\n"
"                           in place of fastText: its predictions of every\n"
"                           example, cross-fitted on folds.tsv's folds (TSV:\n"
"                           id, predicted, p_LABEL for each label); used by\n"
"                           hypothesis_only (cross-validated), the partitions\n"
"                           and PVI [fastText trained by the study]\n"
"      --hypothesis-eval-predictions FILE  with a training split, that model\n"
"                           trained on it: its predictions of the evaluated\n"
"                           split (folds.tsv's role), for hypothesis_only\n"
"      --pair-predictions FILE  a premise-aware model trained elsewhere, in place\n"
"                           of the pair-features fastText: its predictions of\n"
"                           the evaluated examples (cross-fitted on folds.tsv's\n"
"                           folds when cross-validating, else of the eval rows\n"
"                           by the model trained on the train rows), for\n"
"                           premise_and_hypothesis\n"
"      --null-predictions FILE  PVI's g_null trained elsewhere (a model given\n"
"                           empty inputs): its predictions of every example,\n"
"                           cross-fitted on folds.tsv's folds [the label\n"
"                           shares of each example's training folds]\n"
"      --model-name NAME    the given models' name in the report [FILE's name]\n"
"      --embeddings FILE    a .npy matrix of the hypotheses' embeddings made\n"
"                           elsewhere, one row per example in the prepared\n"
"                           order (folds.tsv's), for AFLite and cartography\n"
"                           [hypothesis vectors averaged from word vectors]\n"
"      --embeddings-ids FILE  the id of each row of --embeddings, in order\n"
"                           (one per line, or a .npy of strings)\n"
"      --dynamics DIR       cartography from your own training run: DIR's epoch\n"
"                           files (tells-carto's formats), ordered by the last\n"
"                           number in each name [a softmax regression over the\n"
"                           hypothesis vectors, trained by the study]\n"
"      --train NAME         the split to train on [train, when there is another]\n"
"      --eval NAME          the split the verdicts score [test, else dev, else\n"
"                           the first other split]\n"
"      --folds K            cross-validation without a training split [5]\n"
CLI_GROUP_BY_HELP
"      --epoch N            fastText's epochs for the baselines and PVI; with\n"
"                           --lr, fixes them [chosen among 5, 10 and 25\n"
"                           epochs with learning rates 0.1, 0.25 and 0.5 by\n"
"                           log loss on a held-out fifth of the training rows,\n"
"                           or of about 50,000 of them, dealt as the folds\n"
"                           are, when there are more: then ceil(epochs x\n"
"                           those rows / all rows) epochs over all]\n"
"      --lr X               fastText's learning rate [chosen with --epoch]\n"
"      --alpha Q            false discovery rate of the verdicts [0.05]\n"
"      --token-alpha A      the competency test's level, Bonferroni [0.01]\n"
"      --class-prior        expect each class's share of the examples, not\n"
"                           1/classes, in the competency test (the heuristics'\n"
"                           test always expects the classes' shares)\n"
"      --threads N          threads: fastText models trained side by side\n"
"                           (each on one thread), the word vectors' two\n"
"                           parts beside them (two of the N), AFLite,\n"
"                           counting; the results are the same bytes\n"
"                           whatever N [the processors online, at most 8]\n"
"      --seed N             seed of everything random [1]\n"
"      --no-figures         a report without figures (no gnuplot needed)\n"
"      --gnuplot PROG       the gnuplot program [gnuplot]\n"
"\n"
"Output:\n"
"  -o, --output DIR         the folder; an existing one is replaced only when\n"
"                           the whole study succeeded, and only when it is\n"
"                           empty or a folder tells-study made, holding\n"
"                           nothing that its .tells-study does not list\n"
"                           [study]\n"
"      --name TEXT          the corpus's name in the report [DIR's name]\n"
"  -q, --quiet              print nothing but errors\n"
"      --progress           one line per step with its time on stderr (also\n"
"                           when stderr is not a terminal)\n"
"      --help               display this help and exit\n"
"      --version            output version information and exit\n"
"      --list-checks        print the checks of summary.tsv, a line each\n"
"                           (NAME<TAB>definition), and exit\n", STUDY_MAX_CLASSES, REDACT_MIN_EXAMPLES);
    list_steps();
    list_checks_help();
    printf("\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  tools/tells-synth --seed 7 --plant stat=neutral:150 --id-prefix b7 --replace -o b7\n"
"  tells-study -o synth-study --batch b7/test.jsonl \\\n"
"    --split train corpora/synthetic/train.jsonl \\\n"
"    --split dev corpora/synthetic/dev.jsonl --split test corpora/synthetic/test.jsonl\n"
"  # A model of your own in the hypothesis-only model's place, trained on the\n"
"  # study's folds (doc/external-models.md; word-model is naive Bayes in awk):\n"
"  tells-study -q --folds-only -o folds --split train corpora/synthetic/train.jsonl \\\n"
"    --split test corpora/synthetic/test.jsonl\n"
"  doc/examples/crossfit folds pred doc/examples/word-model\n"
"  tells-study -o own-study --model-name word-model \\\n"
"    --hypothesis-predictions pred/cv-predictions.tsv \\\n"
"    --hypothesis-eval-predictions pred/eval-predictions.tsv folds/prepared.tsv\n"
"  # Word vectors trained for 5 epochs, not sized to the corpus (one this\n"
"  # small is read 20 times): quicker, and AFLite may filter less well\n"
"  # (man tells-study, WORD VECTORS):\n"
"  tells-study -q -o quick-study --vector-epochs 5 \\\n"
"    --split train corpora/synthetic/train.jsonl \\\n"
"    --split test corpora/synthetic/test.jsonl\n"
"  # MedNLI itself (credentialed: PhysioNet) the same way:\n"
"  # tells-study -o mednli-study --split train mli_train_v1.jsonl \\\n"
"  #   --split dev mli_dev_v1.jsonl --split test mli_test_v1.jsonl\n");
}

enum {
    OPT_PHRASES = 256, OPT_MESH, OPT_BATCH, OPT_NEGATION, OPT_VECTORS, OPT_KEEP_VECTORS, OPT_VECTOR_EPOCHS, OPT_VECTOR_CENTRES, OPT_FOLDS, OPT_GROUP_BY, OPT_EPOCH, OPT_LR, OPT_ALPHA,
    OPT_TOKEN_ALPHA, OPT_CLASS_PRIOR, OPT_THREADS, OPT_SEED, OPT_NO_FIGURES, OPT_GNUPLOT,
    OPT_TRAIN, OPT_EVAL, OPT_NAME, OPT_LIST_CHECKS, OPT_FOLDS_ONLY, OPT_HYP_PRED,
    OPT_HYP_EVAL_PRED, OPT_MODEL_NAME, OPT_EMBEDDINGS, OPT_EMBEDDINGS_IDS, OPT_PAIR_PRED,
    OPT_DYNAMICS, OPT_NULL_PRED, OPT_REDACT, OPT_MIN_EXAMPLES, OPT_ID_KEY
};

static const struct option long_options[] = {
    CLI_CORPUS_OPTIONS,
    {"phrases", required_argument, NULL, OPT_PHRASES},
    {"mesh", required_argument, NULL, OPT_MESH},
    CLI_LINKING_OPTIONS,
    {"batch", required_argument, NULL, OPT_BATCH},
    {"vectors", required_argument, NULL, OPT_VECTORS},
    {"negation", required_argument, NULL, OPT_NEGATION},
    {"keep-vectors", optional_argument, NULL, OPT_KEEP_VECTORS},
    {"vector-epochs", required_argument, NULL, OPT_VECTOR_EPOCHS},
    {"vector-centres", required_argument, NULL, OPT_VECTOR_CENTRES},
    {"heuristics", required_argument, NULL, 'H'},
    {"train", required_argument, NULL, OPT_TRAIN},
    {"eval", required_argument, NULL, OPT_EVAL},
    {"name", required_argument, NULL, OPT_NAME},
    {"folds", required_argument, NULL, OPT_FOLDS},
    {"group-by", required_argument, NULL, OPT_GROUP_BY},
    {"epoch", required_argument, NULL, OPT_EPOCH},
    {"lr", required_argument, NULL, OPT_LR},
    {"alpha", required_argument, NULL, OPT_ALPHA},
    {"token-alpha", required_argument, NULL, OPT_TOKEN_ALPHA},
    {"class-prior", no_argument, NULL, OPT_CLASS_PRIOR},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"no-figures", no_argument, NULL, OPT_NO_FIGURES},
    {"gnuplot", required_argument, NULL, OPT_GNUPLOT},
    {"output", required_argument, NULL, 'o'},
    {"list-checks", no_argument, NULL, OPT_LIST_CHECKS},
    {"folds-only", no_argument, NULL, OPT_FOLDS_ONLY},
    {"hypothesis-predictions", required_argument, NULL, OPT_HYP_PRED},
    {"hypothesis-eval-predictions", required_argument, NULL, OPT_HYP_EVAL_PRED},
    {"model-name", required_argument, NULL, OPT_MODEL_NAME},
    {"pair-predictions", required_argument, NULL, OPT_PAIR_PRED},
    {"dynamics", required_argument, NULL, OPT_DYNAMICS},
    {"null-predictions", required_argument, NULL, OPT_NULL_PRED},
    {"embeddings", required_argument, NULL, OPT_EMBEDDINGS},
    {"embeddings-ids", required_argument, NULL, OPT_EMBEDDINGS_IDS},
    {"redact", no_argument, NULL, OPT_REDACT},
    {"min-examples", required_argument, NULL, OPT_MIN_EXAMPLES},
    {"id-key", required_argument, NULL, OPT_ID_KEY},
    CLI_QUIET_OPTION,
    CLI_PROGRESS_OPTION,
    CLI_COMMON_OPTIONS,
    {NULL, 0, NULL, 0}
};

typedef struct options {
    study_config cfg;
    cli_corpus corpus;                 /* the --split inputs, how they are read */
    char **phrases, **batches, **definitions;
    const char *output;
    char *output_buf;
    char *negation_buf;                /* the default negation cues */
    bool quiet, show_progress;
    cli_linking link;                  /* the heuristics' MeSH options */
    char name_buf[256];
    bool min_examples_given;
    bool centres_given;                /* --vector-centres */
} options;

/* An option of the study's own; false when it is none. */
static bool study_option(int ch, options *o)
{
    study_config *c = &o->cfg;
    switch (ch) {
    case OPT_PHRASES: o->phrases[c->nphrase_files++] = optarg; break;
    case OPT_MESH: c->mesh_terms = optarg; break;
    case OPT_BATCH: o->batches[c->nbatches++] = optarg; break;
    case OPT_VECTORS: c->vectors = optarg; break;
    case OPT_NEGATION: c->negation = optarg; break;
    case OPT_KEEP_VECTORS:
        if (optarg && strcmp(optarg, "vec") != 0 && strcmp(optarg, "bin") != 0)
            cli_usage_error("invalid value '%s' for --keep-vectors (expected vec or bin)",
                            optarg);
        c->keep_vectors = optarg ? optarg : "vec";
        break;
    case OPT_VECTOR_EPOCHS:
        c->vector_epochs = (int)cli_long("--vector-epochs", optarg, 1, 10000);
        break;
    case OPT_VECTOR_CENTRES:
        if (strcmp(optarg, "auto") == 0)
            c->vector_centres = STUDY_CENTRES_AUTO;
        else if (strcmp(optarg, "hypothesis") == 0)
            c->vector_centres = STUDY_CENTRES_HYPOTHESIS;
        else if (strcmp(optarg, "all") == 0)
            c->vector_centres = STUDY_CENTRES_ALL;
        else
            cli_usage_error("invalid value '%s' for --vector-centres (expected auto, "
                            "hypothesis or all)", optarg);
        o->centres_given = true;
        break;
    case 'H': o->definitions[c->heur.ndefinitions++] = optarg; break;
    case OPT_TRAIN: c->train = optarg; break;
    case OPT_EVAL: c->eval = optarg; break;
    case OPT_NAME: c->name = optarg; break;
    case OPT_FOLDS: c->folds = (size_t)cli_long("--folds", optarg, 2, 1000); break;
    case OPT_GROUP_BY: c->group = cli_group_by(optarg); break;
    case OPT_EPOCH: c->epoch = (int)cli_long("--epoch", optarg, 1, 10000); break;
    case OPT_LR: c->lr = cli_double_range("--lr", optarg, 0, 10, CLI_OPEN_MIN); break;
    case OPT_ALPHA: c->alpha = cli_double_range("--alpha", optarg, 0, 1, CLI_OPEN); break;
    case OPT_TOKEN_ALPHA:
        c->token_alpha = cli_double_range("--token-alpha", optarg, 0, 1, CLI_OPEN);
        break;
    case OPT_CLASS_PRIOR: c->class_prior = true; break;
    case OPT_THREADS: c->threads = (int)cli_long("--threads", optarg, 1, 256); break;
    case OPT_SEED: c->seed = (unsigned long)cli_long("--seed", optarg, 0, INT_MAX); break;
    case OPT_NO_FIGURES: c->figures = false; break;
    case OPT_GNUPLOT: c->gnuplot = optarg; break;
    case 'o': o->output = optarg; break;
    case OPT_LIST_CHECKS: list_checks(); exit(0);
    case OPT_FOLDS_ONLY: c->folds_only = true; break;
    case OPT_EMBEDDINGS: c->embeddings = optarg; break;
    case OPT_EMBEDDINGS_IDS: c->embeddings_ids = optarg; break;
    case OPT_HYP_PRED: c->hypothesis_predictions = optarg; break;
    case OPT_HYP_EVAL_PRED: c->hypothesis_eval_predictions = optarg; break;
    case OPT_PAIR_PRED: c->pair_predictions = optarg; break;
    case OPT_DYNAMICS: c->dynamics = optarg; break;
    case OPT_NULL_PRED: c->null_predictions = optarg; break;
    case OPT_REDACT: c->redact = true; break;
    case OPT_MIN_EXAMPLES:
        c->min_examples = (size_t)cli_long("--min-examples", optarg, 1, 1000000000L);
        o->min_examples_given = true;
        break;
    case OPT_ID_KEY: c->id_key = optarg; break;
    case OPT_MODEL_NAME:
        if (!*optarg || strpbrk(optarg, " \t\n\r\v\f"))
            cli_usage_error("--model-name must be a non-empty name without spaces, tabs or "
                            "line ends");
        c->model_name = optarg;
        break;
    default: return false;
    }
    return true;
}

/* The report's name of the corpus, without --name: the output folder's. */
static void name_after_folder(options *o)
{
    const char *end = o->output + strlen(o->output);
    while (end > o->output + 1 && end[-1] == '/')
        end--;
    const char *start = end;
    while (start > o->output && start[-1] != '/')
        start--;
    size_t n = (size_t)(end - start);
    if (n > 0 && n < sizeof o->name_buf) {
        memcpy(o->name_buf, start, n);
        o->name_buf[n] = '\0';
        o->cfg.name = o->name_buf;
    }
}

/* The operands and the options that go together or not. */
static void check_args(int argc, char **argv, options *o)
{
    study_config *c = &o->cfg;
    c->ninputs = o->corpus.ninputs;
    if (optind < argc) {
        if (c->ninputs)
            cli_usage_error("a prepared TSV '%s' and --split: give one corpus", argv[optind]);
        if (argc - optind > 1)
            cli_usage_error("one prepared TSV only (extra operand '%s')", argv[optind + 1]);
        c->prepared = argv[optind];
    }
    if (!*o->output)
        cli_usage_error("--output must not be empty");
    /* "out/" is "out", in messages too. */
    size_t len = strlen(o->output);
    while (len > 1 && o->output[len - 1] == '/')
        len--;
    if (!(o->output_buf = strndup(o->output, len)))
        cli_die("out of memory");
    o->output = o->output_buf;
    cli_linking_check(&o->link);
    if (c->ninputs == 0 && !c->prepared && (c->train || c->eval || c->nbatches))
        cli_usage_error("--train, --eval and --batch need a corpus");
    if (c->ninputs == 0 && !c->prepared &&
        (c->folds_only || c->hypothesis_predictions || c->hypothesis_eval_predictions ||
         c->pair_predictions || c->embeddings || c->dynamics || c->null_predictions))
        cli_usage_error("--folds-only and the predictions options need a corpus");
    if (c->hypothesis_eval_predictions && !c->hypothesis_predictions)
        cli_usage_error("--hypothesis-eval-predictions needs --hypothesis-predictions "
                        "(every example, cross-fitted)");
    if (c->model_name && !c->hypothesis_predictions && !c->pair_predictions)
        cli_usage_error("--model-name names the model of --hypothesis-predictions or "
                        "--pair-predictions");
    if (c->embeddings_ids && !c->embeddings)
        cli_usage_error("--embeddings-ids gives the ids of --embeddings' rows");
    if (c->embeddings && (c->vectors || c->keep_vectors))
        cli_usage_error("--embeddings replaces the word vectors: no --vectors or "
                        "--keep-vectors with it");
    if (c->folds_only && (c->hypothesis_predictions || c->pair_predictions || c->nbatches ||
                          c->embeddings || c->dynamics || c->null_predictions ||
                          c->keep_vectors || c->vector_epochs || o->centres_given))
        cli_usage_error("--folds-only runs no model and audits no batch");
    if (c->vector_epochs && (c->vectors || c->embeddings))
        cli_usage_error("--vector-epochs sets the epochs of vectors the study trains; "
                        "with --%s it trains none", c->vectors ? "vectors" : "embeddings");
    if (o->centres_given && (c->vectors || c->embeddings))
        cli_usage_error("--vector-centres sets how the study trains its vectors; with --%s "
                        "it trains none", c->vectors ? "vectors" : "embeddings");
    if (c->keep_vectors && c->vectors)
        cli_usage_error("--keep-vectors keeps vectors the study trains; with --vectors it "
                        "trains none");
    if (o->min_examples_given && !c->redact)
        cli_usage_error("--min-examples is the least a token shown under --redact needs");
    if (c->redact && c->ninputs == 0 && !c->prepared)
        cli_usage_error("--redact needs a corpus (the bundled ones are public)");
    if (c->redact && c->folds_only)
        cli_usage_error("--folds-only writes the prepared corpus for models of your own; "
                        "--redact is for a study to share");
    if (c->redact && c->keep_vectors)
        cli_usage_error("--keep-vectors keeps the corpus's words: not with --redact");
    if (c->id_key && c->prepared)
        cli_usage_error("--id-key needs the corpus as distributed (--split NAME FILE): a "
                        "prepared TSV keeps its ids; tells-prep --id-key makes one");
    if (strcmp(c->name, "corpus") == 0)
        name_after_folder(o);
}

/* The processors online, at most 8: the models the study trains side by
   side rarely number more, and memory grows with each. */
static int default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 8 ? 8 : (int)n;
}

static void parse_args(int argc, char **argv, options *o)
{
    study_config *c = &o->cfg;
    study_config_default(c);
    c->threads = default_threads();
    c->prep.max_line = 0;
    o->output = "study";
    /* Room for every repeatable option's values. */
    o->corpus = (cli_corpus){.prep = &c->prep,
                             .inputs = calloc((size_t)argc, sizeof *o->corpus.inputs)};
    o->phrases = calloc((size_t)argc, sizeof *o->phrases);
    o->batches = calloc((size_t)argc, sizeof *o->batches);
    o->definitions = calloc((size_t)argc, sizeof *o->definitions);
    if (!o->corpus.inputs || !o->phrases || !o->batches || !o->definitions)
        cli_die("out of memory");
    cli_verbosity v = {0};
    int ch;
    /* '+': stop at the first non-option, so FILE after --split NAME is ours. */
    while ((ch = getopt_long(argc, argv, "+s:f:t:H:o:q", long_options, NULL)) != -1)
        if (!cli_corpus_option(ch, argc, argv, &o->corpus) &&
            !cli_linking_option(ch, &o->link) && !study_option(ch, o) &&
            !cli_common_option(ch, usage, &v))
            cli_try_help();
    check_args(argc, argv, o);
    if (!c->negation && !(c->negation = o->negation_buf =
                              cli_data_file("lexicons/negation-triggers.txt")))
        cli_die("out of memory");
    c->inputs = o->corpus.inputs;
    c->phrase_files = o->phrases;
    c->batches = o->batches;
    c->heur.definitions = o->definitions;
    o->quiet = v.quiet;
    o->show_progress = cli_show_progress(v.quiet, v.progress);
    c->progress = cli_progress;
    c->progress_user = &o->show_progress;
}

/* ---- the files of the run ---- */

/* The study's name for its manifest (base/outdir.h). */
#define STUDY_MARK ".tells-study"

static char *data_path(const char *rel);

/* The bundled corpora's files, as run_bundled and the capability step
   (analysis/capstudy.c) read them. */
static const char *const bundled_files[] = {
    "snli/snli_1.0_dev.jsonl", "synthetic/train.jsonl", "synthetic/dev.jsonl",
    "synthetic/test.jsonl", "synthetic/batch.jsonl", CLI_MESH_FILE, CLI_HEURISTICS_FILE,
    "ade-posts/train.jsonl", "ade-posts/dev.jsonl", "ade-posts/test.jsonl",
    "ade-templates/templates_all.csv", "ade-templates/templates_base.csv",
    "ade-templates/entities/ades.txt", "ade-templates/entities/ades_mild.txt",
    "ade-templates/entities/drugs.txt"
};

/* Every file the study reads, and its folder, before any work. */
static void check_io(const options *o)
{
    const study_config *c = &o->cfg;
    io_plan io;
    io_plan_init(&io);
    cli_corpus_io(&o->corpus, &io);
    io_input(&io, "PREPARED.tsv", c->prepared);
    for (size_t i = 0; i < c->nphrase_files; i++)
        io_input(&io, "--phrases", c->phrase_files[i]);
    io_input(&io, "--mesh", c->mesh_terms);
    cli_linking_io(&c->heur, &io);
    for (size_t i = 0; i < c->nbatches; i++)
        io_input(&io, "--batch", c->batches[i]);
    io_input(&io, "--vectors", c->vectors);
    io_input(&io, "--negation", c->negation);
    io_input(&io, "--hypothesis-predictions", c->hypothesis_predictions);
    io_input(&io, "--hypothesis-eval-predictions", c->hypothesis_eval_predictions);
    io_input(&io, "--pair-predictions", c->pair_predictions);
    io_input(&io, "--null-predictions", c->null_predictions);
    io_input(&io, "--embeddings", c->embeddings);
    io_input(&io, "--embeddings-ids", c->embeddings_ids);
    io_input(&io, "--id-key", c->id_key);
    /* The run's epoch files, each an input (a folder that cannot be
       listed is the study's error to report, with the others'). */
    char **epochs = NULL;
    size_t nepochs = 0;
    tells_error ignored;
    if (c->dynamics && carto_epoch_files(c->dynamics, &epochs, &nepochs, &ignored) == 0)
        for (size_t i = 0; i < nepochs; i++)
            io_input(&io, "--dynamics", epochs[i]);
    carto_epoch_files_free(epochs, nepochs);
    if (!c->ninputs && !c->prepared)
        for (size_t i = 0; i < sizeof bundled_files / sizeof *bundled_files; i++) {
            char *p = data_path(bundled_files[i]);
            io_input(&io, "the bundled corpora", p);
            free(p);
        }
    io_output_dir(&io, "--output", o->output);
    cli_check_io(&io);
}

/* Copies the file at from into a new file: template without its Xs
   when no such file exists, else template (mkstemps, suffixlen bytes
   after the Xs, which become the name). */
static int keep_file(const char *from, char *template, int suffixlen)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        return -1;
    size_t len = strlen(template), x = len - (size_t)suffixlen - 7;  /* "-XXXXXX" */
    char *plain = malloc(len + 1);
    int fd = -1;
    if (plain) {
        memcpy(plain, template, x);
        strcpy(plain + x, template + x + 7);
        fd = open(plain, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0)
            strcpy(template, plain);
        free(plain);
    }
    if (fd < 0)
        fd = mkstemps(template, suffixlen);
    FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
    int rc = out ? 0 : -1;
    if (fd >= 0) {
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    }
    char buf[8192];
    size_t n;
    while (rc == 0 && (n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            rc = -1;
    if (ferror(in))
        rc = -1;
    fclose(in);
    if (out && fclose(out) != 0)
        rc = -1;
    else if (!out && fd >= 0)
        close(fd);
    if (rc < 0 && fd >= 0)
        unlink(template);
    return rc;
}

/* A failure names the user's folder, never the new one that is removed
   with it; a log the message points to is kept beside the folder. */
static void name_user_paths(tells_error *err, const out_dir *d)
{
    size_t n = d->tmp ? strlen(d->tmp) : 0;
    if (!n || strncmp(err->file, d->tmp, n) != 0 || (err->file[n] && err->file[n] != '/'))
        return;
    char rest[sizeof err->file];
    snprintf(rest, sizeof rest, "%s", err->file + n);
    const char *shown = d->path;
    int sl = (int)strlen(shown);
    while (sl > 1 && shown[sl - 1] == '/')
        sl--;
    if (err->code == TELLS_E_LOG) {
        /* FOLDER.gnuplot-XXXXXX.log, a new file: nothing is replaced. */
        const char *slash = strrchr(rest, '/');
        const char *name = slash ? slash + 1 : rest;
        const char *dot = strrchr(name, '.');
        int stem = dot ? (int)(dot - name) : (int)strlen(name);
        char kept[sizeof err->file];
        snprintf(kept, sizeof kept, "%.*s.%.*s-XXXXXX%s", sl, shown, stem, name,
                 dot ? dot : "");
        if (keep_file(err->file, kept, dot ? (int)strlen(dot) : 0) == 0) {
            snprintf(err->file, sizeof err->file, "%s", kept);
            return;
        }
    }
    if (snprintf(err->file, sizeof err->file, "%.*s%s", sl, shown, rest) >=
        (int)sizeof err->file)
        snprintf(err->file, sizeof err->file, "%.*s", sl, shown);
}

/* ---- what is printed ---- */

static void print_verdicts(const study_result *r, const char *dir)
{
    const verdicts *v = study_verdicts(r);
    size_t tokens = 0;
    for (size_t i = 0; i < v->n; i++) {
        if (strncmp(v->v[i].check, "token:", 6) == 0) {
            tokens++;
            continue;
        }
        printf("%s: %s", v->v[i].check, v->v[i].sentence);
        if (v->v[i].tested) {
            char q[128];
            verdict_q_text(&v->v[i], q, sizeof q);
            printf(" %s (%s).\n", v->v[i].significant ? "Significant" : "Not significant", q);
        } else
            putchar('\n');
    }
    printf("tokens: %zu token-class pairs favour a class significantly (competency test).\n",
           tokens);
    printf("tells-study: %s/summary.tsv, %s/report.html\n", dir, dir);
}

/* One corpus into dir, which will be shown (renamed) as shown. */
static int study_one(const study_config *c, const char *dir, const char *shown, bool quiet,
                     tells_error *err)
{
    study_result *r = NULL;
    int rc = study_run(c, dir, &r, err);
    if (rc == 0 && !quiet && c->folds_only)
        printf("tells-study: %s/folds.tsv, %s/prepared.tsv\n", shown, shown);
    else if (rc == 0 && !quiet)
        print_verdicts(r, shown);
    study_result_free(r);
    return rc;
}

/* ---- the bundled corpora ---- */

static char *data_path(const char *rel)
{
    char *p = cli_data_file(rel);
    if (!p)
        cli_die("out of memory");
    return p;
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (!p)
        cli_die("out of memory");
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* DIR/name made, and its name once DIR is in place (shown). */
static int make_subdir(const char *dir, const char *name, const char *final, char **out,
                       char **shown, tells_error *err)
{
    *out = join(dir, name);
    *shown = join(final, name);
    if (mkdir(*out, 0777) != 0)
        return tells_error_io(err, *out, 0, "cannot create: %s", strerror(errno));
    return 0;
}

static int run_bundled(const options *o, const char *dir, tells_error *err)
{
    char *shown = NULL;
    study_config c = o->cfg;
    char *snli = data_path("snli/snli_1.0_dev.jsonl");
    char *train = data_path("synthetic/train.jsonl"), *dev = data_path("synthetic/dev.jsonl"),
         *test = data_path("synthetic/test.jsonl"), *batch = data_path("synthetic/batch.jsonl");
    char *mesh = data_path(CLI_MESH_FILE);
    int rc = cli_check_data_file(snli, err);
    char *sub = NULL;

    /* SNLI dev: pre-tokenised, one split, so cross-validated. */
    prep_input snli_in[] = {{"dev", snli}};
    c.name = "SNLI 1.0 dev";
    c.inputs = snli_in;
    c.ninputs = 1;
    c.prep.tok.kind = TOKENIZER_WHITESPACE;
    c.nbatches = 0;
    if (rc == 0)
        rc = make_subdir(dir, "snli", o->output, &sub, &shown, err);
    if (rc == 0)
        rc = study_one(&c, sub, shown, o->quiet, err);
    free(sub);
    free(shown);
    sub = shown = NULL;

    /* The synthetic corpus: MeSH terms merged, and a new batch with a
       planted token and the hypernym heuristic used more. Its heuristics
       were planted on MeSH 2017 headings, so they are linked that way, as
       --mesh does. */
    prep_input synth_in[] = {{"train", train}, {"dev", dev}, {"test", test}};
    char *batches[] = {batch};
    char *builtin2017 = data_path(CLI_HEURISTICS_FILE);
    c = o->cfg;
    c.heur.mesh = mesh;
    c.heur.terms = NULL;
    c.heur.terms_in_data = false;
    c.heur.stem = false;
    c.heur.builtin = builtin2017;
    c.name = "the synthetic MedNLI-style corpus";
    c.inputs = synth_in;
    c.ninputs = 3;
    c.mesh_terms = mesh;
    c.batches = batches;
    c.nbatches = 1;
    if (rc == 0)
        rc = cli_check_data_file(batch, err);
    if (rc == 0)
        rc = make_subdir(dir, "synthetic", o->output, &sub, &shown, err);
    if (rc == 0)
        rc = study_one(&c, sub, shown, o->quiet, err);
    free(sub);
    free(shown);
    sub = shown = NULL;

    /* The ADE capability tests, on a classifier trained on generated
       posts. */
    capstudy_config cc;
    capstudy_config_default(&cc, cli_data_dir());
    cc.seed = o->cfg.seed;
    cc.progress = o->cfg.progress;
    cc.progress_user = o->cfg.progress_user;
    if (rc == 0)
        rc = make_subdir(dir, "ade", o->output, &sub, &shown, err);
    if (rc == 0)
        rc = capstudy_run(&cc, sub, o->quiet ? NULL : stdout, err);
    free(sub);
    free(shown);
    free(snli);
    free(train);
    free(dev);
    free(test);
    free(batch);
    free(mesh);
    free(builtin2017);
    return rc;
}

/* The study (or the bundled ones) into the folder, which takes its
   place when all went well. */
static int run(options *o, tells_error *err)
{
    study_config *c = &o->cfg;
    out_dir dir;
    int rc = out_dir_open(&dir, o->output, STUDY_MARK, err);
    if (rc == 0) {
        if (c->ninputs || c->prepared)
            rc = study_one(c, dir.tmp, o->output, o->quiet, err);
        else
            rc = run_bundled(o, dir.tmp, err);
        if (rc < 0)
            name_user_paths(err, &dir);
    }
    if (rc == 0)
        rc = out_dir_commit(&dir, err);
    if (rc == 0 && dir.kept)
        cli_warn("%s: the old folder, kept: files in it were not tells-study's to remove "
                 "(inputs of this run, or put there while it ran)", dir.kept);
    out_dir_close(&dir);
    if (rc == 0 && !o->quiet && !c->ninputs && !c->prepared)
        printf("tells-study: tables written under %s/\n", o->output);
    return rc;
}

static void options_free(options *o)
{
    free(o->corpus.inputs);
    free(o->phrases);
    free(o->batches);
    free(o->definitions);
    cli_corpus_free(&o->corpus);
    cli_linking_free(&o->link);
    free(o->output_buf);
    free(o->negation_buf);
}

/* The command line as a shell reads it back: each argument as it is when
   it holds only characters the shell leaves alone, else in single quotes
   (a quote inside as '\''). For run.json and the report. */
static char *command_line(int argc, char **argv, bool redact)
{
    size_t n = 1;
    for (int i = 0; i < argc; i++)
        n += 4 * strlen(argv[i]) + 3;
    char *s = malloc(n), *p = s;
    if (!s)
        cli_die("out of memory");
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        char *held = NULL;
        /* Redacted, a path is its file's name: the folder shared does
           not tell where the corpus lives. */
        if (redact && strchr(a, '/') && a[strlen(a) - 1] != '/') {
            const char *eq = a[0] == '-' ? strchr(a, '=') : NULL;
            const char *base = strrchr(a, '/') + 1;
            if (eq && eq < base) {
                size_t k = (size_t)(eq - a) + 1;
                char *t = malloc(k + strlen(base) + 1);
                if (!t)
                    cli_die("out of memory");
                memcpy(t, a, k);
                strcpy(t + k, base);
                a = t;
                held = t;
            } else {
                a = base;
            }
        }
        bool plain = *a && strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                     "0123456789_./:=,+-@%") == strlen(a);
        if (i)
            *p++ = ' ';
        if (plain) {
            p += sprintf(p, "%s", a);
        } else {
            *p++ = '\'';
            for (; *a; a++)
                p += *a == '\'' ? sprintf(p, "'\\''") : sprintf(p, "%c", *a);
            *p++ = '\'';
        }
        free(held);
    }
    *p = '\0';
    return s;
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-study");
    cli_hint(TELLS_E_NOT_PREPARED, "--split NAME FILE for a corpus not yet prepared");
    options o = {.link.stem = -1};
    parse_args(argc, argv, &o);
    char *command = command_line(argc, argv, o.cfg.redact);
    o.cfg.command = command;
    /* The heuristics' MeSH tree, entry terms and built-in definitions,
       as tells-heur chooses them (--mesh also merges terms into tokens). */
    o.link.mesh = o.cfg.mesh_terms;
    cli_linking_sources(&o.link, true, &o.cfg.heur);
    check_io(&o);
    tells_error err;
    tells_error_clear(&err);
    int rc = run(&o, &err);
    options_free(&o);
    free(command);
    if (rc < 0)
        cli_fail(&err);
    return 0;
}
