#include <config.h>
#include "base/rowsel.h"

#include <string.h>

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
    if (!keep || drop)
        return false;
    if (s->splits && !in_list(s->splits, split, sl))
        return false;
    return !(s->exclude && in_list(s->exclude, split, sl));
}

int row_selection_copy(row_selection *s, const char *path, bool no_header, FILE *out,
                       FILE *missing, tells_error *err)
{
    prepared_reader r;
    if (prepared_open(&r, path, no_header, err) < 0)
        return -1;
    bool write_failed = !no_header && prepared_write_header(out, &r) < 0;
    prepared_row row;
    int rc = 0;
    while (!write_failed && (rc = prepared_next(&r, &row, err)) == 1)
        write_failed = row_selection_wants(s, &row) && prepared_write_row(out, &row) < 0;
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
