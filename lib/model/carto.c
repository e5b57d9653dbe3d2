#include <config.h>
#include "model/carto.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yajl/yajl_tree.h>

#include "base/alloc.h"
#include "base/fields.h"
#include "base/idfile.h"
#include "base/lineio.h"
#include "base/number.h"

enum { FORMAT_NONE, FORMAT_JSON, FORMAT_TSV };

int carto_dynamics_init(carto_dynamics *d, tells_error *err)
{
    memset(d, 0, sizeof *d);
    d->ids = vocab_new();
    d->classes = vocab_new();
    if (!d->ids || !d->classes) {
        carto_dynamics_free(d);
        return tells_error_nomem(err, NULL, 0);
    }
    return 0;
}

void carto_dynamics_free(carto_dynamics *d)
{
    vocab_free(d->ids);
    vocab_free(d->classes);
    free(d->gold);
    for (size_t e = 0; e < d->epochs; e++) {
        free(d->p[e]);
        free(d->right[e]);
    }
    free(d->p);
    free(d->right);
    memset(d, 0, sizeof *d);
}

/* Room for epoch e (d->epochs) and, in the first epoch, example i. */
static int room(carto_dynamics *d, size_t i)
{
    size_t e = d->epochs;
    if (e == 0 && i >= d->cap) {
        size_t cap = array_capacity(d->cap, i + 1, 1024);
        size_t *gold = array_resize_zeroed(d->gold, d->cap, cap, sizeof *gold);
        if (!gold)
            return -1;
        d->gold = gold;
        double *p = array_resize_zeroed(d->p[0], d->cap, cap, sizeof *p);
        if (!p)
            return -1;
        d->p[0] = p;
        unsigned char *r = array_resize_zeroed(d->right[0], d->cap, cap, 1);
        if (!r)
            return -1;
        d->right[0] = r;
        d->cap = cap;
    }
    return 0;
}

static int start_epoch(carto_dynamics *d)
{
    size_t e = d->epochs, old = d->epoch_cap;
    if (ARRAY_RESERVE(d->p, d->epoch_cap, e + 1) < 0)
        return -1;
    size_t cap = old;
    if (ARRAY_RESERVE(d->right, cap, e + 1) < 0)
        return -1;
    d->p[e] = NULL;
    d->right[e] = NULL;
    if (e > 0) {
        d->p[e] = array_new(d->n, sizeof **d->p);
        d->right[e] = array_new(d->n, 1);
        if (!d->p[e] || !d->right[e]) {
            free(d->p[e]);
            free(d->right[e]);
            return -1;
        }
    }
    return 0;
}

/* One example of the epoch being read: its id, gold class and the
   probability of every class. */
typedef struct epoch_read {
    carto_dynamics *d;
    const char *file;
    long *line;            /* per example: its line in this file, 0 unseen */
    size_t line_cap;
    size_t seen;
} epoch_read;

static int record(epoch_read *er, long lineno, const char *id, size_t gold,
                  const double *prob, size_t k, tells_error *err)
{
    carto_dynamics *d = er->d;
    size_t e = d->epochs, i;
    if (e == 0) {
        size_t before = vocab_size(d->ids);
        long at = vocab_intern(d->ids, id, strlen(id));
        if (at < 0 || ARRAY_RESERVE(er->line, er->line_cap, (size_t)at + 1) < 0)
            return tells_error_nomem(err, er->file, lineno);
        i = (size_t)at;
        if (i < before)
            return tells_error_set(err, er->file, lineno, "duplicate id '%s' (first on line "
                                   "%ld)", id, er->line[i]);
        if (room(d, i) < 0)
            return tells_error_nomem(err, er->file, lineno);
        d->n = i + 1;
        d->gold[i] = gold;
    } else {
        long at = vocab_find(d->ids, id, strlen(id));
        if (at < 0)
            return tells_error_set(err, er->file, lineno, "id '%s' is not in the first "
                                   "epoch (%s): every epoch must hold the same examples",
                                   id, d->first_file);
        i = (size_t)at;
        if (er->line[i])
            return tells_error_set(err, er->file, lineno, "duplicate id '%s' (first on line "
                                   "%ld)", id, er->line[i]);
        if (d->gold[i] != gold)
            return tells_error_set(err, er->file, lineno, "gold label of '%s' differs from "
                                   "the first epoch's", id);
    }
    er->line[i] = lineno;
    er->seen++;
    size_t best = 0;
    for (size_t c = 1; c < k; c++)
        if (prob[c] > prob[best])
            best = c;
    d->p[e][i] = prob[gold];
    d->right[e][i] = best == gold;
    return 0;
}

