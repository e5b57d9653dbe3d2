/* Line reading (CRLF, no final newline, long lines across buffer
   refills, the length limit, a byte-order mark, blank inputs), header
   names, datasets, atomic output, row selection by id file and split,
   and id files as NumPy saves arrays of strings (.npy, tests/data/ids-*
   from tests/ref/make-npy-ids.py). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "base/dataset.h"
#include "base/fields.h"
#include "base/idfile.h"
#include "base/lineio.h"
#include "base/npy.h"
#include "base/outfile.h"
#include "base/rowsel.h"

static char dir[] = "/tmp/tells-unit-io.XXXXXX";

static void write_file(const char *path, const char *data, size_t len)
{
    FILE *fp = fopen(path, "wb");
    CHECK(fp && fwrite(data, 1, len, fp) == len);
    fclose(fp);
}

static void write_text(const char *path, const char *text)
{
    write_file(path, text, strlen(text));
}

static void lines(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/in", dir);
    write_file(path, "a\r\nbb\n\nccc", 10);
    line_reader r;
    tells_error err;
    char *line;
    size_t len;
    CHECK(line_reader_open(&r, path, 0, &err) == 0);
    CHECK(line_reader_next(&r, &line, &len, &err) == 1 && len == 1);
    CHECK_STR(line, "a");
    CHECK(line_reader_next(&r, &line, &len, &err) == 1);
    CHECK_STR(line, "bb");
    CHECK(line_reader_next(&r, &line, &len, &err) == 1 && len == 0);
    CHECK(line_reader_next(&r, &line, &len, &err) == 1);
    CHECK_STR(line, "ccc");
    CHECK(r.lineno == 4);
    CHECK(line_reader_next(&r, &line, &len, &err) == 0);
    line_reader_close(&r);

    /* Lines of growing length, 3 MiB in all, cross every refill. */
    size_t total = 0, n = 0;
    char *big = malloc(3 << 20);
    while (total + n + 1 < (3u << 20)) {
        memset(big + total, 'x', n);
        big[total + n] = '\n';
        total += n + 1;
        n = (n * 7 + 13) % 200000;
    }
    write_file(path, big, total);
    CHECK(line_reader_open(&r, path, 0, &err) == 0);
    size_t seen = 0;
    int rc;
    while ((rc = line_reader_next(&r, &line, &len, &err)) == 1)
        seen += len + 1;
    CHECK(rc == 0 && seen == total);
    line_reader_close(&r);

    /* Over the limit: an error naming the line. */
    CHECK(line_reader_open(&r, path, 1000, &err) == 0);
    while ((rc = line_reader_next(&r, &line, &len, &err)) == 1)
        ;
    CHECK(rc == -1 && err.line == 5);  /* lengths 0, 13, 104, 741, 5200 */
    CHECK_STR(err.msg, "line longer than 1000 bytes");
    line_reader_close(&r);
    free(big);

    /* A byte-order mark is dropped at the start only; offsets still
       count it. */
    write_file(path, "\xEF\xBB\xBF" "ab\r\n\xEF\xBB\xBF" "c\n", 12);
    CHECK(line_reader_open(&r, path, 0, &err) == 0);
    CHECK(line_reader_next(&r, &line, &len, &err) == 1 && len == 2);
    CHECK_STR(line, "ab");
    CHECK(r.line_start == 0 && r.pos == 7);
    CHECK(line_reader_next(&r, &line, &len, &err) == 1 && len == 4);
    CHECK_STR(line, "\xEF\xBB\xBF" "c");
    line_reader_close(&r);
    CHECK(line_reader_open_at(&r, path, 0, 7, &err) == 0);
    CHECK(line_reader_next(&r, &line, &len, &err) == 1 && len == 4);
    line_reader_close(&r);
    write_file(path, "\xEF\xBB\xBF", 3);   /* the mark alone: one empty line */
    CHECK(line_reader_open(&r, path, 0, &err) == 0);
    CHECK(line_reader_next(&r, &line, &len, &err) == 1 && len == 0);
    CHECK(line_reader_next(&r, &line, &len, &err) == 0);
    line_reader_close(&r);

    /* A header line: blank lines only are an empty input; a blank line
       before others is a header that is blank. */
    CHECK(line_is_blank(" \t", 2) && line_is_blank("", 0) && !line_is_blank(" x", 2));
    write_file(path, "\n \n\t\r\n", 6);
    CHECK(line_reader_open(&r, path, 0, &err) == 0);
    CHECK(line_reader_header(&r, &line, &len, &err) == 0);
    line_reader_close(&r);
    write_file(path, "\n\nid\n", 5);
    CHECK(line_reader_open(&r, path, 0, &err) == 0);
    CHECK(line_reader_header(&r, &line, &len, &err) == 1 && len == 0);
    CHECK_STR(line, "");
    line_reader_close(&r);
    write_file(path, "id\n\n", 4);
    CHECK(line_reader_open(&r, path, 0, &err) == 0);
    CHECK(line_reader_header(&r, &line, &len, &err) == 1 && len == 2);
    CHECK(line_reader_next(&r, &line, &len, &err) == 1 && len == 0);
    line_reader_close(&r);
}

