#include <config.h>
#include "text/prep.h"
#include "text/redact.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/lineio.h"
#include "base/outfile.h"
#include "base/prepared.h"
#include "base/vocab.h"
#include "text/mesh.h"

/* A text's tokens before and after phrase merging. */
typedef struct text_tokens {
    token_list raw, merged;
} text_tokens;

/* Where an id was first seen, to name both places in a duplicate error. */
typedef struct id_origin {
    size_t input;
    long line;
} id_origin;

typedef struct prep_state {
    const prep_options *opt;
    const prep_input *inputs;
    vocab *ids;
    id_origin *origin;
    size_t origin_cap;
    vocab *split_names;
    long *split_pos;          /* next positional index of each split */
    size_t split_cap;
    text_tokens premise, hypothesis;
    char *row;
    size_t row_len, row_cap;
    FILE *out;
} prep_state;

static bool has_tab_or_newline(const char *s, size_t len)
{
    return memchr(s, '\t', len) || memchr(s, '\n', len) || memchr(s, '\r', len);
}

static bool label_allowed(const prep_options *opt, const char *label)
{
    if (!opt->labels)
        return true;
    for (const char *const *l = opt->labels; *l; l++)
        if (strcmp(*l, label) == 0)
            return true;
    return false;
}

/* Tokenises and merges phrases; returns the final list, NULL when out of
   memory. */
static const token_list *prepare_text(const prep_options *opt, text_tokens *tt,
                                      const char *text, size_t len)
{
    if (tokenize(&opt->tok, text, len, &tt->raw) < 0)
        return NULL;
    if (!opt->phrases)
        return &tt->raw;
    if (phrase_set_merge(opt->phrases, &tt->raw, &tt->merged) < 0)
        return NULL;
    return &tt->merged;
}

static int append(prep_state *st, const char *s, size_t len)
{
    if (len == 0)   /* the row may not exist yet: NULL + 0 is undefined */
        return 0;
    if (ARRAY_RESERVE_MIN(st->row, st->row_cap, st->row_len + len, 1024) < 0)
        return -1;
    memcpy(st->row + st->row_len, s, len);
    st->row_len += len;
    return 0;
}

/* The next positional index in split; -1 when out of memory. */
static long next_position(prep_state *st, const char *split)
{
    /* Room for a new split first, so that every split has its index. */
    size_t before = vocab_size(st->split_names);
    if (ARRAY_RESERVE_MIN(st->split_pos, st->split_cap, before + 1, 8) < 0)
        return -1;
    long sid = vocab_intern(st->split_names, split, strlen(split));
    if (sid < 0)
        return -1;
    if ((size_t)sid == before)
        st->split_pos[sid] = 0;
    return st->split_pos[sid]++;
}

static int remember_id(prep_state *st, const char *id, size_t len, size_t input,
                       long line, const char *name, tells_error *err)
{
    /* Room for a new id first, so that every id has its origin. */
    size_t before = vocab_size(st->ids);
    if (ARRAY_RESERVE_MIN(st->origin, st->origin_cap, before + 1, 1024) < 0)
        return tells_error_nomem(err, name, line);
    long k = vocab_intern(st->ids, id, len);
    if (k < 0)
        return tells_error_nomem(err, name, line);
    if ((size_t)k < before) {
        const id_origin *o = &st->origin[k];
        return tells_error_set(err, name, line, "duplicate id '%s' (first at %s:%ld)",
                               id, display_name(st->inputs[o->input].path), o->line);
    }
    st->origin[k] = (id_origin){input, line};
    return 0;
}

/* Checks and writes one example. Returns 1 written, 0 skipped as
   unlabeled, -1 error (local to the record unless *fatal). */