/* ---- the cartography code's JSON lines ---- */

/* The keys of one line that matter: its id, logits and gold class. */
typedef struct json_fields {
    const char *id;          /* NULL: no guid, or not a string or an integer */
    char idbuf[64];          /* an integer guid's digits */
    yajl_val logits, gold;
    const char *logits_key;  /* "logits_epoch_K" */
    uint64_t epoch;          /* its K */
} json_fields;

/* The fields of the object v; -1 (with err set) when a key is repeated,
   a logits_epoch_K key is not one, or a second one comes. */
static int json_fields_read(epoch_read *er, yajl_val v, long lineno, json_fields *jf,
                            tells_error *err)
{
    bool have_guid = false;
    /* As tells-prep: a key read twice is an error, not the last one
       silently winning; so is a second logits_epoch_K key. */
    for (size_t j = 0; j < v->u.object.len; j++) {
        const char *key = v->u.object.keys[j];
        yajl_val val = v->u.object.values[j];
        if ((strcmp(key, "guid") == 0 && have_guid) || (strcmp(key, "gold") == 0 && jf->gold) ||
            (jf->logits_key && strcmp(key, jf->logits_key) == 0))
            return tells_error_set(err, er->file, lineno, "duplicate key '%s'", key);
        if (strcmp(key, "guid") == 0) {
            have_guid = true;
            if (YAJL_IS_STRING(val)) {
                jf->id = YAJL_GET_STRING(val);
            } else if (YAJL_IS_INTEGER(val)) {
                snprintf(jf->idbuf, sizeof jf->idbuf, "%lld", YAJL_GET_INTEGER(val));
                jf->id = jf->idbuf;
            }
        } else if (strcmp(key, "gold") == 0) {
            jf->gold = val;
        } else if (strncmp(key, "logits_epoch_", 13) == 0) {
            int nrc = number_u64(key + 13, NULL, CARTO_EPOCH_MAX, &jf->epoch);
            if (nrc == -2)
                return tells_error_set(err, er->file, lineno, "epoch of key '%s' is larger "
                                       "than %" PRIu64, key, (uint64_t)CARTO_EPOCH_MAX);
            if (nrc < 0)
                return tells_error_set(err, er->file, lineno, "malformed key '%s'", key);
            if (jf->logits_key)
                return tells_error_set(err, er->file, lineno, "two keys '%s' and '%s' (one "
                                       "epoch per file)", jf->logits_key, key);
            jf->logits_key = key;
            jf->logits = val;
        }
    }
    return 0;
}

/* The fields' checks: an id, a logits array, a gold class index, the
   epoch that comes next and, in the first line, the classes (one per
   logit, at least 2), then as many logits in every other line. */
