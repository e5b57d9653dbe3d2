#include <config.h>
#include "study/core.h"

#include <math.h>
#include <stdarg.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "base/alloc.h"
#include "base/lineio.h"
#include "base/prepared.h"
#include "base/tasks.h"
#include "study/provenance.h"
#include "study/report.h"

void study_config_default(study_config *c)
{
    memset(c, 0, sizeof *c);
    c->name = "corpus";
    c->prep.tok.kind = TOKENIZER_DEFAULT;
    c->prep.format = FORMAT_AUTO;
    c->prep.fields = CORPUS_FIELDS_DEFAULT;
    c->heur.general = true;
    c->folds = 5;
    c->threads = 1;
    c->seed = 1;
    c->alpha = 0.05;
    c->token_alpha = 0.01;
    c->figures = true;
    c->gnuplot = "gnuplot";
    c->min_examples = REDACT_MIN_EXAMPLES;
}

/* ---- the table ---- */

static const char *const resource_names[] = {
    "the corpus", "the evaluation", "the models' scores", "the token counts", "the lengths",
    "the heuristics", "the vectors", "AFLite's partitions", "the cross-validated predictions",
    "the held-out scores", "the audit", "PVI and cartography", "the log-odds"};

int study_table_check(const study_section *const *table, size_t n, tells_error *err)
{
    unsigned have = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned lack = table[i]->needs & ~have;
        if (lack) {
            size_t b = 0;
            while (!(lack & (1u << b)))
                b++;
            return tells_error_set(err, NULL, 0, "internal error: the study's section '%s' "
                                   "needs %s, which no section before it provides",
                                   table[i]->name,
                                   b < sizeof resource_names / sizeof *resource_names
                                       ? resource_names[b]
                                       : "a resource");
        }
        have |= table[i]->provides;
    }
    return 0;
}

void *study_state(const study *s, const study_section *sec)
{
    for (size_t i = 0; i < s->nsections; i++)
        if (s->sections[i] == sec)
            return s->state[i];
    return NULL;
}

const study_step_doc *study_step_at(size_t i)
{
    static study_step_doc doc;
    if (i >= study_nsections)
        return NULL;
    doc.name = study_sections[i]->name;
    doc.writes = study_sections[i]->writes;
    return &doc;
}

const study_check *study_check_at(size_t i)
{
    for (size_t k = 0; k < study_nsections; k++) {
        if (i < study_sections[k]->nchecks)
            return &study_sections[k]->checks[i];
        i -= study_sections[k]->nchecks;
    }
    return NULL;
}

/* ---- services ---- */

void study_say(const study *s, const char *fmt, ...)
{
    if (!s->cfg->progress)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    s->cfg->progress(msg, s->cfg->progress_user);
}

void study_forward_progress(const char *msg, void *user)
{
    study_say(user, "  %s", msg);
}