static void headers(void)
{
    tells_error err;
    char a[] = "id", b[] = "gold", c[] = "", d[] = "", e[] = "gold";
    char *names[] = {a, b, c, d, e};
    size_t lens[] = {2, 4, 0, 0, 4};
    CHECK(header_names_check(names, lens, 4, "f", 1, &err) == 0);  /* unnamed twice */
    CHECK(header_names_check(names, lens, 5, "f", 1, &err) == -1);
    CHECK_STR(err.msg, "duplicate column 'gold' (columns 2 and 5)");
    CHECK_STR(err.file, "f");
    CHECK(err.line == 1 && err.kind == TELLS_ERR_DATA);
    CHECK(header_line_check("a\tb\tc", 5, "f", 1, &err) == 0);
    CHECK(header_line_check("a\tb\ta", 5, "f", 3, &err) == -1 && err.line == 3);
    CHECK_STR(err.msg, "duplicate column 'a' (columns 1 and 3)");
    CHECK(header_line_check("a\t\xED\xA0\x80", 5, "f", 1, &err) == -1);
    CHECK_STR(err.msg, "invalid UTF-8");
    CHECK(header_line_check("a\tb\0", 4, "f", 1, &err) == -1);
    CHECK_STR(err.msg, "NUL byte in input");
}