static int json_fields_check(epoch_read *er, const json_fields *jf, long lineno,
                             tells_error *err)
{
    carto_dynamics *d = er->d;
    if (!jf->id || !*jf->id || strpbrk(jf->id, "\t\n"))
        return tells_error_set(err, er->file, lineno, "no \"guid\" (a string or an integer)");
    if (!jf->logits || !YAJL_IS_ARRAY(jf->logits))
        return tells_error_set(err, er->file, lineno, "no \"logits_epoch_K\" array");
    if (!jf->gold || !YAJL_IS_INTEGER(jf->gold))
        return tells_error_set(err, er->file, lineno, "no \"gold\" class index");
    if (d->epochs == 0 && vocab_size(d->ids) == 0)
        d->first_epoch = jf->epoch;
    /* No wraparound: the first epoch is at most CARTO_EPOCH_MAX. */
    uint64_t want = d->first_epoch + (uint64_t)d->epochs;
    if (jf->epoch != want)
        return tells_error_set(err, er->file, lineno, "logits_epoch_%" PRIu64 " where "
                               "logits_epoch_%" PRIu64 " was expected (is an epoch missing?)",
                               jf->epoch, want);
    size_t k = jf->logits->u.array.len;
    if (vocab_size(d->classes) == 0) {
        if (k < 2)
            return tells_error_set(err, er->file, lineno, "%zu logits: at least 2 classes "
                                   "needed", k);
        for (size_t c = 0; c < k; c++) {
            char name[32];
            snprintf(name, sizeof name, "%zu", c);
            if (vocab_intern(d->classes, name, strlen(name)) < 0)
                return tells_error_nomem(err, er->file, lineno);
        }
    } else if (k != vocab_size(d->classes)) {
        return tells_error_set(err, er->file, lineno, "%zu logits, expected %zu as in the "
                               "first line of %s", k, vocab_size(d->classes), d->first_file);
    }
    long long g = YAJL_GET_INTEGER(jf->gold);
    if (g < 0 || (size_t)g >= k)
        return tells_error_set(err, er->file, lineno, "gold label %lld is not a class index "
                               "below %zu", g, k);
    return 0;
}

/* The probabilities of the k classes (*prob, *pcap: room that grows),
   the softmax of the logits, which must be finite numbers. */
static int json_softmax(epoch_read *er, yajl_val logits, size_t k, long lineno, double **prob,
                        size_t *pcap, tells_error *err)
{
    if (ARRAY_RESERVE(*prob, *pcap, k) < 0)
        return tells_error_nomem(err, er->file, lineno);
    double *p = *prob, top = -INFINITY;
    for (size_t c = 0; c < k; c++) {
        yajl_val x = logits->u.array.values[c];
        if (!YAJL_IS_NUMBER(x) || !isfinite(YAJL_GET_DOUBLE(x)))
            return tells_error_set(err, er->file, lineno, "logit %zu is not a finite number",
                                   c);
        p[c] = YAJL_GET_DOUBLE(x);
        top = p[c] > top ? p[c] : top;
    }
    /* The softmax; the argmax of the probabilities is that of the logits. */
    double sum = 0;
    for (size_t c = 0; c < k; c++)
        sum += (p[c] = exp(p[c] - top));
    for (size_t c = 0; c < k; c++)
        p[c] /= sum;
    return 0;
}

static int json_line(epoch_read *er, char *line, long lineno, double **prob, size_t *pcap,
                     tells_error *err)
{
    char errbuf[256];
    yajl_val v = yajl_tree_parse(line, errbuf, sizeof errbuf);
    if (!v) {
        if (strstr(line, "NaN") || strstr(line, "Infinity"))
            return tells_error_set(err, er->file, lineno, "non-finite logit (NaN or "
                                   "Infinity)");
        char *nl = strchr(errbuf, '\n');
        if (nl)
            *nl = '\0';
        return tells_error_set(err, er->file, lineno, "invalid JSON: %s", errbuf);
    }
    json_fields jf = {0};
    int rc = YAJL_IS_OBJECT(v) ? json_fields_read(er, v, lineno, &jf, err)
                               : tells_error_set(err, er->file, lineno, "not a JSON object");
    if (rc == 0)
        rc = json_fields_check(er, &jf, lineno, err);
    if (rc == 0) {
        size_t k = jf.logits->u.array.len;
        rc = json_softmax(er, jf.logits, k, lineno, prob, pcap, err);
        if (rc == 0)
            rc = record(er, lineno, jf.id, (size_t)YAJL_GET_INTEGER(jf.gold), *prob, k, err);
    }
    yajl_tree_free(v);
    return rc;
}

/* ---- tells predictions TSV ---- */

typedef struct tsv_header {
    long id_col, gold_col;
    size_t *pcol;          /* column of each class's probability */
    size_t ncols;
} tsv_header;

