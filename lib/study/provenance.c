/* run.json: how a study was made, so that it can be made again and a
   reader can tell which corpus and which versions gave its numbers. */
#include <config.h>
#include "study/provenance.h"
#include "model/carto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_version.h>
#include <nettle/sha2.h>
#include <yajl/yajl_gen.h>

#include "base/outfile.h"
#include "study/core.h"
#include "study/page.h"
#include "study/sec-vectors.h"

/* OpenBLAS's own description ("OpenBLAS 0.3.21 DYNAMIC_ARCH ..."). */
extern char *openblas_get_config(void);

static double wall_now(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

static void iso_time(double t, char *buf, size_t size)
{
    time_t sec = (time_t)t;
    struct tm tm;
    gmtime_r(&sec, &tm);
    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Size and SHA-256 of the file at path; "-" is standard input, not read. */
static int hash_file(run_input *in, tells_error *err)
{
    in->bytes = -1;
    in->sha256[0] = '\0';
    if (strcmp(in->path, "-") == 0)
        return 0;
    FILE *fp = fopen(in->path, "rb");
    if (!fp)
        return tells_error_io(err, in->path, 0, "cannot open: %s", strerror(errno));
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    unsigned char buf[1 << 16];
    size_t n;
    long long bytes = 0;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0) {
        sha256_update(&ctx, n, buf);
        bytes += (long long)n;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad)
        return tells_error_io(err, in->path, 0, "read error");
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_digest(&ctx, sizeof d, d);
    for (size_t i = 0; i < sizeof d; i++)
        sprintf(in->sha256 + 2 * i, "%02x", d[i]);
    in->bytes = bytes;
    return 0;
}

/* Redacted, only a file's name is recorded: the folder shared does not
   tell where the corpus lives. */
static int add_input(run_record *r, const char *option, const char *path, tells_error *err)
{
    if (!path)
        return 0;
    run_input *grown = realloc(r->inputs, (r->ninputs + 1) * sizeof *grown);
    if (!grown)
        return tells_error_nomem(err, NULL, 0);
    r->inputs = grown;
    run_input *in = &r->inputs[r->ninputs];
    memset(in, 0, sizeof *in);
    snprintf(in->option, sizeof in->option, "%s", option);
    if (!(in->path = strdup(path)))
        return tells_error_nomem(err, NULL, 0);
    r->ninputs++;
    if (hash_file(in, err) < 0)
        return -1;
    const char *base = strrchr(in->path, '/');
    if (r->names_only && base && base[1])
        memmove(in->path, base + 1, strlen(base + 1) + 1);
    return 0;
}

int provenance_start(study *s, tells_error *err)
{
    run_record *r = &s->run;
    const study_config *c = s->cfg;
    r->started = wall_now();
    iso_time(r->started, r->started_text, sizeof r->started_text);
    char cwd[4096];
    r->names_only = c->redact;
    if (!(r->cwd = strdup(!c->redact && getcwd(cwd, sizeof cwd) ? cwd : "")))
        return tells_error_nomem(err, NULL, 0);
    int rc = add_input(r, "corpus", c->prepared, err);
    for (size_t i = 0; rc == 0 && i < c->ninputs; i++) {
        char opt[24];
        snprintf(opt, sizeof opt, "split %.17s", c->inputs[i].split);
        rc = add_input(r, opt, c->inputs[i].path, err);
    }
    for (size_t i = 0; rc == 0 && i < c->nbatches; i++)
        rc = add_input(r, "batch", c->batches[i], err);
    for (size_t i = 0; rc == 0 && i < c->nphrase_files; i++)
        rc = add_input(r, "phrases", c->phrase_files[i], err);
    if (rc == 0)
        rc = add_input(r, "mesh", c->mesh_terms, err);
    if (rc == 0)
        rc = add_input(r, "vectors", c->vectors, err);
    if (rc == 0)
        rc = add_input(r, "mesh tree", c->heur.mesh, err);
    if (rc == 0)
        rc = add_input(r, "mesh terms", c->heur.terms, err);
    for (size_t i = 0; rc == 0 && i < c->heur.nsynonyms; i++)
        rc = add_input(r, "synonyms", c->heur.synonyms[i], err);
    if (rc == 0)
        rc = add_input(r, "heuristics", c->heur.builtin, err);
    for (size_t i = 0; rc == 0 && i < c->heur.ndefinitions; i++)
        rc = add_input(r, "heuristics", c->heur.definitions[i], err);
    /* The negation cues, and models trained elsewhere: their
       predictions, embeddings and runs. */
    const struct {
        const char *option, *path;
    } more[] = {
        {"negation", c->negation},
        {"hypothesis-predictions", c->hypothesis_predictions},
        {"hypothesis-eval-predictions", c->hypothesis_eval_predictions},
        {"pair-predictions", c->pair_predictions},
        {"null-predictions", c->null_predictions},
        {"embeddings", c->embeddings},
        {"embeddings-ids", c->embeddings_ids},
    };
    for (size_t i = 0; rc == 0 && i < sizeof more / sizeof *more; i++)
        rc = add_input(r, more[i].option, more[i].path, err);
    char **epochs = NULL;
    size_t nepochs = 0;
    if (rc == 0 && c->dynamics)
        rc = carto_epoch_files(c->dynamics, &epochs, &nepochs, err);
    for (size_t i = 0; rc == 0 && i < nepochs; i++)
        rc = add_input(r, "dynamics", epochs[i], err);
    carto_epoch_files_free(epochs, nepochs);
    return rc;
}

/* OpenBLAS's version: the second word of its configuration. */
static void openblas_version(char *buf, size_t size)
{
    const char *cfg = openblas_get_config();
    const char *sp = cfg ? strchr(cfg, ' ') : NULL;
    size_t n = sp ? strcspn(sp + 1, " ") : 0;
    snprintf(buf, size, "%.*s", (int)n, sp ? sp + 1 : "");
}

/* gnuplot's version as it printed it first in figures/gnuplot.log
   (study/figure.c asks it to), or "" without figures. */
static void gnuplot_version(const study *s, char *buf, size_t size)
{
    buf[0] = '\0';
    char *log = study_path(s, "figures/gnuplot.log", NULL);
    FILE *fp = log ? fopen(log, "r") : NULL;
    char line[256];
    if (fp && fgets(line, sizeof line, fp) && strncmp(line, "gnuplot ", 8) == 0) {
        line[strcspn(line, "\r\n")] = '\0';
        snprintf(buf, size, "%.100s", line + 8);
    }
    if (fp)
        fclose(fp);
    free(log);
}

void provenance_footer(const study *s, FILE *fp)
{
    const run_record *r = &s->run;
    const study_config *c = s->cfg;
    char blas[64];
    openblas_version(blas, sizeof blas);
    fprintf(fp, "<h2 id=\"provenance\">How this study was made</h2>\n<p>tells %s, ",
            PACKAGE_VERSION);
    if (c->command) {
        fputs("command <code>", fp);
        html_escape(fp, c->command);
        fputs("</code>", fp);
        if (*r->cwd) {
            fputs(" in <code>", fp);
            html_escape(fp, r->cwd);
            fputs("</code>", fp);
        }
        fputs(", ", fp);
    }
    fprintf(fp, "seed %lu, %d thread%s, started %s. ", c->seed, c->threads,
            c->threads == 1 ? "" : "s", r->started_text);
    const vectors_state *v = study_vectors(s);
    if (v && v->centres)
        fprintf(fp, "Word vectors: skipgram, %d epoch%s; %s, %.1f%% of the text's tokens. ",
                v->epochs, v->epochs == 1 ? "" : "s",
                strcmp(v->centres, "all") == 0 ? "every word trained, the hypotheses' words"
                                               : "only the hypotheses' words trained",
                100 * v->hypothesis_share);
    fprintf(fp, "Libraries: fastText %s, OpenBLAS %s, GSL %s. run.json in this folder "
            "records the same, with the end time, each step's seconds and gnuplot's "
            "version.</p>\n", TELLS_FASTTEXT_VERSION, blas, gsl_version);
    if (r->ninputs) {
        fputs("<table>\n<tr><th>input</th><th>file</th><th>bytes</th><th>SHA-256</th></tr>\n",
              fp);
        for (size_t i = 0; i < r->ninputs; i++) {
            fputs("<tr>", fp);
            page_cell_text(fp, r->inputs[i].option);
            page_cell_text(fp, r->inputs[i].path);
            if (r->inputs[i].bytes >= 0)
                fprintf(fp, "<td class=\"n\">%lld</td>", r->inputs[i].bytes);
            else
                fputs("<td>-</td>", fp);
            fputs("<td><code>", fp);
            fputs(r->inputs[i].sha256[0] ? r->inputs[i].sha256 : "-", fp);
            fputs("</code></td></tr>\n", fp);
        }
        fputs("</table>\n", fp);
    }
}

/* yajl_gen helpers: a key and a string, a key and a number as text. */
static void put_str(yajl_gen g, const char *key, const char *value)
{
    if (key)
        yajl_gen_string(g, (const unsigned char *)key, strlen(key));
    if (value && yajl_gen_string(g, (const unsigned char *)value, strlen(value)) ==
                     yajl_gen_invalid_string)
        put_str(g, NULL, "(not valid UTF-8)");
    else if (!value)
        yajl_gen_null(g);
}

static void put_num(yajl_gen g, const char *key, const char *fmt, double x)
{
    char buf[64];
    snprintf(buf, sizeof buf, fmt, x);
    yajl_gen_string(g, (const unsigned char *)key, strlen(key));
    yajl_gen_number(g, buf, strlen(buf));
}

/* The generator's text, as yajl_gen_get_buf gives it. */
typedef struct json_text {
    const unsigned char *buf;
    size_t len;
} json_text;

static int write_json(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    const json_text *j = ctx;
    return fwrite(j->buf, 1, j->len, fp) == j->len ? 0 : -1;
}

int provenance_write(study *s, tells_error *err)
{
    const run_record *r = &s->run;
    const study_config *c = s->cfg;
    double ended = wall_now();
    char ended_text[32], blas[64], gnuplot[128];
    iso_time(ended, ended_text, sizeof ended_text);
    openblas_version(blas, sizeof blas);
    gnuplot_version(s, gnuplot, sizeof gnuplot);
    yajl_gen g = yajl_gen_alloc(NULL);
    if (!g)
        return tells_error_nomem(err, NULL, 0);
    yajl_gen_config(g, yajl_gen_beautify, 1);
    yajl_gen_config(g, yajl_gen_validate_utf8, 1);
    yajl_gen_map_open(g);
    put_str(g, "tells", PACKAGE_VERSION);
    put_str(g, "command", c->command);
    put_str(g, "cwd", *r->cwd ? r->cwd : NULL);
    put_str(g, "corpus", s->name);
    put_num(g, "seed", "%.0f", (double)c->seed);
    put_num(g, "threads", "%.0f", (double)c->threads);
    /* --redact: what the folder leaves out (README, "Sharing a study"). */
    yajl_gen_string(g, (const unsigned char *)"redacted", 8);
    if (c->redact) {
        yajl_gen_map_open(g);
        put_num(g, "min_examples", "%.0f", (double)c->min_examples);
        put_num(g, "ngram", "%.0f", (double)REDACT_NGRAM);
        yajl_gen_string(g, (const unsigned char *)"keyed_ids", 9);
        yajl_gen_bool(g, c->id_key != NULL);
        yajl_gen_map_close(g);
    } else {
        yajl_gen_bool(g, 0);
    }
    put_str(g, "started", r->started_text);
    put_str(g, "ended", ended_text);
    put_num(g, "seconds", "%.3f", ended - r->started);
    yajl_gen_string(g, (const unsigned char *)"inputs", 6);
    yajl_gen_array_open(g);
    for (size_t i = 0; i < r->ninputs; i++) {
        const run_input *in = &r->inputs[i];
        yajl_gen_map_open(g);
        put_str(g, "option", in->option);
        put_str(g, "path", in->path);
        if (in->bytes >= 0) {
            put_num(g, "bytes", "%.0f", (double)in->bytes);
            put_str(g, "sha256", in->sha256);
        }
        yajl_gen_map_close(g);
    }
    yajl_gen_array_close(g);
    yajl_gen_string(g, (const unsigned char *)"steps", 5);
    yajl_gen_array_open(g);
    for (size_t i = 0; i < s->nsteps; i++) {
        yajl_gen_map_open(g);
        put_str(g, "step", s->step[i].name);
        put_num(g, "seconds", "%.3f", s->step[i].seconds);
        yajl_gen_map_close(g);
    }
    yajl_gen_array_close(g);
    /* How the study's own vectors were trained (man tells-study, WORD
       VECTORS): none with --vectors or --embeddings. */
    const vectors_state *v = study_vectors(s);
    if (v && v->centres) {
        yajl_gen_string(g, (const unsigned char *)"vectors", 7);
        yajl_gen_map_open(g);
        put_num(g, "epochs", "%.0f", (double)v->epochs);
        put_str(g, "centres", v->centres);
        put_num(g, "hypothesis_token_share", "%.4f", v->hypothesis_share);
        yajl_gen_map_close(g);
    }
    yajl_gen_string(g, (const unsigned char *)"libraries", 9);
    yajl_gen_map_open(g);
    put_str(g, "fasttext", TELLS_FASTTEXT_VERSION);
    put_str(g, "openblas", blas);
    put_str(g, "gsl", gsl_version);
    put_str(g, "gnuplot", gnuplot[0] ? gnuplot : NULL);
    yajl_gen_map_close(g);
    yajl_gen_map_close(g);
    json_text j;
    int rc = yajl_gen_get_buf(g, &j.buf, &j.len) != yajl_gen_status_ok
                 ? tells_error_set(err, NULL, 0, "run.json: a path or name is not valid UTF-8")
                 : study_write(s, "run.json", write_json, &j, err);
    yajl_gen_free(g);
    return rc;
}

void provenance_free(run_record *r)
{
    for (size_t i = 0; i < r->ninputs; i++)
        free(r->inputs[i].path);
    free(r->inputs);
    free(r->cwd);
    memset(r, 0, sizeof *r);
}
