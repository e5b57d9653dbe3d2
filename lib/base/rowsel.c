#include <config.h>
#include "base/rowsel.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

int split_list_check(const char *list, tells_error *err)
{
    size_t n = strlen(list);
    if (n == 0 || list[0] == ',' || list[n - 1] == ',' || strstr(list, ",,"))
        return tells_error_usage(err, "invalid split list '%s'", list);
    return 0;
}

/* Whether name is one of the comma-separated names in list. */
static bool in_list(const char *list, const char *name, size_t len)
{
    for (const char *p = list; *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (n == len && memcmp(p, name, len) == 0)
            return true;
        if (!comma)
            break;
        p = comma + 1;
    }
    return false;
}

int row_selection_load(row_selection *s, tells_error *err)
{
    memset(&s->keep, 0, sizeof s->keep);
    memset(&s->drop, 0, sizeof s->drop);
    if ((s->keep_path && id_set_load(&s->keep, s->keep_path, err) < 0) ||
        (s->drop_path && id_set_load(&s->drop, s->drop_path, err) < 0)) {
        row_selection_free(s);
        return -1;
    }
    return 0;
}

void row_selection_free(row_selection *s)
{
    id_set_free(&s->keep);
    id_set_free(&s->drop);
}

bool row_selection_wants(row_selection *s, const prepared_row *row)
{
    const char *id = row->field[PREP_ID], *split = row->field[PREP_SPLIT];
    size_t idl = row->len[PREP_ID], sl = row->len[PREP_SPLIT];
    /* Match both id sets first, so every listed id is marked as seen. */
    bool keep = !s->keep.ids || id_set_match(&s->keep, id, idl);
    bool drop = s->drop.ids && id_set_match(&s->drop, id, idl);
    bool by_id = !s->within || (strlen(s->within) == sl && memcmp(s->within, split, sl) == 0);
    if (by_id && (!keep || drop))
        return false;
    if (s->splits && !in_list(s->splits, split, sl))
        return false;
    return !(s->exclude && in_list(s->exclude, split, sl));
}

/* Remembers where each id of the input stood: with an id file, an id
   twice would make it ambiguous which row the file means. */
typedef struct id_lines {
    vocab *ids;
    long *line;
    size_t cap;
} id_lines;

static int check_unique(id_lines *seen, const prepared_row *row, const char *file,
                        tells_error *err)
{
    size_t before = vocab_size(seen->ids);
    long k = vocab_intern(seen->ids, row->field[PREP_ID], row->len[PREP_ID]);
    if (k < 0 || ARRAY_RESERVE(seen->line, seen->cap, before + 1) < 0)
        return tells_error_nomem(err, file, row->lineno);
    if ((size_t)k < before)
        return tells_error_set(err, file, row->lineno, "duplicate id '%s' (first on line %ld)",
                               row->field[PREP_ID], seen->line[k]);
    seen->line[k] = row->lineno;
    return 0;
}

/* Every split named in list that the input has no row of is an error,
   naming the input's splits (sorted, they are few). */
static int check_named(const char *list, const vocab *splits, const char *file,
                       tells_error *err)
{
    for (const char *p = list; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (vocab_find(splits, p, n) < 0) {
            size_t k = vocab_size(splits);
            size_t *sorted = vocab_sorted_ids(splits);
            if (!sorted)
                return tells_error_nomem(err, file, 0);
            char have[512] = "";
            size_t used = 0;
            for (size_t i = 0; i < k && used < sizeof have; i++)
                used += (size_t)snprintf(have + used, sizeof have - used, "%s%s",
                                         i ? ", " : "", vocab_str(splits, sorted[i]));
            free(sorted);
            return tells_error_set(err, file, 0, "no split named '%.*s' (the input has %s)",
                                   (int)n, p, have);
        }
        p = comma ? comma + 1 : NULL;
    }
    return 0;
}

int row_selection_copy(row_selection *s, const char *path, bool no_header, FILE *out,
                       FILE *missing, tells_error *err)
{
    prepared_reader r;
    if (prepared_open(&r, path, no_header, err) < 0)
        return -1;
    id_lines seen = {0};
    bool by_id = s->keep.ids || s->drop.ids;
    vocab *splits = vocab_new();
    int rc = !splits || (by_id && !(seen.ids = vocab_new()))
                 ? tells_error_nomem(err, r.lr.name, 0)
                 : 0;
    bool write_failed = !no_header && prepared_write_header(out, &r) < 0;
    prepared_row row;
    size_t rows = 0;
    while (rc == 0 && !write_failed && (rc = prepared_next(&r, &row, err)) == 1) {
        rows++;
        rc = by_id ? check_unique(&seen, &row, r.lr.name, err) : 0;
        if (rc == 0 && vocab_intern(splits, row.field[PREP_SPLIT], row.len[PREP_SPLIT]) < 0)
            rc = tells_error_nomem(err, r.lr.name, row.lineno);
        write_failed = rc == 0 && row_selection_wants(s, &row) &&
                       prepared_write_row(out, &row) < 0;
    }
    if (rc == 0 && !write_failed && rows == 0)
        rc = tells_error_set(err, r.lr.name, 0, "no examples in the input");
    if (rc == 0 && !write_failed)
        rc = check_named(s->splits, splits, r.lr.name, err) < 0 ||
                     check_named(s->exclude, splits, r.lr.name, err) < 0 ||
                     check_named(s->within, splits, r.lr.name, err) < 0
                 ? -1
                 : 0;
    vocab_free(splits);
    vocab_free(seen.ids);
    free(seen.line);
    prepared_close(&r);
    if (write_failed)
        return tells_error_io(err, NULL, 0, "write error");
    if (rc < 0)
        return -1;
    if (missing) {
        /* A write error here shows when the caller commits the file. */
        id_set_write_unseen(&s->keep, missing);
        id_set_write_unseen(&s->drop, missing);
    }
    return 0;
}

size_t row_selection_unseen(const row_selection *s)
{
    return id_set_unseen(&s->keep) + id_set_unseen(&s->drop);
}