static int tsv_parse_header(epoch_read *er, char *line, size_t len, tsv_header *h,
                            tells_error *err)
{
    carto_dynamics *d = er->d;
    if (header_line_check(line, len, er->file, 1, err) < 0)
        return -1;
    tab_row row = {0};
    if (tab_row_split(&row, line, len, er->file, 1, err) < 0)
        return -1;
    h->id_col = h->gold_col = -1;
    h->ncols = row.n;
    h->pcol = array_new(row.n, sizeof *h->pcol);
    size_t k = 0;
    int rc = h->pcol ? 0 : tells_error_nomem(err, er->file, 1);
    bool first = vocab_size(d->classes) == 0;
    for (size_t j = 0; rc == 0 && j < row.n; j++) {
        const char *name = row.field[j];
        if (strcmp(name, "id") == 0) {
            h->id_col = (long)j;
        } else if (strcmp(name, "gold") == 0) {
            h->gold_col = (long)j;
        } else if (strncmp(name, "p_", 2) == 0 && name[2]) {
            if (first && vocab_intern(d->classes, name + 2, strlen(name + 2)) < 0)
                rc = tells_error_nomem(err, er->file, 1);
            else if (!first && (k >= vocab_size(d->classes) ||
                                strcmp(vocab_str(d->classes, k), name + 2) != 0))
                rc = tells_error_set(err, er->file, 1, "the classes (p_ columns) differ "
                                     "from those of %s", d->first_file);
            h->pcol[k++] = j;
        }
    }
    if (rc == 0 && (h->id_col < 0 || h->gold_col < 0))
        rc = tells_error_set(err, er->file, 1, "not training dynamics: the header needs "
                             "columns id, gold and p_CLASS for each class");
    if (rc == 0 && k < 2 && first)
        rc = tells_error_set(err, er->file, 1, "%zu p_ columns: at least 2 classes needed",
                             k);
    if (rc == 0 && k != vocab_size(d->classes))
        rc = tells_error_set(err, er->file, 1, "the classes (p_ columns) differ from those "
                             "of %s", d->first_file);
    tab_row_free(&row);
    return rc;
}

static int tsv_line(epoch_read *er, const tsv_header *h, char *line, size_t len,
                    long lineno, tab_row *row, double **prob, size_t *pcap, tells_error *err)
{
    carto_dynamics *d = er->d;
    if (text_line_check(line, len, er->file, lineno, err) < 0 ||
        tab_row_split(row, line, len, er->file, lineno, err) < 0)
        return -1;
    if (row->n != h->ncols)
        return tab_columns_error(err, er->file, lineno, h->ncols, row->n, NULL);
    size_t k = vocab_size(d->classes);
    const char *id = row->field[h->id_col], *gold = row->field[h->gold_col];
    if (!*id)
        return tells_error_set(err, er->file, lineno, "empty id");
    long g = vocab_find(d->classes, gold, strlen(gold));
    if (g < 0)
        return tells_error_set(err, er->file, lineno, "unknown gold label '%s' (no p_%s "
                               "column)", gold, gold);
    if (ARRAY_RESERVE(*prob, *pcap, k) < 0)
        return tells_error_nomem(err, er->file, lineno);
    for (size_t c = 0; c < k; c++) {
        const char *s = row->field[h->pcol[c]];
        if (prob_parse(s, &(*prob)[c]) < 0)
            return tells_error_set(err, er->file, lineno, "invalid probability '%s' for "
                                   "class %s (expected a number from 0 to 1)", s,
                                   vocab_str(d->classes, c));
    }
    char msg[128];
    if (prob_check(*prob, k, msg, sizeof msg) < 0)
        return tells_error_set(err, er->file, lineno, "%s", msg);
    return record(er, lineno, id, (size_t)g, *prob, k, err);
}