static int prep_example(prep_state *st, size_t input, const raw_example *ex,
                        long position, const char *name, bool *fatal,
                        tells_error *err)
{
    const char *split = st->inputs[input].split;
    long ln = ex->lineno;
    *fatal = false;
    if (ex->label_len == 0 || strcmp(ex->label, "-") == 0)
        return 0;
    if (has_tab_or_newline(ex->label, ex->label_len))
        return tells_error_set(err, name, ln, "label contains a tab or line break");
    /* The prepared TSV's readers refuse a label of spaces alone. */
    if (strspn(ex->label, " ") == ex->label_len)
        return tells_error_set(err, name, ln, "label of spaces only");
    if (!label_allowed(st->opt, ex->label))
        return tells_error_set(err, name, ln, "unknown label '%s'", ex->label);
    char idbuf[256];
    const char *id = ex->id;
    size_t id_len = ex->id_len;
    if (!id) {
        snprintf(idbuf, sizeof idbuf, "%s%ld", split, position);
        id = idbuf;
        id_len = strlen(idbuf);
    } else if (has_tab_or_newline(id, id_len) || strlen(id) != id_len) {
        return tells_error_set(err, name, ln, "id contains a tab, line break or NUL");
    } else if (id_len == 0) {
        /* Every reader of the prepared TSV refuses an empty id. */
        return tells_error_set(err, name, ln, "empty id");
    } else if (id_len >= 3 && memcmp(id, "\xEF\xBB\xBF", 3) == 0) {
        /* ... and one that starts with a byte-order mark. */
        return tells_error_set(err, name, ln, "id starts with a byte-order mark");
    }
    const token_list *prem = prepare_text(st->opt, &st->premise, ex->premise,
                                          ex->premise_len);
    const token_list *hyp = prepare_text(st->opt, &st->hypothesis, ex->hypothesis,
                                         ex->hypothesis_len);
    if (!prem || !hyp) {
        *fatal = true;
        return tells_error_nomem(err, name, ln);
    }
    if (prem->n == 0 && !ex->no_premise)
        return tells_error_set(err, name, ln, "empty premise (no tokens)");
    if (hyp->n == 0)
        return tells_error_set(err, name, ln, "empty hypothesis (no tokens)");
    if (remember_id(st, id, id_len, input, ln, name, err) < 0) {
        *fatal = true;
        return -1;
    }
    /* A keyed id in place of the corpus's (text/redact.h), once the
       corpus's own ids were found unique. */
    char keyed[REDACT_ID_HEX + 1];
    if (st->opt->id_key) {
        redact_id_hash(st->opt->id_key, id, id_len, keyed);
        id = keyed;
        id_len = REDACT_ID_HEX;
    }
    /* The row is built whole and written with one call. */
    st->row_len = 0;
    if (append(st, id, id_len) < 0 || append(st, "\t", 1) < 0 ||
        append(st, split, strlen(split)) < 0 || append(st, "\t", 1) < 0 ||
        append(st, ex->label, ex->label_len) < 0 || append(st, "\t", 1) < 0 ||
        (ex->no_premise ? append(st, CORPUS_NO_PREMISE, strlen(CORPUS_NO_PREMISE))
                        : token_list_join(prem, &st->row, &st->row_len, &st->row_cap)) < 0 ||
        append(st, "\t", 1) < 0 ||
        token_list_join(hyp, &st->row, &st->row_len, &st->row_cap) < 0 ||
        append(st, "\n", 1) < 0) {
        *fatal = true;
        return tells_error_nomem(err, name, ln);
    }
    fwrite(st->row, 1, st->row_len, st->out);
    return 1;
}

