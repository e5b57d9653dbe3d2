/* tells-stat: evaluation metrics and significance tests over prediction
   files. */
#include <config.h>

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "base/lineio.h"
#include "stats/metrics.h"
#include "base/outfile.h"
#include "stats/stattest.h"

static void usage(void)
{
    printf("Usage: tells-stat [OPTION]... COMMAND FILE...\n"
"Evaluation metrics and significance tests over prediction files: TSVs with\n"
"a header naming at least the columns id, gold and predicted (others, such\n"
"as p_entailment, are ignored). Several files are systems joined by id: each\n"
"must hold the same ids, each once, with the same gold label. FILE '-' is\n"
"stdin.\n"
"\n"
"Commands:\n"
"  metrics FILE...          accuracy, macro and micro precision, recall and\n"
"                           F1, Cohen's kappa, Matthews correlation; with\n"
"                           --multi-label subset accuracy and Hamming loss\n"
"  mcnemar A B              McNemar's test on per-example correctness: exact\n"
"                           binomial and chi-squared with continuity correction\n"
"  bootstrap A B            paired bootstrap test of metric(A) - metric(B)\n"
"  permutation A B          approximate randomisation test of the same\n"
"  friedman A B C...        Friedman's test and mean ranks of k >= 3 systems;\n"
"                           blocks are examples (score 1 when correct), or\n"
"                           with --scores the lines of files of numbers\n"
"  welch A B                Welch's t-test of per-seed scores, files of\n"
"                           numbers (one per line, or a --column)\n"
"  fdr [FILE]               Benjamini-Hochberg adjusted p-values of the\n"
"                           p_value column of a TSV (stdin when absent)\n"
"  contrast --groups G FILE...  contrast-set consistency\n"
"\n"
"Options:\n"
"  -m, --metric NAME      accuracy, macro_f1 or micro_f1 (bootstrap,\n"
"                         permutation) [accuracy]\n"
"  -n, --samples N        resamples (bootstrap, permutation) [10000]\n"
"  -s, --seed N           seed of GSL's mt19937 (bootstrap, permutation) [1]\n"
"      --alternative H    two-sided, greater or less: the alternative to\n"
"                         metric(A) = metric(B) or mean(A) = mean(B)\n"
"                         (bootstrap, permutation, welch) [two-sided]\n"
"      --scores           friedman: FILEs hold numbers, line j of every file\n"
"                         is block j (per-seed or per-fold scores) [examples]\n"
"  -c, --column NAME      read numbers from column NAME of a TSV with header\n"
"                         (welch: once for both files, or twice, one per file\n"
"                         or two columns of one file; friedman --scores);\n"
"                         fdr: the p-value column [p_value]\n"
"  -a, --alpha X          fdr: level of the reject column [0.05]\n"
"  -g, --groups FILE      contrast: header 'original<TAB>contrast', then rows\n"
"                         ORIGINAL<TAB>CONTRAST[<TAB>CONTRAST]...\n"
"  -d, --details          metrics: also precision, recall, F1 per class\n"
"      --multi-label      gold and predicted cells are comma-separated label\n"
"                         sets; correct means the whole set is right\n"
"      --digits N         significant digits of p-values [2]\n"
"  -o, --output FILE      write here, atomically [stdout]\n"
"      --help             display this help and exit\n"
"      --version          output version information and exit\n"
"\n"
"Definitions (as scikit-learn, SciPy and statsmodels): per-class precision,\n"
"recall and F1 are 0 when undefined; macro averages are unweighted means over\n"
"the labels in gold or that system's predictions; kappa and MCC are the\n"
"multiclass forms (MCC 0 when undefined, kappa nan). Resampling p-values are\n"
"(count + 1) / (samples + 1), count the resamples at least as extreme.\n"
"\n"
"Output: metrics and contrast write TSV 'system metric class value support'\n"
"(class '-' for averages; values with 6 decimals); tests write 'test\n"
"statistic df p_value detail' (detail: key=value parameters, such as samples\n"
"and alternative; '-' where there is no df or p-value); fdr writes its input\n"
"with the columns p_adjusted, reject and fdr added. P-values have --digits\n"
"significant digits as printf's %%g, also below 1e-308 (1.1e-400).\n"
"\n"
"Exit status: 0 success, 1 bad data or runtime failure, 2 usage error.\n"
"\n"
"Examples:\n"
"  tells-stat metrics --details hyp-only.tsv full.tsv\n"
"  # three tests of full.tsv against hyp-only.tsv, then their FDR correction:\n"
"  { tells-stat mcnemar full.tsv hyp-only.tsv;\n"
"    tells-stat permutation -m macro_f1 full.tsv hyp-only.tsv | tail -n +2;\n"
"    tells-stat welch -c acc seeds-full.tsv seeds-hyp.tsv | tail -n +2;\n"
"  } | tells-stat fdr --alpha 0.05\n");
}