int carto_read_epoch(carto_dynamics *d, const char *path, tells_error *err)
{
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0)
        return -1;
    epoch_read er = {.d = d, .file = r.name};
    if (d->epochs > 0 && !(er.line = array_new(d->n, sizeof *er.line))) {
        line_reader_close(&r);
        return tells_error_nomem(err, r.name, 0);
    }
    if (d->epochs == 0)
        snprintf(d->first_file, sizeof d->first_file, "%s", r.name);
    int rc = start_epoch(d) < 0 ? tells_error_nomem(err, r.name, 0) : 0;
    bool started = rc == 0;
    tsv_header h = {0};
    tab_row row = {0};
    double *prob = NULL;
    size_t pcap = 0;
    char *line;
    size_t len;
    int format = FORMAT_NONE, got;
    while (rc == 0 && (got = line_reader_next(&r, &line, &len, err)) == 1) {
        if (len == 0)
            continue;
        if (format == FORMAT_NONE) {
            format = line[0] == '{' ? FORMAT_JSON : FORMAT_TSV;
            if (d->format && format != d->format) {
                rc = tells_error_set(err, r.name, r.lineno, "not in the format of the first "
                                     "epoch (%s)", d->first_file);
                break;
            }
            if (format == FORMAT_TSV) {
                rc = tsv_parse_header(&er, line, len, &h, err);
                continue;
            }
        }
        if (format == FORMAT_JSON) {
            if (text_line_check(line, len, r.name, r.lineno, err) < 0)
                rc = -1;
            else
                rc = json_line(&er, line, r.lineno, &prob, &pcap, err);
        } else {
            rc = tsv_line(&er, &h, line, len, r.lineno, &row, &prob, &pcap, err);
        }
    }
    if (rc == 0 && got < 0)
        rc = -1;
    if (rc == 0 && er.seen == 0)
        rc = tells_error_set(err, r.name, 0, "no examples");
    if (rc == 0 && d->epochs > 0 && er.seen < d->n) {
        size_t i = 0;
        while (er.line[i])
            i++;
        size_t missing = d->n - er.seen;
        rc = tells_error_set(err, r.name, 0, "%zu example%s of the first epoch (%s) %s "
                             "missing, the first '%s': every epoch must hold the same "
                             "examples", missing, missing == 1 ? "" : "s", d->first_file,
                             missing == 1 ? "is" : "are", vocab_str(d->ids, i));
    }
    if (started)
        d->epochs++;   /* its arrays belong to d now, freed with it */
    if (rc == 0)
        d->format = format;
    free(er.line);
    free(h.pcol);
    tab_row_free(&row);
    free(prob);
    line_reader_close(&r);
    return rc;
}

/* ---- the statistics ---- */

void carto_stats_free(carto_stats *s)
{
    free(s->confidence);
    free(s->variability);
    free(s->correctness);
    free(s->forgetfulness);
    memset(s, 0, sizeof *s);
}

int carto_compute(const carto_dynamics *d, carto_stats *s, tells_error *err)
{
    memset(s, 0, sizeof *s);
    size_t n = d->n, E = d->epochs;
    s->confidence = array_new(n, sizeof *s->confidence);
    s->variability = array_new(n, sizeof *s->variability);
    s->correctness = array_new(n, sizeof *s->correctness);
    s->forgetfulness = array_new(n, sizeof *s->forgetfulness);
    if (!s->confidence || !s->variability || !s->correctness || !s->forgetfulness) {
        carto_stats_free(s);
        return tells_error_nomem(err, NULL, 0);
    }
    for (size_t i = 0; i < n; i++) {
        double sum = 0, ss = 0;
        unsigned right = 0, forgot = 0;
        for (size_t e = 0; e < E; e++) {
            sum += d->p[e][i];
            right += d->right[e][i];
            forgot += e > 0 && d->right[e - 1][i] && !d->right[e][i];
        }
        double mean = sum / (double)E;
        for (size_t e = 0; e < E; e++)
            ss += (d->p[e][i] - mean) * (d->p[e][i] - mean);
        s->confidence[i] = mean;
        s->variability[i] = sqrt(ss / (double)E);
        s->correctness[i] = (double)right / (double)E;
        s->forgetfulness[i] = forgot;
    }
    return 0;
}

static double show(double x)
{
    return fabs(x) < 5e-7 ? 0.0 : x;
}

int carto_write_table(FILE *fp, const carto_dynamics *d, const carto_stats *s)
{
    fputs("id\tgold\tconfidence\tvariability\tcorrectness\tforgetfulness\n", fp);
    for (size_t i = 0; i < d->n; i++)
        fprintf(fp, "%s\t%s\t%.6f\t%.6f\t%.6f\t%u\n", vocab_str(d->ids, i),
                vocab_str(d->classes, d->gold[i]), show(s->confidence[i]),
                show(s->variability[i]), show(s->correctness[i]), s->forgetfulness[i]);
    return ferror(fp) ? -1 : 0;
}