static void datasets(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/d.tsv", dir);
    tells_error err;
    dataset d;
    write_text(path, "id\tsplit\tlabel\tpremise\thypothesis\n"
                     "a\tt\tn\tp\th\nb\tt\tn\tp\th\na\tu\te\tp\th\n");
    CHECK(dataset_load(&d, path, &err) == -1 && d.ex == NULL);
    CHECK_STR(err.msg, "duplicate id 'a' (first on line 2)");
    CHECK(err.line == 4);
    /* A header alone loads empty; those that need examples say so. */
    write_text(path, "\xEF\xBB\xBFid\tsplit\tlabel\tpremise\thypothesis\r\n");
    CHECK(dataset_load(&d, path, &err) == 0 && d.n == 0);
    CHECK(dataset_require_examples(&d, &err) == -1);
    CHECK_STR(err.msg, "no examples in the input");
    CHECK_STR(err.file, path);
    dataset_free(&d);
    write_text(path, "id\tsplit\tlabel\tpremise\thypothesis\tx\tlabel\n");
    CHECK(dataset_load(&d, path, &err) == -1);
    CHECK_STR(err.msg, "duplicate column 'label' (columns 3 and 7)");
    write_text(path, "\n\n");
    CHECK(dataset_load(&d, path, &err) == -1);
    CHECK_STR(err.msg, "empty input: expected a prepared TSV header");
    /* Room is made after 1,024 rows (and 16,384) from the bytes so far:
       rows that then grow fifty-fold all load, in order, and a duplicate
       far past the estimate is still found with its lines. */
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL);
    fputs("id\tsplit\tlabel\tpremise\thypothesis\n", fp);
    enum { ROWS = 40000 };
    for (int i = 0; i < ROWS; i++)
        fprintf(fp, "r%d\ttrain\t%s\t%s\th%d\n", i, i % 3 ? "e" : "c",
                i < 1024 ? "p" : "a long premise of many words, fifty times the first rows'",
                i);
    fprintf(fp, "r17\ttrain\te\tp\th\n");
    CHECK(fclose(fp) == 0);
    CHECK(dataset_load(&d, path, &err) == -1);
    CHECK_STR(err.msg, "duplicate id 'r17' (first on line 19)");
    CHECK(err.line == ROWS + 2);
    struct stat st;
    CHECK(stat(path, &st) == 0);
    CHECK(truncate(path, st.st_size - (off_t)strlen("r17\ttrain\te\tp\th\n")) == 0);
    CHECK(dataset_load(&d, path, &err) == 0 && d.n == ROWS);
    CHECK_STR(d.ex[0].id, "r0");
    CHECK_STR(d.ex[1023].premise, "p");
    CHECK_STR(d.ex[ROWS - 1].id, "r39999");
    CHECK_STR(d.ex[ROWS - 1].hypothesis, "h39999");
    CHECK(d.ex[ROWS - 1].line == ROWS + 1);
    CHECK(dataset_row(&d, "r20000", 6) == 20000);
    dataset_free(&d);
    /* By id: the rows in the ids' byte order, found by id at their new
       rows, each with its place in the file; labels and splits numbered
       by first appearance in the new order. */
    write_text(path, "id\tsplit\tlabel\tpremise\thypothesis\n"
                     "b2\ttest\tn\tp2\th2\nb10\ttrain\te\tp10\th10\n"
                     "a\ttrain\tc\tp\th\n");
    size_t *pos = NULL;
    CHECK(dataset_load(&d, path, &err) == 0 && d.n == 3);
    /* Rows by id, the dataset left as it is: all of them, or some. */
    size_t some[] = {0, 1}, *r = d.n == 3 ? dataset_rows_by_id(&d, some, 2) : NULL;
    CHECK(r && r[0] == 1 && r[1] == 0);
    free(r);
    r = d.n == 3 ? dataset_rows_by_id(&d, NULL, d.n) : NULL;
    CHECK(r && r[0] == 2 && r[1] == 1 && r[2] == 0);
    free(r);
    CHECK_STR(d.n == 3 ? d.ex[0].id : "", "b2");
    CHECK(dataset_sort_by_id(&d, &pos, &err) == 0);
    CHECK(d.n == 3 && pos != NULL);
    if (d.n == 3 && pos) {
        CHECK_STR(d.ex[0].id, "a");
        CHECK_STR(d.ex[1].id, "b10");
        CHECK_STR(d.ex[2].id, "b2");
        CHECK_STR(d.ex[2].hypothesis, "h2");
        CHECK(d.ex[0].line == 4 && d.ex[2].line == 2);
        CHECK(pos[0] == 2 && pos[1] == 1 && pos[2] == 0);
        CHECK(dataset_row(&d, "b2", 2) == 2 && dataset_row(&d, "a", 1) == 0);
        CHECK_STR(vocab_str(d.labels, d.ex[0].label), "c");
        CHECK(d.ex[0].label == 0 && d.ex[1].label == 1 && d.ex[2].label == 2);
        CHECK_STR(vocab_str(d.labels, 2), "n");
        CHECK(d.ex[0].split == 0 && d.ex[2].split == 1);
        CHECK_STR(vocab_str(d.splits, 1), "test");
    }
    free(pos);
    dataset_free(&d);
    unlink(path);
}

static void atomic(void)
{
    char path[256], data[64];
    snprintf(path, sizeof path, "%s/out.tsv", dir);
    write_file(path, "good\n", 5);
    out_file o;
    tells_error err;
    CHECK(out_open(&o, path, &err) == 0);
    fputs("half-written", o.fp);
    out_abort(&o);
    FILE *fp = fopen(path, "r");
    CHECK(fp && fgets(data, sizeof data, fp));
    fclose(fp);
    CHECK_STR(data, "good\n");

    CHECK(out_open(&o, path, &err) == 0);
    fputs("new\n", o.fp);
    CHECK(out_commit(&o, &err) == 0);
    fp = fopen(path, "r");
    CHECK(fp && fgets(data, sizeof data, fp));
    fclose(fp);
    CHECK_STR(data, "new\n");
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0444));
    unlink(path);

    char missing[300];
    snprintf(missing, sizeof missing, "%s/no/such/dir/out", dir);
    CHECK(out_open(&o, missing, &err) < 0);
    CHECK(strstr(err.msg, "cannot create") != NULL);
}