char *study_path(const study *s, const char *name, tells_error *err)
{
    size_t n = strlen(s->dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (!p)
        tells_error_nomem(err, NULL, 0);
    else
        snprintf(p, n, "%s/%s", s->dir, name);
    return p;
}

const char *study_batch_name(const char *given)
{
    const char *slash = strrchr(given, '/');
    return slash ? slash + 1 : given;
}

int study_remove(const char *path, int rc, tells_error *err)
{
    if (path && unlink(path) != 0 && errno != ENOENT && rc == 0)
        rc = tells_error_io(err, path, 0, "cannot remove: %s", strerror(errno));
    return rc;
}

int study_write(const study *s, const char *name, out_writer w, void *ctx, tells_error *err)
{
    char *path = study_path(s, name, err);
    if (!path)
        return -1;
    int rc = out_write(path, w, ctx, err);
    free(path);
    return rc;
}

int study_copy_lines(const char *from, const char *to, bool split_all, tells_error *err)
{
    line_reader lr;
    if (line_reader_open(&lr, from, 0, err) < 0)
        return -1;
    out_file o;
    if (out_open(&o, to, err) < 0) {
        line_reader_close(&lr);
        return -1;
    }
    char *line;
    size_t len;
    int rc;
    while ((rc = line_reader_next(&lr, &line, &len, err)) == 1) {
        char *tab = split_all && lr.lineno > 1 ? memchr(line, '\t', len) : NULL;
        char *tab2 = tab ? memchr(tab + 1, '\t', len - (size_t)(tab + 1 - line)) : NULL;
        if (tab2)
            fprintf(o.fp, "%.*s\tall%s\n", (int)(tab - line), line, tab2);
        else if (fwrite(line, 1, len, o.fp) != len || putc('\n', o.fp) == EOF)
            break;
    }
    line_reader_close(&lr);
    if (rc < 0) {
        out_abort(&o);
        return -1;
    }
    /* A write error is out_commit's to report. */
    return out_commit(&o, err);
}

int study_prepare_inputs(const study *s, const prep_input *in, size_t n, const char *path,
                         tells_error *err)
{
    const study_config *c = s->cfg;
    phrase_set *ps = NULL;
    if (prep_load_phrases((const char *const *)c->phrase_files, c->nphrase_files,
                          c->mesh_terms, &c->prep.tok, &ps, err) < 0)
        return -1;
    prep_options po = c->prep;
    po.phrases = ps;
    po.id_key = s->id_key.bytes ? &s->id_key : NULL;
    int rc = prep_run(&po, in, n, path, NULL, NULL, err);
    phrase_set_free(ps);
    return rc;
}

char *study_batch_file(const study *s, size_t b, tells_error *err)
{
    const study_config *c = s->cfg;
    const char *given = c->batches[b];
    char name[64];
    snprintf(name, sizeof name, c->nbatches == 1 ? "batch.tsv" : "batch-%zu.tsv", b + 1);
    char *path = study_path(s, name, err);
    if (!path || access(path, F_OK) == 0)
        return path;
    int rc;
    if (prepared_file_is(given))
        rc = study_copy_lines(given, path, false, err);
    else {
        prep_input in = {"new", given};
        rc = study_prepare_inputs(s, &in, 1, path, err);
    }
    if (rc < 0) {
        free(path);
        return NULL;
    }
    return path;
}

int study_rows_from_input(const study *s, npy_matrix *x, tells_error *err)
{
    size_t n = s->data.n, c = x->cols;
    if (x->rows != n)
        return tells_error_set(err, NULL, 0, "%zu rows for %zu examples", x->rows, n);
    /* In place, a cycle of the permutation at a time (row i gets the
       input's row data_pos[i]), with one row aside: not a second matrix. */
    unsigned char *done = array_new(n, 1);
    float *row = array_new(c, sizeof *row);
    if (!done || !row) {
        free(done);
        free(row);
        return tells_error_nomem(err, NULL, 0);
    }
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        memcpy(row, x->data + i * c, c * sizeof *row);
        size_t j = i;
        for (;;) {
            done[j] = 1;
            size_t k = s->data_pos[j];
            if (k == i) {
                memcpy(x->data + j * c, row, c * sizeof *row);
                break;
            }
            memcpy(x->data + j * c, x->data + k * c, c * sizeof *row);
            j = k;
        }
    }
    free(done);
    free(row);
    return 0;
}

size_t *study_input_rows(const study *s)
{
    size_t *row = array_new(s->data.n, sizeof *row);
    for (size_t i = 0; row && i < s->data.n; i++)
        row[s->data_pos[i]] = i;
    return row;
}

int study_write_input_order(FILE *fp, void *ctx, tells_error *err)
{
    const study_rows *r = ctx;
    const npy_matrix *x = r->x;
    size_t n = r->s->data.n, *row = study_input_rows(r->s);
    if (!row)
        return tells_error_nomem(err, NULL, 0);
    int rc = npy_write_header(fp, x->rows, x->cols) < 0 ? -1 : 0;
    for (size_t j = 0; rc == 0 && j < n; j++)
        if (npy_write_rows(fp, x->data + row[j] * x->cols, x->cols) < 0)
            rc = -1;
    free(row);
    return rc;   /* a write error is out_write's to name, as npy_write_matrix's */
}

int study_all(study *s, tells_error *err)
{
    if (s->all_loaded)
        return 0;
    char *all = study_path(s, "all.tsv", err);
    int rc = all ? study_copy_lines(s->prepared, all, true, err) : -1;
    if (rc == 0)
        rc = dataset_load(&s->all, all, err);
    /* In the order of s->data's rows: row i is the same example in both. */
    if (rc == 0)
        rc = dataset_sort_by_id(&s->all, NULL, err);
    /* Loaded, the copy has done its work: the folder keeps no second
       prepared corpus. */
    rc = study_remove(all, rc, err);
    free(all);
    s->all_loaded = rc == 0;
    return rc;
}

