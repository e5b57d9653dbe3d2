/* Line reading (CRLF, no final newline, long lines across buffer
   refills, the length limit) and atomic output. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "base/lineio.h"
#include "base/outfile.h"

static char dir[] = "/tmp/tells-unit-io.XXXXXX";

static void write_file(const char *path, const char *data, size_t len)
{
    FILE *fp = fopen(path, "wb");
    CHECK(fp && fwrite(data, 1, len, fp) == len);
    fclose(fp);
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

int main(void)
{
    CHECK(mkdtemp(dir) != NULL);
    lines();
    atomic();
    char in[300];
    snprintf(in, sizeof in, "%s/in", dir);
    unlink(in);
    CHECK(rmdir(dir) == 0);  /* no temporary file left behind */
    CHECK_DONE();
}