typedef struct region_sort {
    const double *key;
    const vocab *ids;
} region_sort;

/* key descending, ties by id in byte order (ids are distinct): an order
   that does not depend on the order of the rows. */
static int cmp_region(const void *a, const void *b, void *arg)
{
    const region_sort *rs = arg;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    double kx = rs->key[x], ky = rs->key[y];
    if (kx != ky)
        return kx > ky ? -1 : 1;
    return strcmp(vocab_str(rs->ids, x), vocab_str(rs->ids, y));
}

size_t carto_region_size(double fraction, size_t n)
{
    double take = floor(fraction * (double)n) + 1;
    return take >= (double)n ? n : (size_t)take;
}

int carto_regions(const carto_dynamics *d, const carto_stats *s, double fraction,
                  carto_region *region, tells_error *err)
{
    size_t n = d->n;
    size_t *order = array_new(n, sizeof *order);
    if (!order)
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    region_sort rs = {s->variability, d->ids};
    qsort_r(order, n, sizeof *order, cmp_region, &rs);
    size_t amb = carto_region_size(fraction, n);
    for (size_t j = 0; j < n; j++)
        region[order[j]] = j < amb ? CARTO_AMBIGUOUS : CARTO_HARD;
    /* The others by confidence: the upper half (the larger when odd)
       easy-to-learn, the rest hard-to-learn. */
    size_t rest = 0;
    for (size_t i = 0; i < n; i++)
        if (region[i] != CARTO_AMBIGUOUS)
            order[rest++] = i;
    rs.key = s->confidence;
    qsort_r(order, rest, sizeof *order, cmp_region, &rs);
    for (size_t j = 0; j < (rest + 1) / 2; j++)
        region[order[j]] = CARTO_EASY;
    free(order);
    return 0;
}

size_t carto_select(const carto_dynamics *d, const carto_stats *s, carto_region region,
                    double fraction, unsigned char *in, tells_error *err)
{
    carto_region *of = array_new(d->n, sizeof *of);
    if (!of) {
        tells_error_nomem(err, NULL, 0);
        return (size_t)-1;
    }
    if (carto_regions(d, s, fraction, of, err) < 0) {
        free(of);
        return (size_t)-1;
    }
    size_t k = 0;
    for (size_t i = 0; i < d->n; i++) {
        in[i] = of[i] == region;
        k += in[i];
    }
    free(of);
    return k;
}

int carto_write_ids(const char *path, const carto_dynamics *d, const carto_stats *s,
                    carto_region region, double fraction, tells_error *err)
{
    unsigned char *in = array_new(d->n, 1);
    const char **ids = array_new(d->n, sizeof *ids);
    if (!in || !ids) {
        free(in);
        free(ids);
        return tells_error_nomem(err, NULL, 0);
    }
    int rc = 0;
    if (carto_select(d, s, region, fraction, in, err) == (size_t)-1)
        rc = -1;
    size_t k = 0;
    for (size_t i = 0; rc == 0 && i < d->n; i++)
        if (in[i])
            ids[k++] = vocab_str(d->ids, i);
    if (rc == 0)
        rc = idfile_write(path, ids, k, err);
    free(in);
    free(ids);
    return rc;
}

/* ---- the training ---- */

void carto_train_options_default(carto_train_options *o)
{
    o->epochs = 6;
    o->batch = 32;
    o->lr = 0.1;
    o->seed = 0;
}

/* Probabilities of the K classes for one row: softmax(W x + b). */
static void forward(const double *W, const double *b, const double *x, size_t dim, size_t K,
                    double *p)
{
    double top = -INFINITY;
    for (size_t c = 0; c < K; c++) {
        double z = b[c];
        const double *w = W + c * dim;
        for (size_t j = 0; j < dim; j++)
            z += w[j] * x[j];
        p[c] = z;
        top = z > top ? z : top;
    }
    double sum = 0;
    for (size_t c = 0; c < K; c++)
        sum += (p[c] = exp(p[c] - top));
    for (size_t c = 0; c < K; c++)
        p[c] /= sum;
}