void study_comparison_setup(study *s, comparison_config *cc)
{
    comparison_config_default(cc);
    cc->train = s->train;
    cc->folds = s->cv ? s->folds : 0;
    cc->group = s->cfg->group;
    /* fastText's epochs and learning rate chosen on the training rows,
       unless the user fixed either (the other then fastText's default). */
    cc->tune = s->cfg->epoch == 0 && s->cfg->lr == 0;
    cc->ft.epoch = s->cfg->epoch;
    cc->ft.lr = s->cfg->lr;
    cc->ft.seed = (int)s->cfg->seed;
    /* Each fit on one fastText thread; --threads of them side by side. */
    cc->jobs = s->cfg->threads > 0 ? (size_t)s->cfg->threads : 1;
    cc->progress = s->cfg->progress ? study_forward_progress : NULL;
    cc->progress_user = s;
}

void study_given_model(const study *s, comparison_config *cc, const ext_predictions *x,
                       const char *entry, const char **eval_slot)
{
    if (!s->cv) {
        *eval_slot = s->eval;
        cc->eval = eval_slot;
        cc->neval = 1;
    }
    cc->given = x;
    cc->given_corpus = &s->data;
    cc->given_name = entry;
}

const char *study_hypothesis_model(const study *s)
{
    return s->given ? s->given_entry : "fasttext";
}

void study_model_check_set(const study *s, const dataset *d, const predictions *p,
                           double train_accuracy, double train_majority,
                           study_model_check *c)
{
    memset(c, 0, sizeof *c);
    c->prob_sd = predictions_prob_sd(p);
    c->top_share = NAN;
    /* The most predicted label, the first in byte order of equals (so
       whatever the rows' order), and its share of the rows' gold labels. */
    size_t L = vocab_size(d->labels);
    size_t *pred_n = array_new(L ? L : 1, sizeof *pred_n);
    size_t *gold_n = array_new(L ? L : 1, sizeof *gold_n);
    c->top = "";
    c->top_gold_share = NAN;
    if (pred_n && gold_n && p->n) {
        for (size_t j = 0; j < p->n; j++) {
            pred_n[p->pred[j]]++;
            gold_n[d->ex[p->row[j]].label]++;
        }
        long best = -1;
        for (size_t k = 0; k < s->nclasses; k++) {
            const char *name = study_class_name(s, k);
            long l = vocab_find(d->labels, name, strlen(name));
            if (l >= 0 && (best < 0 || pred_n[l] > pred_n[best])) {
                best = l;
                c->top = name;
            }
        }
        if (best >= 0) {
            c->top_share = (double)pred_n[best] / (double)p->n;
            c->top_gold_share = (double)gold_n[best] / (double)p->n;
        }
    }
    free(pred_n);
    free(gold_n);
    c->train_accuracy = train_accuracy;
    c->train_majority = train_majority;
    /* One label for nearly every row, where the gold labels are not so
       nearly one: on a corpus of one class in 95%, a sound model may
       answer it as often. */
    c->one_class = c->top_share * 1000 >= STUDY_ONE_CLASS_PERMILLE &&
                   c->top_gold_share * 1000 < STUDY_ONE_CLASS_GOLD_PERMILLE;
    c->constant = c->prob_sd < STUDY_CONSTANT_SD;   /* false for NAN */
    c->underfit = c->train_accuracy < c->train_majority;
}

/* "predicts 'X' for 98.0% of the examples; ..." */
static void model_check_words(const study_model_check *c, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    if (c->one_class)
        n += (size_t)snprintf(buf + n, size - n, "predicts '%s' for %.1f%% of the examples "
                              "(the gold label of %.1f%% of them)",
                              c->top, 100 * c->top_share, 100 * c->top_gold_share);
    if (c->constant && n < size)
        n += (size_t)snprintf(buf + n, size - n, "%sgives nearly the same probabilities to "
                              "every example (the largest standard deviation of a label's "
                              "probability across them is %.4f, under %.2f)",
                              n ? "; it " : "", c->prob_sd, STUDY_CONSTANT_SD);
    if (c->underfit && n < size)
        snprintf(buf + n, size - n, "%sgets %.1f%% of its own training examples right, "
                 "below the %.1f%% of always answering their most frequent class",
                 n ? "; it " : "", 100 * c->train_accuracy, 100 * c->train_majority);
}