static int prep_file(prep_state *st, size_t input, prep_file_stats *fs,
                     tells_error *err)
{
    const prep_input *in = &st->inputs[input];
    corpus_reader *r;
    if (corpus_open(&r, in->path, st->opt->format, &st->opt->fields,
                    st->opt->max_line, err) < 0)
        return -1;
    const char *name = display_name(in->path);
    raw_example ex;
    int rc;
    for (;;) {
        rc = corpus_next(r, &ex, err);
        long position = -1;
        /* A bad record takes its place too, so that skipping it does not
           change the ids of the records after it. */
        if ((rc == 1 || (rc < 0 && corpus_error_is_local(r))) &&
            (position = next_position(st, in->split)) < 0) {
            rc = tells_error_nomem(err, name, 0);
            break;
        }
        if (rc == 0)
            break;
        if (rc < 0) {
            if (corpus_error_is_local(r) && st->opt->skip_invalid) {
                fs->invalid++;
                continue;
            }
            break;
        }
        bool fatal;
        rc = prep_example(st, input, &ex, position, name, &fatal, err);
        if (rc == 1)
            fs->written++;
        else if (rc == 0)
            fs->unlabeled++;
        else if (!fatal && st->opt->skip_invalid)
            fs->invalid++;
        else
            break;
    }
    /* An empty, blank or header-only file is a mistake, not a split. */
    if (rc == 0 && corpus_records(r) == 0)
        rc = tells_error_set(err, name, 0, "no examples in the input");
    corpus_close(r);
    return rc < 0 ? -1 : 0;
}

typedef struct prep_job {
    prep_state *st;
    size_t ninputs;
    prep_report_fn report;
    void *user;
} prep_job;

static int write_prepared(FILE *out, void *ctx, tells_error *err)
{
    prep_job *job = ctx;
    job->st->out = out;
    fputs(PREPARED_HEADER "\n", out);
    for (size_t i = 0; i < job->ninputs; i++) {
        prep_file_stats fs = {0};
        if (prep_file(job->st, i, &fs, err) < 0)
            return -1;
        if (job->report)
            job->report(&job->st->inputs[i], &fs, job->user);
        /* Every record skipped: the split would not be there at all. */
        if (fs.written == 0)
            return tells_error_set(err, display_name(job->st->inputs[i].path), 0,
                                   "no examples left: %ld skipped without a gold label, "
                                   "%ld invalid", fs.unlabeled, fs.invalid);
    }
    return 0;
}

int prep_run(const prep_options *opt, const prep_input *inputs, size_t ninputs,
             const char *output, prep_report_fn report, void *user, tells_error *err)
{
    prep_state st = {.opt = opt, .inputs = inputs};
    st.ids = vocab_new();
    st.split_names = vocab_new();
    text_tokens *texts[2] = {&st.premise, &st.hypothesis};
    for (int k = 0; k < 2; k++) {
        token_list_init(&texts[k]->raw);
        token_list_init(&texts[k]->merged);
    }
    int rc;
    if (!st.ids || !st.split_names)
        rc = tells_error_nomem(err, NULL, 0);
    else
        rc = out_write(output, write_prepared,
                       &(prep_job){&st, ninputs, report, user}, err);
    for (int k = 0; k < 2; k++) {
        token_list_free(&texts[k]->raw);
        token_list_free(&texts[k]->merged);
    }
    vocab_free(st.ids);
    vocab_free(st.split_names);
    free(st.origin);
    free(st.row);
    free(st.split_pos);
    return rc;
}

int prep_load_phrases(const char *const *files, size_t nfiles, const char *mesh_file,
                      const tok_options *tok, phrase_set **out, tells_error *err)
{
    *out = NULL;
    if (nfiles == 0 && !mesh_file)
        return 0;
    phrase_set *ps = phrase_set_new();
    if (!ps)
        return tells_error_nomem(err, NULL, 0);
    for (size_t i = 0; i < nfiles; i++)
        if (phrase_set_load(ps, files[i], tok, err) < 0) {
            phrase_set_free(ps);
            return -1;
        }
    if (mesh_file) {
        mesh_tree mesh;
        if (mesh_tree_load(mesh_file, &mesh, err) < 0) {
            phrase_set_free(ps);
            return -1;
        }
        int rc = mesh_tree_add_terms(&mesh, ps, tok);
        mesh_tree_free(&mesh);
        if (rc < 0) {
            phrase_set_free(ps);
            return tells_error_nomem(err, mesh_file, 0);
        }
    }
    *out = ps;
    return 0;
}
