/* The tab splitter shared by every tab-separated reader. */
#include <config.h>

#include <string.h>

#include "check.h"
#include "base/fields.h"

static void split(void)
{
    char line[] = "a\tbb\t\tccc";
    char *f[8];
    size_t len[8];
    CHECK(tab_split(line, strlen(line), f, len, 8) == 4);
    CHECK_STR(f[0], "a");
    CHECK_STR(f[1], "bb");
    CHECK_STR(f[2], "");
    CHECK_STR(f[3], "ccc");
    CHECK(len[1] == 2 && len[2] == 0 && len[3] == 3);

    /* At most max fields: the last keeps the rest, tabs and all. */
    char line2[] = "a\tb\tc\td";
    CHECK(tab_split(line2, strlen(line2), f, NULL, 2) == 2);
    CHECK_STR(f[0], "a");
    CHECK_STR(f[1], "b\tc\td");

    char empty[] = "";
    CHECK(tab_split(empty, 0, f, len, 4) == 1 && len[0] == 0);
}

static void rows(void)
{
    tab_row row = {0};
    tells_error err;
    tells_error_clear(&err);
    char line[200];
    /* More fields than the first capacity. */
    strcpy(line, "0\t1\t2\t3\t4\t5\t6\t7\t8\t9\t10\t11\t12\t13\t14\t15\t16\t17\t18\t19");
    CHECK(tab_row_split(&row, line, strlen(line), "f", 1, &err) == 0);
    CHECK(row.n == 20);
    CHECK_STR(row.field[19], "19");
    CHECK(row.len[10] == 2);
    strcpy(line, "x");
    CHECK(tab_row_split(&row, line, 1, "f", 2, &err) == 0 && row.n == 1);
    tab_row_free(&row);
}

static void field_at(void)
{
    size_t len;
    const char *s = "group\tannotator\tbatch";
    const char *f = tab_field_at(s, 1, &len);
    CHECK(f && len == 9 && strncmp(f, "annotator", len) == 0);
    f = tab_field_at(s, 2, &len);
    CHECK(f && len == 5);
    CHECK(tab_field_at(s, 3, &len) == NULL);
}

static void messages(void)
{
    tells_error err;
    tells_error_clear(&err);
    CHECK(text_line_check("ok", 2, "f", 1, &err) == 0);
    CHECK(text_line_check("a\0b", 3, "f", 4, &err) == -1);
    CHECK_STR(err.msg, "NUL byte in input");
    CHECK(err.line == 4 && err.kind == TELLS_ERR_DATA);
    CHECK(text_line_check("\xC0\xAF", 2, "f", 5, &err) == -1);
    CHECK_STR(err.msg, "invalid UTF-8");
    tab_columns_error(&err, "f", 3, 5, 4, NULL);
    CHECK_STR(err.msg, "expected 5 tab-separated columns, found 4");
    tab_columns_error(&err, "f", 3, 2, 1, "term, descriptor");
    CHECK_STR(err.msg, "expected 2 tab-separated columns (term, descriptor)");
    tab_columns_error(&err, "f", 3, 1, 2, "phrase");
    CHECK_STR(err.msg, "expected one column (phrase), found a tab");
}

/* Data quoted in a message stays on one clean line (base/error.c). */
static void control_characters(void)
{
    tells_error err;
    tells_error_clear(&err);
    tells_error_set(&err, "a\nb", 2, "unknown label '%s'", "x\ty\r\n\x1b[31m\x7f");
    CHECK_STR(err.msg, "unknown label 'x\ty\\r\\n\\x1b[31m\\x7f'");
    CHECK_STR(err.file, "a\\nb");
    /* Escapes that do not fit are dropped whole, not cut. */
    char long_value[1100];
    memset(long_value, '\x01', sizeof long_value - 1);
    long_value[sizeof long_value - 1] = '\0';
    tells_error_set(&err, NULL, 0, "%s", long_value);
    size_t n = strlen(err.msg);
    CHECK(n > 1000 && n < sizeof err.msg && n % 4 == 0);
    CHECK_STR(err.msg + n - 4, "\\x01");
}

int main(void)
{
    split();
    rows();
    field_at();
    messages();
    control_characters();
    CHECK_DONE();
}