int study_model_warning(verdicts *vs, const char *name, const char *shown,
                        const study_model_check *c, const char *consequence,
                        tells_error *err)
{
    if (!study_model_degenerate(c))
        return 0;
    verdict *v = verdicts_add(vs, err, "model_warning:%s", name);
    if (!v)
        return -1;
    v->value = c->top_share;
    snprintf(v->detail, sizeof v->detail,
             "test=none top_label=%s top_share=%.6f top_gold_share=%.6f prob_sd=%.6f "
             "train_accuracy=%.6f train_majority=%.6f one_class=%s constant=%s "
             "below_majority=%s thresholds=top_share>=0.95&top_gold_share<0.90,prob_sd<%.2f,"
             "train_accuracy<train_majority",
             c->top, c->top_share, c->top_gold_share, c->prob_sd, c->train_accuracy,
             c->train_majority,
             c->one_class ? "yes" : "no", c->constant ? "yes" : "no",
             c->underfit ? "yes" : "no", STUDY_CONSTANT_SD);
    char words[512];
    model_check_words(c, words, sizeof words);
    snprintf(v->sentence, sizeof v->sentence,
             "Warning: %s %s. A degenerate model: %s", shown, words, consequence);
    return 0;
}

void study_model_warn_row(verdict *v, const char *name, const study_model_check *c,
                          const char *says)
{
    if (!study_model_degenerate(c))
        return;
    size_t n = strlen(v->detail);
    snprintf(v->detail + n, sizeof v->detail - n, "%swarning=model_warning:%s",
             n ? " " : "", name);
    n = strlen(v->sentence);
    if (says)
        snprintf(v->sentence + n, sizeof v->sentence - n, " %s", says);
    else
        snprintf(v->sentence + n, sizeof v->sentence - n, " Its model is degenerate "
                 "(model_warning:%s): a \"no\" here is no evidence of no shortcut.", name);
}

double study_majority_share(const study *s, const char *split)
{
    const dataset *d = &s->data;
    bool every = strcmp(split, "all") == 0;
    long train = vocab_find(d->splits, split, strlen(split));
    size_t *count = array_new(s->nclasses, sizeof *count), n = 0, best = 0;
    if (!count)
        return NAN;
    for (size_t i = 0; i < d->n; i++)
        if (every || (long)d->ex[i].split == train) {
            count[d->ex[i].label]++;
            n++;
        }
    for (size_t k = 0; k < s->nclasses; k++)
        if (count[k] > best)
            best = count[k];
    free(count);
    return n ? (double)best / (double)n : NAN;
}

const char *study_hypothesis_shown(const study *s, char *buf, size_t size)
{
    if (s->given)
        snprintf(buf, size, "hypothesis-only model %s (predictions given)", s->given_name);
    else
        snprintf(buf, size, "hypothesis-only fastText model");
    return buf;
}

const char *study_vectors_shown(const study *s, char *buf, size_t size)
{
    if (s->cfg->embeddings) {
        const char *slash = strrchr(s->cfg->embeddings, '/');
        snprintf(buf, size, "the hypothesis embeddings given (%s)",
                 slash ? slash + 1 : s->cfg->embeddings);
    } else
        snprintf(buf, size, "the averaged hypothesis vectors");
    return buf;
}

const comparison_entry *study_entry(const comparison *cmp, const char *model,
                                    const char *split)
{
    for (size_t i = 0; i < cmp->n; i++)
        if (strcmp(cmp->entry[i].model, model) == 0 && strcmp(cmp->entry[i].split, split) == 0)
            return &cmp->entry[i];
    return NULL;
}

double study_mean(const unsigned char *x, size_t n)
{
    size_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    return n ? (double)sum / (double)n : NAN;
}

size_t study_class(const study *s, size_t k) { return s->class_order[k]; }

const char *study_class_name(const study *s, size_t k)
{
    return vocab_str(s->data.labels, s->class_order[k]);
}

const char *study_label(const study *s, size_t label) { return vocab_str(s->data.labels, label); }