static const char *slurp(const char *path);

static int failing_writer(FILE *fp, void *ctx, tells_error *err)
{
    (void)err;
    fputs("part", fp);
    return *(int *)ctx;
}

static int oom_writer(FILE *fp, void *ctx, tells_error *err)
{
    (void)fp;
    (void)ctx;
    return tells_error_nomem(err, NULL, 0);
}

/* A writer's failure names the output file, and the old file stays. */
static void writers(void)
{
    char path[256];
    snprintf(path, sizeof path, "%s/table.tsv", dir);
    write_file(path, "good\n", 5);
    tells_error err;
    int fail = -1;
    CHECK(out_write(path, failing_writer, &fail, &err) == -1);
    CHECK(err.kind == TELLS_ERR_IO);
    CHECK_STR(err.file, path);
    CHECK_STR(err.msg, "write error");
    CHECK(out_write(path, oom_writer, NULL, &err) == -1);
    CHECK(err.kind == TELLS_ERR_NOMEM);
    CHECK_STR(err.file, path);
    CHECK_STR(slurp(path), "good\n");
    int ok = 0;
    CHECK(out_write(path, failing_writer, &ok, &err) == 0);
    CHECK_STR(slurp(path), "part");
    unlink(path);

    /* Several outputs: none is written when one fails to open. */
    out_set set = {0};
    char a[300], b[300];
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/missing/b", dir);
    CHECK(out_set_open(&set, a, &err) != NULL);
    CHECK(out_set_open(&set, b, &err) == NULL);
    out_set_abort(&set);
    CHECK(access(a, F_OK) != 0);
    FILE *fa = out_set_open(&set, a, &err);
    CHECK(fa != NULL);
    fputs("x", fa);
    CHECK(out_set_commit(&set, &err) == 0);
    CHECK_STR(slurp(a), "x");
    unlink(a);
}

/* A small file's whole content. */
static const char *slurp(const char *path)
{
    static char buf[4096];
    FILE *fp = fopen(path, "rb");
    size_t n = fp ? fread(buf, 1, sizeof buf - 1, fp) : 0;
    if (fp)
        fclose(fp);
    buf[n] = '\0';
    return buf;
}

