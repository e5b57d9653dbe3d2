#include <config.h>
#include "text/entryterms.h"

#include <string.h>

#include "base/fields.h"

enum { NCOLS = 8 };

static const char *const column[NCOLS] = {
    "DescriptorUI", "DescriptorName", "ConceptUI", "TermName",
    "RecordPreferredTermYN", "ConceptPreferredTermYN", "IsPermutedTermYN", "LexicalTag"
};

static bool valid_ui(const char *s)
{
    if (s[0] != 'D' || !s[1])
        return false;
    for (s++; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

static int yes_no(const char *s, bool *out, int col, const line_reader *r,
                  tells_error *err)
{
    if (strcmp(s, "Y") == 0 || strcmp(s, "N") == 0) {
        *out = s[0] == 'Y';
        return 0;
    }
    return tells_error_set(err, r->name, r->lineno, "%s must be Y or N, not '%s'",
                           column[col], s);
}

static int check_header(char *line, size_t len, const line_reader *r, tells_error *err)
{
    char *field[NCOLS + 1];
    size_t n = tab_split(line, len, field, NULL, NCOLS + 1);
    bool ok = n == NCOLS;
    for (size_t k = 0; ok && k < NCOLS; k++)
        ok = strcmp(field[k], column[k]) == 0;
    if (!ok)
        return tells_error_set(err, r->name, r->lineno,
                               "not an entry-term file: the header must be "
                               "DescriptorUI, DescriptorName, ConceptUI, TermName, "
                               "RecordPreferredTermYN, ConceptPreferredTermYN, "
                               "IsPermutedTermYN, LexicalTag (tab-separated)");
    return 0;
}

long entry_terms_read(const char *path, entry_term_fn fn, void *ctx, tells_error *err)
{
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0)
        return -1;
    char *line, *field[NCOLS + 1];
    size_t len;
    long rows = 0;
    int rc;
    bool header = false;
    while ((rc = line_reader_next(&r, &line, &len, err)) == 1) {
        if ((rc = text_line_check(line, len, r.name, r.lineno, err)) < 0)
            break;
        if (!header) {
            if ((rc = check_header(line, len, &r, err)) < 0)
                break;
            header = true;
            continue;
        }
        if (line_is_blank(line, len))
            continue;
        size_t n = tab_split(line, len, field, NULL, NCOLS + 1);
        if (n != NCOLS) {
            rc = tab_columns_error(err, r.name, r.lineno, NCOLS, n, NULL);
            break;
        }
        size_t k = 0;
        while (k < NCOLS && field[k][0] != '\0')
            k++;
        if (k < NCOLS) {
            rc = tells_error_set(err, r.name, r.lineno, "empty %s", column[k]);
            break;
        }
        if (!valid_ui(field[0])) {
            rc = tells_error_set(err, r.name, r.lineno, "malformed DescriptorUI '%s'",
                                 field[0]);
            break;
        }
        entry_term t = {.ui = field[0], .name = field[1], .concept = field[2],
                        .term = field[3], .tag = field[7]};
        if ((rc = yes_no(field[4], &t.record_preferred, 4, &r, err)) < 0 ||
            (rc = yes_no(field[5], &t.concept_preferred, 5, &r, err)) < 0 ||
            (rc = yes_no(field[6], &t.permuted, 6, &r, err)) < 0 ||
            (rc = fn(ctx, &t, &r, err)) < 0)
            break;
        rows++;
    }
    if (rc == 0 && !header)
        rc = tells_error_set(err, r.name, 0, "empty entry-term file");
    line_reader_close(&r);
    return rc < 0 ? -1 : rows;
}