int carto_train(const dataset *ds, const float *x, size_t dim, const carto_train_options *o,
                carto_dynamics *d, tells_error *err)
{
    size_t n = ds->n, K = vocab_size(ds->labels), E = o->epochs;
    if (n == 0)
        return tells_error_set(err, ds->source, 0, "no examples in the input");
    if (K < 2)
        return tells_error_set(err, ds->source, 0, "one class only ('%s'): nothing to learn",
                               vocab_str(ds->labels, 0));
    size_t *order = vocab_sorted_ids(ds->labels);
    /* The rows by id, shuffled from there each epoch, and summed in that
       order: the same run for any order of the input's rows. */
    size_t *rank = array_new(K, sizeof *rank), *perm = dataset_rows_by_id(ds, NULL, n);
    double *z = n && dim > SIZE_MAX / n / sizeof(double) ? NULL
                                                         : array_new(n * dim, sizeof *z);
    double *W = array_new(K * dim, sizeof *W), *b = array_new(K, sizeof *b);
    double *G = array_new(K * dim, sizeof *G), *gb = array_new(K, sizeof *gb);
    double *p = array_new(K, sizeof *p);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    int rc = order && rank && perm && z && W && b && G && gb && p && rng
                 ? 0 : tells_error_nomem(err, NULL, 0);
    /* Classes in byte order of their names, as the dynamics' ids. */
    for (size_t c = 0; rc == 0 && c < K; c++) {
        rank[order[c]] = c;
        const char *name = vocab_str(ds->labels, order[c]);
        if (vocab_intern(d->classes, name, strlen(name)) < 0)
            rc = tells_error_nomem(err, NULL, 0);
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (vocab_intern(d->ids, ds->ex[i].id, strlen(ds->ex[i].id)) < 0)
            rc = tells_error_nomem(err, NULL, 0);
    }
    if (rc == 0 && !(d->gold = array_new(n, sizeof *d->gold)))
        rc = tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; rc == 0 && i < n; i++)
        d->gold[i] = rank[ds->ex[i].label];
    d->n = n;
    /* Standardised columns: the same step size suits features of any
       scale (a constant column stays 0). */
    for (size_t j = 0; rc == 0 && j < dim; j++) {
        double m = 0, v = 0;
        for (size_t q = 0; q < n; q++)
            m += x[perm[q] * dim + j];
        m /= (double)n;
        for (size_t q = 0; q < n; q++)
            v += (x[perm[q] * dim + j] - m) * (x[perm[q] * dim + j] - m);
        double sd = sqrt(v / (double)n);
        for (size_t i = 0; i < n; i++)
            z[i * dim + j] = sd > 0 ? (x[i * dim + j] - m) / sd : 0.0;
    }
    if (rc == 0)
        gsl_rng_set(rng, o->seed);
    for (size_t e = 0; rc == 0 && e < E; e++) {
        gsl_ran_shuffle(rng, perm, n, sizeof *perm);
        for (size_t start = 0; start < n; start += o->batch) {
            size_t end = start + o->batch < n ? start + o->batch : n;
            memset(G, 0, K * dim * sizeof *G);
            memset(gb, 0, K * sizeof *gb);
            for (size_t q = start; q < end; q++) {
                size_t i = perm[q];
                const double *xi = z + i * dim;
                forward(W, b, xi, dim, K, p);
                p[d->gold[i]] -= 1.0;
                for (size_t c = 0; c < K; c++) {
                    double *g = G + c * dim;
                    for (size_t j = 0; j < dim; j++)
                        g[j] += p[c] * xi[j];
                    gb[c] += p[c];
                }
            }
            double step = o->lr / (double)(end - start);
            for (size_t t = 0; t < K * dim; t++)
                W[t] -= step * G[t];
            for (size_t c = 0; c < K; c++)
                b[c] -= step * gb[c];
        }
        /* The epoch's dynamics: every example, after the epoch. */
        /* start_epoch leaves the first epoch's arrays to the reader. */
        if (start_epoch(d) < 0) {
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        d->epochs = e + 1;
        if (!d->p[e])
            d->p[e] = array_new(n, sizeof **d->p);
        if (!d->right[e])
            d->right[e] = array_new(n, 1);
        if (!d->p[e] || !d->right[e]) {
            rc = tells_error_nomem(err, NULL, 0);
            break;
        }
        for (size_t i = 0; i < n; i++) {
            forward(W, b, z + i * dim, dim, K, p);
            size_t best = 0;
            for (size_t c = 1; c < K; c++)
                if (p[c] > p[best])
                    best = c;
            d->p[e][i] = p[d->gold[i]];
            d->right[e][i] = best == d->gold[i];
        }
    }
    d->format = FORMAT_TSV;
    free(order);
    free(rank);
    free(perm);
    free(z);
    free(W);
    free(b);
    free(G);
    free(gb);
    free(p);
    if (rng)
        gsl_rng_free(rng);
    return rc;
}