enum {
    OPT_ALTERNATIVE = 256, OPT_SCORES, OPT_MULTI, OPT_DIGITS, OPT_HELP,
    OPT_VERSION
};

static const struct option long_options[] = {
    {"metric", required_argument, NULL, 'm'},
    {"samples", required_argument, NULL, 'n'},
    {"seed", required_argument, NULL, 's'},
    {"alternative", required_argument, NULL, OPT_ALTERNATIVE},
    {"scores", no_argument, NULL, OPT_SCORES},
    {"column", required_argument, NULL, 'c'},
    {"alpha", required_argument, NULL, 'a'},
    {"groups", required_argument, NULL, 'g'},
    {"details", no_argument, NULL, 'd'},
    {"multi-label", no_argument, NULL, OPT_MULTI},
    {"digits", required_argument, NULL, OPT_DIGITS},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0}
};

/* Options a command may take, as bits. */
enum {
    O_METRIC = 1 << 0, O_SAMPLES = 1 << 1, O_SEED = 1 << 2, O_ALT = 1 << 3,
    O_SCORES = 1 << 4, O_COLUMN = 1 << 5, O_ALPHA = 1 << 6, O_GROUPS = 1 << 7,
    O_DETAILS = 1 << 8, O_MULTI = 1 << 9, O_DIGITS = 1 << 10
};
static const char *const option_names[] = {
    "--metric", "--samples", "--seed", "--alternative", "--scores", "--column",
    "--alpha", "--groups", "--details", "--multi-label", "--digits"
};

typedef enum {
    CMD_METRICS, CMD_MCNEMAR, CMD_BOOTSTRAP, CMD_PERMUTATION, CMD_FRIEDMAN,
    CMD_WELCH, CMD_FDR, CMD_CONTRAST
} command;