static void selection(void)
{
    char in[300], keep[300], drop[300], out[300], missing[300];
    snprintf(in, sizeof in, "%s/in.tsv", dir);
    snprintf(keep, sizeof keep, "%s/keep.ids", dir);
    snprintf(drop, sizeof drop, "%s/drop.ids", dir);
    snprintf(out, sizeof out, "%s/out.tsv", dir);
    snprintf(missing, sizeof missing, "%s/missing.ids", dir);
    const char *rows = "id\tsplit\tlabel\tpremise\thypothesis\tsource\n"
                       "a\ttrain\tn\tp\th\tweb\n"
                       "b\tdev\te\tp q\th\tbook\n"
                       "c\ttest\tc\tp\th\tweb\n"
                       "d\tdev\tn\tp\th i\tweb\n";
    write_text(in, rows);
    write_text(keep, "a\nzz\nb\n\nd\nc\n");
    write_text(drop, "d\nyy\n");

    tells_error err;
    CHECK(split_list_check("dev", &err) == 0 && split_list_check("dev,test", &err) == 0);
    CHECK(split_list_check("dev,,test", &err) < 0 && err.kind == TELLS_ERR_USAGE);
    CHECK_STR(err.msg, "invalid split list 'dev,,test'");
    CHECK(split_list_check("", &err) < 0 && split_list_check(",a", &err) < 0 &&
          split_list_check("a,", &err) < 0);

    /* Kept by the id file, not dropped by the other, not of split test;
       both files' ids that no row had, the keep file's first. */
    row_selection s = {.keep_path = keep, .drop_path = drop, .exclude = "test"};
    CHECK(row_selection_load(&s, &err) == 0);
    CHECK(id_set_size(&s.keep) == 5 && id_set_size(&s.drop) == 2);
    FILE *o = fopen(out, "wb"), *m = fopen(missing, "wb");
    CHECK(o && m && row_selection_copy(&s, in, false, o, m, &err) == 0);
    fclose(o);
    fclose(m);
    CHECK_STR(slurp(out), "id\tsplit\tlabel\tpremise\thypothesis\tsource\n"
                          "a\ttrain\tn\tp\th\tweb\n"
                          "b\tdev\te\tp q\th\tbook\n");
    CHECK_STR(slurp(missing), "zz\nyy\n");
    CHECK(row_selection_unseen(&s) == 2);
    row_selection_free(&s);

    /* Splits only, headerless: every line a row, none written back. */
    o = fopen(out, "wb");
    row_selection by_split = {.splits = "dev"};
    CHECK(row_selection_load(&by_split, &err) == 0);
    CHECK(o && row_selection_copy(&by_split, keep, true, o, NULL, &err) < 0);
    CHECK(err.line == 1);  /* an id file is no prepared TSV */
    CHECK(row_selection_copy(&by_split, in, false, o, NULL, &err) == 0);
    fclose(o);
    CHECK_STR(slurp(out), "id\tsplit\tlabel\tpremise\thypothesis\tsource\n"
                          "b\tdev\te\tp q\th\tbook\n"
                          "d\tdev\tn\tp\th i\tweb\n");
    CHECK(row_selection_unseen(&by_split) == 0);
    row_selection_free(&by_split);

    /* A bad id file: named with its line, and nothing stays loaded. */
    write_text(drop, "x\ny\tz\n");
    row_selection bad = {.keep_path = keep, .drop_path = drop};
    CHECK(row_selection_load(&bad, &err) < 0);
    CHECK(err.line == 2 && strcmp(err.file, drop) == 0 && err.kind == TELLS_ERR_DATA);
    CHECK(bad.keep.ids == NULL && bad.drop.ids == NULL);
    row_selection_free(&bad);

    /* An id on two rows matters with an id file only; no rows at all is
       an error. */
    write_text(in, "id\tsplit\tlabel\tpremise\thypothesis\n"
                   "a\ttrain\tn\tp\th\na\tdev\tn\tp\th\n");
    row_selection dup = {.keep_path = keep};
    CHECK(row_selection_load(&dup, &err) == 0);
    o = fopen(out, "wb");
    CHECK(o && row_selection_copy(&dup, in, false, o, NULL, &err) < 0);
    CHECK_STR(err.msg, "duplicate id 'a' (first on line 2)");
    CHECK(err.line == 3);
    row_selection_free(&dup);
    row_selection dev = {.splits = "dev"};
    CHECK(row_selection_load(&dev, &err) == 0);
    CHECK(o && row_selection_copy(&dev, in, false, o, NULL, &err) == 0);
    write_text(in, "id\tsplit\tlabel\tpremise\thypothesis\n");
    CHECK(o && row_selection_copy(&dev, in, false, o, NULL, &err) < 0);
    CHECK_STR(err.msg, "no examples in the input");
    CHECK_STR(err.file, in);
    row_selection_free(&dev);
    fclose(o);

    /* No rows: the file is named when there is one. */
    char *one[] = {in}, *two[] = {in, keep};
    CHECK(prepared_empty_error(&err, one, 1) < 0);
    CHECK_STR(err.msg, "no examples in the input");
    CHECK_STR(err.file, in);
    CHECK(prepared_empty_error(&err, two, 2) < 0 && err.file[0] == '\0');

    unlink(in);
    unlink(keep);
    unlink(drop);
    unlink(out);
    unlink(missing);
}



/* Whether the set holds exactly the ids of ids-u10.npy. */
static bool holds_mixed_ids(id_set *s)
{
    static const char *const want[] = {"dev1", "train12345", "d\xC3\xA9j\xC3\xA0-\xC3\xBC",
                                       "\xF0\x9F\x98\x80x"};
    bool ok = id_set_size(s) == 4;
    for (size_t i = 0; ok && i < 4; i++)
        ok = id_set_match(s, want[i], strlen(want[i]));
    return ok && !id_set_match(s, "", 0) && !id_set_match(s, "dev", 3);
}