/* ---- a training run's folder ---- */

typedef struct epoch_file {
    char *path;
    uint64_t number;
} epoch_file;

static int by_number(const void *a, const void *b)
{
    const epoch_file *x = a, *y = b;
    return (x->number > y->number) - (x->number < y->number);
}

/* The last run of digits in name (at most 19 of them), or -1. */
static int last_number(const char *name, uint64_t *out)
{
    const char *end = NULL;
    for (const char *p = name; *p; p++)
        if (*p >= '0' && *p <= '9' && !(p[1] >= '0' && p[1] <= '9'))
            end = p + 1;
    if (!end)
        return -1;
    const char *start = end;
    while (start > name && start[-1] >= '0' && start[-1] <= '9')
        start--;
    if (end - start > 19)
        return -1;
    uint64_t v = 0;
    for (const char *p = start; p < end; p++)
        v = v * 10 + (uint64_t)(*p - '0');
    *out = v;
    return 0;
}

void carto_epoch_files_free(char **paths, size_t n)
{
    for (size_t i = 0; paths && i < n; i++)
        free(paths[i]);
    free(paths);
}

int carto_epoch_files(const char *dir, char ***paths, size_t *n, tells_error *err)
{
    *paths = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return tells_error_io(err, dir, 0, "cannot open the folder: %s", strerror(errno));
    epoch_file *f = NULL;
    size_t nf = 0, cap = 0;
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        size_t len = strlen(dir) + strlen(de->d_name) + 2;
        char *path = malloc(len);
        struct stat st;
        if (!path) {
            rc = tells_error_nomem(err, dir, 0);
            break;
        }
        snprintf(path, len, "%s/%s", dir, de->d_name);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
            free(path);
            continue;
        }
        uint64_t num;
        if (last_number(de->d_name, &num) < 0) {
            rc = tells_error_set(err, dir, 0, "'%s' has no epoch number in its name (one file "
                                 "per epoch, such as dynamics_epoch_3.jsonl)", de->d_name);
            free(path);
        } else if (ARRAY_RESERVE(f, cap, nf + 1) < 0) {
            rc = tells_error_nomem(err, dir, 0);
            free(path);
        } else
            f[nf++] = (epoch_file){path, num};
    }
    closedir(d);
    if (rc == 0 && nf == 0)
        rc = tells_error_set(err, dir, 0, "no epoch files in the folder");
    if (rc == 0) {
        qsort(f, nf, sizeof *f, by_number);
        for (size_t i = 1; rc == 0 && i < nf; i++)
            if (f[i].number == f[i - 1].number) {
                const char *a = strrchr(f[i - 1].path, '/') + 1, *b = strrchr(f[i].path, '/') + 1;
                /* Named in byte order, whatever readdir gave. */
                rc = tells_error_set(err, dir, 0, "'%s' and '%s' have the same epoch number "
                                     "(%" PRIu64 ")", strcmp(a, b) < 0 ? a : b,
                                     strcmp(a, b) < 0 ? b : a, f[i].number);
            }
    }
    char **out = rc == 0 ? array_new(nf, sizeof *out) : NULL;
    if (rc == 0 && !out)
        rc = tells_error_nomem(err, dir, 0);
    for (size_t i = 0; i < nf; i++) {
        if (rc == 0)
            out[i] = f[i].path;
        else
            free(f[i].path);
    }
    free(f);
    if (rc < 0)
        return -1;
    *paths = out;
    *n = nf;
    return 0;
}