static const struct {
    const char *name;
    unsigned options;
} commands[] = {
    {"metrics", O_DETAILS | O_MULTI},
    {"mcnemar", O_MULTI | O_DIGITS},
    {"bootstrap", O_METRIC | O_SAMPLES | O_SEED | O_ALT | O_MULTI | O_DIGITS},
    {"permutation", O_METRIC | O_SAMPLES | O_SEED | O_ALT | O_MULTI | O_DIGITS},
    {"friedman", O_SCORES | O_COLUMN | O_MULTI | O_DIGITS},
    {"welch", O_COLUMN | O_ALT | O_DIGITS},
    {"fdr", O_COLUMN | O_ALPHA | O_DIGITS},
    {"contrast", O_GROUPS | O_MULTI},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

typedef struct settings {
    metric_kind metric;
    size_t samples;
    unsigned long seed;
    alternative alt;
    bool scores, details, multi;
    const char *column[2];
    int ncolumns;
    double alpha;
    const char *groups;
    int digits;
} settings;

/* Room for a detail field: several file names and numbers. */
enum { DETAIL_MAX = 8192 };

static void need_files(const char *cmd, int nfiles, int min, int max)
{
    if (nfiles >= min && nfiles <= max)
        return;
    if (min == max)
        cli_usage_error("%s compares exactly %d files (got %d)", cmd, min, nfiles);
    if (nfiles < min)
        cli_usage_error("%s needs at least %d file%s (got %d)", cmd, min,
                        min == 1 ? "" : "s", nfiles);
    cli_usage_error("%s takes at most %d file%s (got %d)", cmd, max,
                    max == 1 ? "" : "s", nfiles);
}

static int run_metrics(const settings *st, char **files, int nfiles, FILE *fp,
                       tells_error *err)
{
    pred_data d;
    if (pred_load(&d, files, (size_t)nfiles, st->multi, err) < 0)
        return -1;
    int rc = 0;
    metrics_write_header(fp);
    for (size_t s = 0; s < d.nsys && rc == 0; s++) {
        metrics m;
        if (metrics_compute(&d, s, &m) < 0) {
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        metrics_write(fp, &d, s, &m, st->details);
        metrics_free(&m);
    }
    pred_free(&d);
    return rc;
}

static int run_contrast(const settings *st, char **files, int nfiles, FILE *fp,
                        tells_error *err)
{
    pred_data d;
    if (pred_load(&d, files, (size_t)nfiles, st->multi, err) < 0)
        return -1;
    contrast_groups g;
    if (contrast_load(&g, st->groups, &d, err) < 0) {
        pred_free(&d);
        return -1;
    }
    metrics_write_header(fp);
    for (size_t s = 0; s < d.nsys; s++) {
        contrast_result r;
        contrast_eval(&g, &d, s, &r);
        contrast_write(fp, &d, s, &r);
    }
    contrast_free(&g);
    pred_free(&d);
    return 0;
}

static int run_mcnemar(const settings *st, char **files, FILE *fp,
                       tells_error *err)
{
    pred_data d;
    if (pred_load(&d, files, 2, st->multi, err) < 0)
        return -1;
    long b = 0, c = 0;
    size_t n = pred_n(&d);
    for (size_t i = 0; i < n; i++) {
        bool a_ok = pred_correct(&d, 0, i), b_ok = pred_correct(&d, 1, i);
        b += a_ok && !b_ok;
        c += !a_ok && b_ok;
    }
    char detail[DETAIL_MAX];
    test_result r;
    test_write_header(fp);
    mcnemar_exact(b, c, &r);
    snprintf(detail, sizeof detail, "a=%s b=%s a_only=%ld b_only=%ld n=%zu "
             "alternative=two-sided", d.names[0], d.names[1], b, c, n);
    test_write(fp, "mcnemar_exact", r.statistic, r.df, &r.p, st->digits, detail);
    mcnemar_chi2(b, c, &r);
    snprintf(detail, sizeof detail, "a=%s b=%s a_only=%ld b_only=%ld n=%zu "
             "correction=continuity alternative=two-sided", d.names[0],
             d.names[1], b, c, n);
    test_write(fp, "mcnemar_chi2", r.statistic, r.df, &r.p, st->digits, detail);
    pred_free(&d);
    return 0;
}

static int run_resample(const settings *st, command cmd, char **files, FILE *fp,
                        tells_error *err)
{
    pred_data d;
    if (pred_load(&d, files, 2, st->multi, err) < 0)
        return -1;
    resample_result r;
    int rc = cmd == CMD_BOOTSTRAP
                 ? paired_bootstrap(&d, 0, 1, st->metric, st->samples, st->seed,
                                    st->alt, &r)
                 : permutation_test(&d, 0, 1, st->metric, st->samples, st->seed,
                                    st->alt, &r);
    if (rc < 0) {
        pred_free(&d);
        return tells_error_nomem(err, NULL, 0);
    }
    char detail[DETAIL_MAX];
    snprintf(detail, sizeof detail, "metric=%s%s a=%s b=%s a_value=%.6f "
             "b_value=%.6f n=%zu samples=%zu seed=%lu count=%zu alternative=%s",
             st->multi && st->metric == METRIC_ACCURACY ? "subset_" : "",
             metric_name(st->metric), d.names[0], d.names[1], r.a_value, r.b_value,
             pred_n(&d), r.samples, st->seed, r.count, alternative_name(st->alt));
    test_write_header(fp);
    test_write(fp, commands[cmd].name, r.delta, NAN, &r.p, st->digits, detail);
    pred_free(&d);
    return 0;
}

/* The column of file i of a test reading numbers. */
static const char *column_of(const settings *st, int i)
{
    return st->ncolumns == 2 ? st->column[i] : st->column[0];
}

/* A file name with the column read from it: "runs.tsv[acc]". */
static void name_with_column(char *buf, size_t size, const char *path,
                             const char *column)
{
    if (column)
        snprintf(buf, size, "%s[%s]", display_name(path), column);
    else
        snprintf(buf, size, "%s", display_name(path));
}

static int run_friedman(const settings *st, char **files, int k, FILE *fp,
                        tells_error *err)
{
    double *scores = NULL, *mean_rank = malloc((size_t)k * sizeof *mean_rank);
    char **names = calloc((size_t)k, sizeof *names);
    size_t n = 0;
    int rc = mean_rank && names ? 0 : tells_error_nomem(err, NULL, 0);
    pred_data d = {0};
    bool loaded = false;
    if (rc == 0 && !st->scores) {
        rc = pred_load(&d, files, (size_t)k, st->multi, err);
        loaded = rc == 0;
        n = loaded ? pred_n(&d) : 0;
        if (rc == 0 && !(scores = malloc(n * (size_t)k * sizeof *scores)))
            rc = tells_error_nomem(err, NULL, 0);
        for (size_t i = 0; rc == 0 && i < n; i++)
            for (int s = 0; s < k; s++)
                scores[i * (size_t)k + (size_t)s] = pred_correct(&d, (size_t)s, i);
        for (int s = 0; rc == 0 && s < k; s++)
            names[s] = d.names[s];
    } else if (rc == 0) {
        for (int s = 0; s < k && rc == 0; s++) {
            double *v;
            size_t m;
            if ((rc = numbers_read(files[s], st->column[0], &v, &m, err)) < 0)
                break;
            if (s == 0) {
                n = m;
                if (!(scores = malloc(n * (size_t)k * sizeof *scores)))
                    rc = tells_error_nomem(err, NULL, 0);
            } else if (m != n)
                rc = tells_error_set(err, display_name(files[s]), 0,
                                     "%zu numbers, but %s has %zu (line j of "
                                     "every file is block j)", m,
                                     display_name(files[0]), n);
            for (size_t i = 0; rc == 0 && i < n; i++)
                scores[i * (size_t)k + (size_t)s] = v[i];
            free(v);
            names[s] = files[s];
        }
    }
    if (rc == 0) {
        test_result r;
        char detail[DETAIL_MAX];
        if (friedman_test(scores, n, (size_t)k, &r, mean_rank) < 0)
            rc = tells_error_nomem(err, NULL, 0);
        else {
            test_write_header(fp);
            snprintf(detail, sizeof detail, "blocks=%s n=%zu k=%d ties=corrected",
                     st->scores ? "scores" : "examples", n, k);
            test_write(fp, "friedman", r.statistic, r.df, &r.p, st->digits, detail);
            for (int s = 0; s < k; s++) {
                char name[2048];
                name_with_column(name, sizeof name, names[s],
                                 st->scores ? st->column[0] : NULL);
                snprintf(detail, sizeof detail, "system=%s best=1", name);
                test_write(fp, "friedman_mean_rank", mean_rank[s], NAN, NULL,
                           st->digits, detail);
            }
        }
    }
    if (loaded)
        pred_free(&d);
    free(scores);
    free(mean_rank);
    free(names);
    return rc;
}

static int run_welch(const settings *st, char **files, int nfiles, FILE *fp,
                     tells_error *err)
{
    double *v[2] = {NULL, NULL};
    size_t n[2] = {0, 0};
    char name[2][2048];
    int rc = 0;
    for (int i = 0; i < 2 && rc == 0; i++) {
        const char *path = files[nfiles == 1 ? 0 : i];
        rc = numbers_read(path, column_of(st, i), &v[i], &n[i], err);
        if (rc == 0 && n[i] < 2)
            rc = tells_error_set(err, display_name(path), 0,
                                 "need at least 2 numbers for a variance, found %zu",
                                 n[i]);
        name_with_column(name[i], sizeof name[i], path, column_of(st, i));
    }
    test_result r;
    double mean[2];
    if (rc == 0 && welch_test(v[0], n[0], v[1], n[1], st->alt, &r, &mean[0],
                              &mean[1]) < 0)
        rc = tells_error_set(err, NULL, 0, "both samples have zero variance: "
                             "the t statistic is undefined");
    if (rc == 0) {
        char detail[DETAIL_MAX];
        snprintf(detail, sizeof detail, "a=%s b=%s n_a=%zu n_b=%zu mean_a=%.6f "
                 "mean_b=%.6f alternative=%s", name[0], name[1], n[0], n[1],
                 mean[0], mean[1], alternative_name(st->alt));
        test_write_header(fp);
        test_write(fp, "welch", r.statistic, r.df, &r.p, st->digits, detail);
    }
    free(v[0]);
    free(v[1]);
    return rc;
}

static int run_fdr(const settings *st, const char *path, FILE *fp,
                   tells_error *err)
{
    p_table t;
    if (p_table_read(&t, path, st->column[0] ? st->column[0] : "p_value", err) < 0)
        return -1;
    pvalue *p = malloc(t.m * sizeof *p), *adj = malloc(t.m * sizeof *adj);
    bool *reject = malloc(t.m * sizeof *reject);
    int rc = 0;
    if (!p || !adj || !reject)
        rc = tells_error_nomem(err, NULL, 0);
    size_t m = 0;
    for (size_t i = 0; rc == 0 && i < t.n; i++)
        if (t.has_p[i])
            p[m++] = t.p[i];
    if (rc == 0 && bh_adjust(p, m, st->alpha, adj, reject) < 0)
        rc = tells_error_nomem(err, NULL, 0);
    if (rc == 0) {
        char method[128];
        snprintf(method, sizeof method, "benjamini-hochberg m=%zu alpha=%g", m,
                 st->alpha);
        fprintf(fp, "%s\tp_adjusted\treject\tfdr\n", t.header);
        m = 0;
        for (size_t i = 0; i < t.n; i++) {
            if (!t.has_p[i]) {
                fprintf(fp, "%s\t-\t-\t-\n", t.rows[i]);
                continue;
            }
            char buf[64];
            pvalue_format(adj[m], st->digits, buf, sizeof buf);
            fprintf(fp, "%s\t%s\t%s\t%s\n", t.rows[i], buf,
                    reject[m] ? "yes" : "no", method);
            m++;
        }
    }
    free(p);
    free(adj);
    free(reject);
    p_table_free(&t);
    return rc;
}

int main(int argc, char **argv)
{
    cli_init(argv, "tells-stat");
    settings st = {.metric = METRIC_ACCURACY, .samples = 10000, .seed = 1,
                   .alt = ALT_TWO_SIDED, .alpha = 0.05, .digits = 2};
    unsigned given = 0;
    const char *output = NULL;
    int c;
    while ((c = getopt_long(argc, argv, "m:n:s:c:a:g:do:", long_options, NULL)) != -1) {
        switch (c) {
        case 'm':
            if (metric_parse(optarg, &st.metric) < 0)
                cli_usage_error("invalid metric '%s' (accuracy, macro_f1 or micro_f1)",
                                optarg);
            given |= O_METRIC;
            break;
        case 'n':
            st.samples = (size_t)cli_long("--samples", optarg, 1, 100000000);
            given |= O_SAMPLES;
            break;
        case 's':
            /* mt19937 keeps 32 bits of the seed: refuse seeds that collide. */
            st.seed = (unsigned long)cli_long("--seed", optarg, 0, 4294967295L);
            given |= O_SEED;
            break;
        case OPT_ALTERNATIVE:
            if (alternative_parse(optarg, &st.alt) < 0)
                cli_usage_error("invalid alternative '%s' (two-sided, greater or less)",
                                optarg);
            given |= O_ALT;
            break;
        case OPT_SCORES: st.scores = true; given |= O_SCORES; break;
        case 'c':
            if (st.ncolumns == 2)
                cli_usage_error("--column given more than twice");
            st.column[st.ncolumns++] = optarg;
            given |= O_COLUMN;
            break;
        case 'a':
            st.alpha = cli_double("--alpha", optarg, 0.0);
            if (st.alpha <= 0.0 || st.alpha > 1.0)
                cli_usage_error("invalid value '%s' for --alpha (expected a number "
                                "> 0 and <= 1)", optarg);
            given |= O_ALPHA;
            break;
        case 'g': st.groups = optarg; given |= O_GROUPS; break;
        case 'd': st.details = true; given |= O_DETAILS; break;
        case OPT_MULTI: st.multi = true; given |= O_MULTI; break;
        case OPT_DIGITS:
            st.digits = (int)cli_long("--digits", optarg, 1, 17);
            given |= O_DIGITS;
            break;
        case 'o': output = optarg; break;
        case OPT_HELP: usage(); return 0;
        case OPT_VERSION: cli_version(); return 0;
        default: cli_try_help();
        }
    }
    if (optind >= argc)
        cli_usage_error("missing command (metrics, mcnemar, bootstrap, permutation, "
                        "friedman, welch, fdr or contrast)");
    const char *name = argv[optind];
    int found = -1;
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0)
            found = i;
    if (found < 0)
        cli_usage_error("unknown command '%s' (metrics, mcnemar, bootstrap, "
                        "permutation, friedman, welch, fdr or contrast)", name);
    command cmd = (command)found;
    unsigned extra = given & ~commands[cmd].options;
    for (int b = 0; extra; b++)
        if (extra & (1u << b))
            cli_usage_error("%s does not apply to %s", option_names[b], name);
    if (cmd == CMD_FRIEDMAN && st.scores && st.multi)
        cli_usage_error("--multi-label does not apply to friedman --scores");
    if (cmd == CMD_FRIEDMAN && !st.scores && st.ncolumns)
        cli_usage_error("--column needs friedman --scores");
    char **files = argv + optind + 1;
    int nfiles = argc - optind - 1;
    switch (cmd) {
    case CMD_METRICS: need_files(name, nfiles, 1, INT_MAX); break;
    case CMD_MCNEMAR:
    case CMD_BOOTSTRAP:
    case CMD_PERMUTATION: need_files(name, nfiles, 2, 2); break;
    case CMD_FRIEDMAN: need_files(name, nfiles, 3, INT_MAX); break;
    case CMD_WELCH:
        need_files(name, nfiles, st.ncolumns == 2 ? 1 : 2, 2);
        break;
    case CMD_FDR:
        need_files(name, nfiles, 0, 1);
        if (st.ncolumns > 1)
            cli_usage_error("fdr reads one --column");
        break;
    case CMD_CONTRAST:
        if (!st.groups)
            cli_usage_error("contrast needs --groups FILE");
        need_files(name, nfiles, 1, INT_MAX);
        break;
    }
    if (cmd == CMD_FRIEDMAN && st.ncolumns > 1)
        cli_usage_error("friedman --scores reads one --column");

    tells_error err;
    tells_error_clear(&err);
    out_file out;
    int rc = out_open(&out, output, &err);
    if (rc == 0) {
        switch (cmd) {
        case CMD_METRICS: rc = run_metrics(&st, files, nfiles, out.fp, &err); break;
        case CMD_MCNEMAR: rc = run_mcnemar(&st, files, out.fp, &err); break;
        case CMD_BOOTSTRAP:
        case CMD_PERMUTATION: rc = run_resample(&st, cmd, files, out.fp, &err); break;
        case CMD_FRIEDMAN: rc = run_friedman(&st, files, nfiles, out.fp, &err); break;
        case CMD_WELCH: rc = run_welch(&st, files, nfiles, out.fp, &err); break;
        case CMD_FDR: rc = run_fdr(&st, nfiles ? files[0] : "-", out.fp, &err); break;
        case CMD_CONTRAST: rc = run_contrast(&st, files, nfiles, out.fp, &err); break;
        }
        if (rc < 0)
            out_abort(&out);
        else if (ferror(out.fp)) {
            out_abort(&out);
            rc = tells_error_set(&err, output ? output : "stdout", 0, "write error");
        } else
            rc = out_commit(&out, &err);
    }
    if (rc < 0)
        cli_report(&err);
    return rc < 0 ? EXIT_DATA : 0;
}