static void npy_ids(void)
{
    tells_error err;
    /* '<U10' in format versions 1.0, 2.0 and 3.0, '>U10' and '|S16': the
       same ids, UTF-8, the padding dropped, the empty one passed over and
       the repeated one counted once. */
    const char *good[] = {"ids-u10.npy", "ids-u10-v2.npy", "ids-u10-v3.npy",
                          "ids-u-big.npy", "ids-bytes.npy"};
    for (size_t k = 0; k < sizeof good / sizeof *good; k++) {
        id_set s;
        CHECK(id_set_load(&s, data_path(good[k]), &err) == 0);
        CHECK(holds_mixed_ids(&s));
        id_set_free(&s);
    }
    /* Known by its first bytes, whatever its name. */
    char copy[300];
    snprintf(copy, sizeof copy, "%s/ids", dir);
    FILE *src = fopen(data_path("ids-u10.npy"), "rb"), *dst = fopen(copy, "wb");
    char buf[4096];
    size_t n = src ? fread(buf, 1, sizeof buf, src) : 0;
    CHECK(src && dst && n > 0 && fwrite(buf, 1, n, dst) == n);
    if (src)
        fclose(src);
    if (dst)
        fclose(dst);
    id_set s;
    CHECK(id_set_load(&s, copy, &err) == 0 && holds_mixed_ids(&s));
    id_set_free(&s);
    /* No ids at all is an empty set, as an empty text file. */
    CHECK(id_set_load(&s, data_path("ids-empty.npy"), &err) == 0 && id_set_size(&s) == 0);
    id_set_free(&s);

    struct {
        const char *file, *msg;
    } bad[] = {
        {"ids-2d.npy", "a .npy array of ids has one dimension, not more"},
        {"ids-int.npy", "unsupported .npy data type '<i8' (strings, '<U' or '|S', expected)"},
        {"ids-tab.npy", "id 2: a tab or line break in an id"},
        {"npy-f4.npy", "unsupported .npy data type '<f4' (strings, '<U' or '|S', expected)"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        CHECK(id_set_load(&s, data_path(bad[k].file), &err) == -1);
        CHECK(err.kind == TELLS_ERR_DATA && err.line == 0 && s.ids == NULL);
        CHECK_STR(err.msg, bad[k].msg);
    }
    /* Matrices are not ids, nor ids a matrix. */
    npy_matrix m;
    CHECK(npy_read(data_path("ids-u10.npy"), &m, &err) == -1);
    CHECK_STR(err.msg, "unsupported .npy data type '<U10' (float32 or float64 expected)");

    /* Damaged copies: a NUL inside an id, a surrogate, a truncated body,
       trailing bytes. */
    src = fopen(data_path("ids-u10.npy"), "rb");
    n = src ? fread(buf, 1, sizeof buf, src) : 0;
    if (src)
        fclose(src);
    CHECK(n == 368);
    size_t body = n - 6 * 40;   /* 6 ids of 10 UCS-4 characters */
    char damaged[4096];
    struct {
        size_t at, len;
        const char *bytes;
        size_t size;
        const char *msg;
    } cases[] = {
        {body + 4, 4, "\0\0\0\0", n, "id 1: a NUL inside"},
        {body + 40, 4, "\x00\xD8\0\0", n, "id 2: invalid code point U+D800"},
        {body + 40, 4, "\x00\x00\x11\0", n, "id 2: invalid code point U+110000"},
        {0, 0, "", n - 1, "the header claims 240 bytes of data (6 ids), the file has 239"},
        {0, 0, "", n + 1, "trailing data after the 6 ids"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        memcpy(damaged, buf, n);
        damaged[n] = 'x';
        memcpy(damaged + cases[k].at, cases[k].bytes, cases[k].len);
        write_file(copy, damaged, cases[k].size);
        CHECK(id_set_load(&s, copy, &err) == -1 && s.ids == NULL);
        CHECK_STR(err.msg, cases[k].msg);
    }
    unlink(copy);
}

int main(void)
{
    CHECK(mkdtemp(dir) != NULL);
    lines();
    headers();
    datasets();
    atomic();
    writers();
    selection();
    npy_ids();
    char in[300];
    snprintf(in, sizeof in, "%s/in", dir);
    unlink(in);
    CHECK(rmdir(dir) == 0);  /* no temporary file left behind */
    CHECK_DONE();
}