void study_diff_words(const verdict *v, study_diff *w)
{
    study_percent(w->a, sizeof w->a, v->value);
    study_percent(w->b, sizeof w->b, v->reference);
    snprintf(w->d, sizeof w->d, "%+.1f", 100 * v->effect);
    snprintf(w->lo, sizeof w->lo, "%+.1f", 100 * v->ci_low);
    snprintf(w->hi, sizeof w->hi, "%+.1f", 100 * v->ci_high);
    study_pvalue(w->p, sizeof w->p, v->p);
}

void study_class_header(FILE *fp, const study *s, const char *first)
{
    fputs(first, fp);
    for (size_t k = 0; k < s->nclasses; k++) {
        putc('\t', fp);
        fig_data_string(fp, study_class_name(s, k));
    }
    putc('\n', fp);
}

void study_class_boxes_script(FILE *fp, const study *s, const char *name, const char *ylabel,
                              const char *yrange)
{
    fig_script_head(fp, name, 520, 340);
    fprintf(fp, "set style boxplot fraction 0.99 nooutliers\nset style data boxplot\n"
                "set ylabel %s\nset yrange %s\n", ylabel, yrange);
    fprintf(fp, "set xrange [0.3:%zu.7]\n", s->nclasses);
    fputs("set xtics (", fp);
    for (size_t i = 0; i < s->nclasses; i++) {
        if (i)
            fputs(", ", fp);
        fig_script_string(fp, study_class_name(s, i));
        fprintf(fp, " %zu", i + 1);
    }
    fputs(")\n", fp);
    fprintf(fp, "plot for [i=0:%zu] '%s.dat' index i using (i+1):1:(0.5) lc (i+1) notitle\n",
            s->nclasses - 1, name);
}

void study_sentence(const study *s, page *pg, const char *check)
{
    const verdict *v = verdicts_find(&s->v, check);
    if (v)
        page_para(pg, v->sentence);
}

void study_percent(char *buf, size_t size, double x) { snprintf(buf, size, "%.1f%%", 100.0 * x); }

void study_pvalue(char *buf, size_t size, pvalue p) { pvalue_format(p, 2, buf, size); }

/* ---- the run ---- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A step's seconds, for run.json and the report, and said. */
static void record_step(study *s, const char *name, double seconds)
{
    if (s->nsteps < STUDY_MAX_STEPS) {
        study_step *st = &s->step[s->nsteps++];
        snprintf(st->name, sizeof st->name, "%s", name);
        st->seconds = seconds;
        study_say(s, "%s: %.2f s", name, seconds);
    }
}

/* Runs fn as the step called name, timed. */
static int timed(study *s, const char *name, int (*fn)(study *, void *, tells_error *),
                 void *state, tells_error *err)
{
    study_say(s, "%s", name);
    double t0 = now();
    int rc = fn(s, state, err);
    record_step(s, name, now() - t0);
    return rc;
}

/* Every section's rows, in the table's order, adjusted as one family. */
static int run_verdicts(study *s, void *unused, tells_error *err)
{
    (void)unused;
    verdicts_init(&s->v, s->cfg->alpha);
    for (size_t i = 0; i < s->nsections; i++) {
        const study_section *sec = s->sections[i];
        if (sec->verdicts && sec->verdicts(s, s->state[i], &s->v, err) < 0)
            return -1;
    }
    if (verdicts_adjust(&s->v, err) < 0)
        return -1;
    return study_write(s, "summary.tsv", verdicts_write, &s->v, err);
}

static int run_report(study *s, void *unused, tells_error *err)
{
    (void)unused;
    return study_report(s, s->dir, err);
}

/* A section run beside others (study_section.beside). */
typedef struct beside_run {
    study *s;
    const study_section *sec;
    void *state;
    size_t index;              /* its place in the table */
    pthread_t thread;
    bool started;
    int rc;
    double seconds;
    tells_error err;
} beside_run;

static void *beside_main(void *arg)
{
    beside_run *b = arg;
    double t0 = now();
    tells_error_clear(&b->err);
    b->rc = b->sec->run(b->s, b->state, &b->err);
    tasks_release_thread();   /* held by start_beside */
    b->seconds = now() - t0;
    return NULL;
}

/* Starts the first section after i that may run beside the others and
   whose needs `have` covers, unless one runs already. */
static void start_beside(study *s, size_t i, unsigned have, beside_run *b)
{
    if (b->started || s->cfg->threads < 2)
        return;
    for (size_t j = i + 1; j < s->nsections; j++) {
        const study_section *sec = s->sections[j];
        if (!sec->beside || (sec->needs & ~have))
            continue;
        /* Its state now; out of memory, it runs in its turn instead. */
        if (!(s->state[j] = calloc(1, sec->state_size ? sec->state_size : 1)))
            return;
        *b = (beside_run){.s = s, .sec = sec, .state = s->state[j], .index = j};
        /* It is one of the --threads: until it ends, the steps before
           it run on one thread fewer (base/tasks.h). */
        tasks_hold_thread();
        if (pthread_create(&b->thread, NULL, beside_main, b) == 0) {
            b->started = true;
            study_say(s, "%s: started beside the steps before it", sec->name);
        } else {
            tasks_release_thread();
            free(s->state[j]);
            s->state[j] = NULL;
        }
        return;
    }
}

/* Waits for it, and records its step as timed() does. */
static int join_beside(study *s, beside_run *b, tells_error *err)
{
    pthread_join(b->thread, NULL);
    b->started = false;
    record_step(s, b->sec->name, b->seconds);
    if (b->rc < 0)
        *err = b->err;
    return b->rc;
}

int study_run(const study_config *c, const char *dir, study_result **out, tells_error *err)
{
    *out = NULL;
    study *s = calloc(1, sizeof *s);
    if (!s)
        return tells_error_nomem(err, NULL, 0);
    s->cfg = c;
    s->dir = dir;
    snprintf(s->name, sizeof s->name, "%s", c->name ? c->name : "corpus");
    s->sections = study_sections;
    s->nsections = study_nsections;
    *out = s;
    if (!(s->state = calloc(s->nsections, sizeof *s->state)))
        return tells_error_nomem(err, NULL, 0);
    int rc = study_table_check(s->sections, s->nsections, err);
    if (rc == 0)
        rc = provenance_start(s, err);
    beside_run b = {0};
    unsigned have = 0;
    for (size_t i = 0; rc == 0 && i < s->nsections; i++) {
        const study_section *sec = s->sections[i];
        if (b.started && b.index == i)
            rc = join_beside(s, &b, err);
        else if (!(s->state[i] = calloc(1, sec->state_size ? sec->state_size : 1)))
            rc = tells_error_nomem(err, NULL, 0);
        else
            rc = timed(s, sec->name, sec->run, s->state[i], err);
        have |= sec->provides;
        /* --folds-only: the corpus and its folds, nothing more. */
        if (c->folds_only && (have & RES_EVALUATION))
            break;
        if (rc == 0)
            start_beside(s, i, have, &b);
    }
    /* Still running only when a section before its place failed: it is
       waited for (it reads the study being torn down), and that failure
       is the one reported. */
    if (b.started) {
        tells_error ignored;
        join_beside(s, &b, &ignored);
    }
    if (rc == 0 && !c->folds_only)
        rc = timed(s, "verdicts", run_verdicts, NULL, err);
    if (rc == 0 && !c->folds_only)
        rc = timed(s, "report", run_report, NULL, err);
    if (rc == 0)
        rc = provenance_write(s, err);
    if (rc == 0 && c->redact && !c->folds_only)
        rc = study_redaction_check(s, err);
    return rc;
}

void study_result_free(study_result *s)
{
    if (!s)
        return;
    for (size_t i = 0; s->state && i < s->nsections; i++) {
        if (s->state[i] && s->sections[i]->free)
            s->sections[i]->free(s->state[i]);
        free(s->state[i]);
    }
    free(s->state);
    free(s->prepared);
    if (s->all_loaded)
        dataset_free(&s->all);
    dataset_free(&s->data);
    free(s->class_order);
    free(s->data_pos);
    free(s->class_n);
    free(s->eval_row);
    ext_predictions_free(&s->given_cv);
    ext_predictions_free(&s->given_eval);
    ext_predictions_free(&s->pair_pred);
    ext_predictions_free(&s->null_pred);
    verdicts_free(&s->v);
    provenance_free(&s->run);
    redact_gate_free(s->gate);
    redact_key_free(&s->id_key);
    free(s);
}

const verdicts *study_verdicts(const study_result *s) { return &s->v; }
