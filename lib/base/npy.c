#include <config.h>
#include "base/npy.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/ioplan.h"
#include "base/lineio.h"
#include "base/number.h"

enum { NPY_ALIGN = 64, NPY_MAX_HEADER = 1 << 20, NPY_CHUNK = 1 << 16 };
static const char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

static bool host_little_endian(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

static void swap_bytes(unsigned char *p, size_t count, size_t size)
{
    for (size_t i = 0; i < count; i++, p += size)
        for (size_t a = 0, b = size - 1; a < b; a++, b--) {
            unsigned char t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
}

/* The value of 'key' in the header dictionary: a pointer just past the
   colon, or NULL. */
static const char *header_value(const char *h, const char *key)
{
    char quoted[32];
    for (int q = 0; q < 2; q++) {
        snprintf(quoted, sizeof quoted, q ? "\"%s\"" : "'%s'", key);
        const char *p = strstr(h, quoted);
        if (p) {
            p += strlen(quoted);
            while (*p == ' ')
                p++;
            return *p == ':' ? p + 1 : NULL;
        }
    }
    return NULL;
}

typedef struct npy_header {
    char kind;         /* 'f' float, 'U' UCS-4 string, 'S' byte string */
    char order;        /* '<' or '>' ('|' for byte strings) */
    size_t itemsize;   /* bytes per item */
    bool fortran;
    size_t ndim, shape[2];
} npy_header;

/* The widest string item read: far more than an id needs, and a bound
   on the buffer one item takes. */
enum { NPY_MAX_STRING_CHARS = 1 << 16 };

/* Parses a data type: '<f4', '>f8', '<U10', '|S8' and the like. */
static bool parse_descr(const char *descr, npy_header *hd)
{
    char order = descr[0], kind = descr[1];
    if (!strchr("<>=|", order) || !order || !kind)
        return false;
    const char *digits = descr + 2;
    if (*digits < '1' || *digits > '9' || strspn(digits, "0123456789") != strlen(digits) ||
        strlen(digits) > 6)
        return false;
    size_t width = (size_t)strtoul(digits, NULL, 10);
    if (kind == 'f') {
        if (order == '|' || (width != 4 && width != 8))
            return false;
        hd->itemsize = width;
    } else if (kind == 'U' || kind == 'S') {
        if (width > NPY_MAX_STRING_CHARS || (kind == 'U' && order == '|'))
            return false;
        hd->itemsize = kind == 'U' ? 4 * width : width;
    } else {
        return false;
    }
    hd->kind = kind;
    hd->order = order == '=' ? (host_little_endian() ? '<' : '>') : order;
    return true;
}

/* strings: the caller wants a vector of strings, not a matrix of numbers
   (only the wording of the messages differs). */
static int parse_header(const char *h, npy_header *hd, bool strings, const char *name,
                        tells_error *err)
{
    const char *v = header_value(h, "descr");
    while (v && *v == ' ')
        v++;
    if (!v || (*v != '\'' && *v != '"'))
        return tells_error_set(err, name, 0, "malformed .npy header: no 'descr'");
    char q = *v++;
    const char *end = strchr(v, q);
    size_t len = end ? (size_t)(end - v) : 0;
    char descr[16] = "";
    if (len < sizeof descr)
        memcpy(descr, v, len), descr[len] = '\0';
    if (!parse_descr(descr, hd) || (hd->kind == 'f') == strings)
        return tells_error_set(err, name, 0, "unsupported .npy data type '%.*s' (%s "
                               "expected)", (int)(len < 64 ? len : 64), v,
                               strings ? "strings, '<U' or '|S',"
                                       : "float32 or float64");

    v = header_value(h, "fortran_order");
    while (v && *v == ' ')
        v++;
    if (v && strncmp(v, "True", 4) == 0)
        hd->fortran = true;
    else if (v && strncmp(v, "False", 5) == 0)
        hd->fortran = false;
    else
        return tells_error_set(err, name, 0, "malformed .npy header: no 'fortran_order'");

    v = header_value(h, "shape");
    while (v && *v == ' ')
        v++;
    if (!v || *v != '(')
        return tells_error_set(err, name, 0, "malformed .npy header: no 'shape'");
    v++;
    hd->ndim = 0;
    for (;;) {
        while (*v == ' ')
            v++;
        if (*v == ')')
            break;
        char *e;
        uint64_t x;
        /* Digits only: strtoull would take "\t-5" as 2^64 - 5. */
        if (number_u64(v, &e, SIZE_MAX, &x) < 0)
            return tells_error_set(err, name, 0, "malformed .npy header: bad 'shape'");
        if (hd->ndim == (strings ? 1 : 2))
            return tells_error_set(err, name, 0, strings
                                   ? "a .npy array of ids has one dimension, not more"
                                   : "a .npy array of more than two dimensions is not "
                                     "a matrix");
        hd->shape[hd->ndim++] = (size_t)x;
        v = e;
        while (*v == ' ')
            v++;
        if (*v == ',')
            v++;
        else if (*v != ')')
            return tells_error_set(err, name, 0, "malformed .npy header: bad 'shape'");
    }
    if (hd->ndim == 0)
        return tells_error_set(err, name, 0, strings ? "a .npy scalar is not an array of ids"
                                                     : "a .npy scalar is not a matrix");
    if (hd->ndim == 1)
        hd->shape[1] = 1;
    return 0;
}

static int read_error(tells_error *err, const char *name)
{
    return tells_error_io(err, name, 0, "read error: %s", strerror(errno));
}

static int matrix_nomem(tells_error *err, const char *name, size_t rows, size_t cols)
{
    return tells_error_setk(err, TELLS_ERR_NOMEM, name, 0, "out of memory for a %zu x %zu "
                            "matrix", rows, cols);
}

/* Reads count items into dst as float32: converts byte order and width. */
static int read_items(FILE *fp, float *dst, size_t count, const npy_header *hd,
                      const char *name, size_t expected_bytes, size_t *done_bytes,
                      tells_error *err)
{
    bool swap = (hd->order == '<') != host_little_endian();
    if (hd->itemsize == 4) {
        size_t got = fread(dst, 4, count, fp);
        *done_bytes += got * 4;
        if (got < count)
            goto short_read;
        if (swap)
            swap_bytes((unsigned char *)dst, count, 4);
        return 0;
    }
    double buf[NPY_CHUNK / 8];
    for (size_t i = 0; i < count;) {
        size_t want = count - i < NPY_CHUNK / 8 ? count - i : NPY_CHUNK / 8;
        size_t got = fread(buf, 8, want, fp);
        *done_bytes += got * 8;
        if (swap)
            swap_bytes((unsigned char *)buf, got, 8);
        for (size_t j = 0; j < got; j++)
            dst[i + j] = (float)buf[j];
        i += got;
        if (got < want)
            goto short_read;
    }
    return 0;
short_read:
    if (ferror(fp))
        return read_error(err, name);
    return tells_error_set(err, name, 0, "truncated .npy file: %zu of %zu bytes of data",
                           *done_bytes, expected_bytes);
}

/* Reads the rest of a stream that cannot tell its size into *buf, up to
   want + 1 bytes (one more shows trailing data), growing the buffer only
   as bytes arrive; *got gets the count. */
static int spool(FILE *fp, size_t want, char **buf, size_t *got, const char *name,
                 tells_error *err)
{
    size_t cap = 0, len = 0, limit = want + 1;
    *buf = NULL;
    *got = 0;
    for (;;) {
        size_t need = len + NPY_CHUNK < limit ? len + NPY_CHUNK : limit;
        if (need > cap) {
            char *b = array_grow(*buf, &cap, need, 1, NPY_CHUNK);
            if (!b)
                return tells_error_nomem(err, name, 0);
            *buf = b;
        }
        size_t room = (cap < limit ? cap : limit) - len;
        size_t n = fread(*buf + len, 1, room, fp);
        len += n;
        if (n < room || len == limit)
            break;
    }
    if (ferror(fp))
        return read_error(err, name);
    *got = len;
    return 0;
}

/* An open .npy input, its header read and its data known to be there in
   full (a regular file by its size, a pipe by reading it into memory). */
typedef struct npy_source {
    const char *name;
    bool is_stdin;
    FILE *fp, *in, *mem;   /* in: where the data is read from */
    char *spooled;
    npy_header hd;
    size_t count, expected;   /* items, bytes of data */
} npy_source;

static void source_close(npy_source *s)
{
    if (s->mem)
        fclose(s->mem);
    free(s->spooled);
    if (s->fp && !s->is_stdin)
        fclose(s->fp);
    memset(s, 0, sizeof *s);
}

/* Opens path and reads its header; strings picks the kind of array
   wanted. On failure s holds nothing. */
static int source_open(npy_source *s, const char *path, bool strings, tells_error *err)
{
    memset(s, 0, sizeof *s);
    s->name = display_name(path);
    s->is_stdin = !path || strcmp(path, "-") == 0;
    if (s->is_stdin && stdin_claim(err) < 0) {
        s->is_stdin = false;
        return -1;
    }
    s->fp = s->is_stdin ? stdin : fopen(path, "rb");
    if (!s->fp)
        return tells_error_io(err, s->name, 0, "cannot open: %s", strerror(errno));
    io_note_read(fileno(s->fp));
    s->in = s->fp;
    const char *name = s->name;
    FILE *fp = s->fp;
    unsigned char pre[12];
    char *h = NULL;
    int rc = 0;
    if (fread(pre, 1, 10, fp) < 10 || memcmp(pre, npy_magic, 6) != 0) {
        rc = ferror(fp) ? read_error(err, name) : tells_error_set(err, name, 0, "not a .npy file");
        goto done;
    }
    size_t hlen;
    if (pre[6] == 1) {
        hlen = pre[8] | (size_t)pre[9] << 8;
    } else if (pre[6] == 2 || pre[6] == 3) {
        if (fread(pre + 10, 1, 2, fp) < 2) {
            rc = ferror(fp) ? read_error(err, name)
                            : tells_error_set(err, name, 0, "truncated .npy header");
            goto done;
        }
        hlen = pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
    } else {
        rc = tells_error_set(err, name, 0, ".npy format version %d.%d is not supported",
                             pre[6], pre[7]);
        goto done;
    }
    if (hlen > NPY_MAX_HEADER) {
        rc = tells_error_set(err, name, 0, "malformed .npy header: %zu bytes long", hlen);
        goto done;
    }
    if (!(h = malloc(hlen + 1))) {
        rc = tells_error_nomem(err, name, 0);
        goto done;
    }
    if (fread(h, 1, hlen, fp) < hlen) {
        rc = ferror(fp) ? read_error(err, name)
                        : tells_error_set(err, name, 0, "truncated .npy header");
        goto done;
    }
    h[hlen] = '\0';
    npy_header *hd = &s->hd;
    if ((rc = parse_header(h, hd, strings, name, err)) < 0)
        goto done;
    size_t rows = hd->shape[0], cols = hd->shape[1];
    size_t count = rows * cols;
    if ((cols && count / cols != rows) || count > SIZE_MAX / 8 ||
        (hd->itemsize && count > SIZE_MAX / hd->itemsize)) {
        rc = strings ? tells_error_set(err, name, 0, "%zu ids of %zu bytes are too many",
                                       rows, hd->itemsize)
                     : tells_error_set(err, name, 0, "a %zu x %zu matrix is too large",
                                       rows, cols);
        goto done;
    }
    s->count = count;
    s->expected = count * hd->itemsize;
    size_t expected = s->expected;
    /* Nothing is allocated for the data before the input is known to
       hold it: a header may claim any size. A regular file tells its
       size; a pipe is read into memory first, as far as it goes. */
    struct stat st;
    off_t at;
    if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && (at = ftello(fp)) >= 0) {
        uint64_t have = (uint64_t)st.st_size > (uint64_t)at
                            ? (uint64_t)st.st_size - (uint64_t)at : 0;
        if (have < expected) {
            if (strings)
                rc = tells_error_set(err, name, 0, "the header claims %zu bytes of data "
                                     "(%zu ids), the file has %" PRIu64, expected, rows,
                                     have);
            else
                rc = tells_error_set(err, name, 0, "the header claims %zu bytes of data (a "
                                     "%zu x %zu matrix), the file has %" PRIu64, expected,
                                     rows, cols, have);
            goto done;
        }
    } else {
        size_t got;
        if ((rc = spool(fp, expected, &s->spooled, &got, name, err)) < 0)
            goto done;
        if (got < expected) {
            rc = tells_error_set(err, name, 0, "truncated .npy file: %zu of %zu bytes of "
                                 "data", got, expected);
            goto done;
        }
        /* got is expected, or one more: trailing data, found below. */
        if (got > 0 && !(s->mem = fmemopen(s->spooled, got, "rb"))) {
            rc = tells_error_nomem(err, name, 0);
            goto done;
        }
        if (s->mem)
            s->in = s->mem;
    }
done:
    free(h);
    if (rc < 0)
        source_close(s);
    return rc;
}

/* After the data: anything more is an error. */
static int source_finish(npy_source *s, tells_error *err)
{
    if (getc(s->in) != EOF) {
        if (s->hd.kind == 'f')
            return tells_error_set(err, s->name, 0, "trailing data after the %zu x %zu "
                                   "matrix", s->hd.shape[0], s->hd.shape[1]);
        return tells_error_set(err, s->name, 0, "trailing data after the %zu ids",
                               s->hd.shape[0]);
    }
    return ferror(s->in) ? read_error(err, s->name) : 0;
}

int npy_read(const char *path, npy_matrix *m, tells_error *err)
{
    memset(m, 0, sizeof *m);
    npy_source s;
    if (source_open(&s, path, false, err) < 0)
        return -1;
    const char *name = s.name;
    const npy_header *hd = &s.hd;
    size_t rows = hd->shape[0], cols = hd->shape[1], count = s.count, done_bytes = 0;
    int rc = 0;
    float *data = malloc(count ? count * sizeof *data : 1);
    if (!data) {
        rc = matrix_nomem(err, name, rows, cols);
    } else if (!hd->fortran || rows <= 1 || cols <= 1) {
        rc = read_items(s.in, data, count, hd, name, s.expected, &done_bytes, err);
    } else {
        /* Column-major on disk: read, then transpose. */
        float *t = malloc(count * sizeof *t);
        if (!t) {
            rc = matrix_nomem(err, name, rows, cols);
        } else {
            rc = read_items(s.in, t, count, hd, name, s.expected, &done_bytes, err);
            for (size_t c = 0; rc == 0 && c < cols; c++)
                for (size_t r = 0; r < rows; r++)
                    data[r * cols + c] = t[c * rows + r];
            free(t);
        }
    }
    if (rc == 0)
        rc = source_finish(&s, err);
    if (rc == 0) {
        m->data = data;
        m->rows = rows;
        m->cols = cols;
        data = NULL;
    }
    free(data);
    source_close(&s);
    return rc;
}

/* Appends code point c to out as UTF-8; false for a surrogate or a value
   beyond U+10FFFF. */
static bool put_utf8(uint32_t c, char *out, size_t *len)
{
    char *p = out + *len;
    if (c < 0x80) {
        p[0] = (char)c;
        *len += 1;
    } else if (c < 0x800) {
        p[0] = (char)(0xC0 | c >> 6);
        p[1] = (char)(0x80 | (c & 0x3F));
        *len += 2;
    } else if (c >= 0xD800 && c <= 0xDFFF) {
        return false;
    } else if (c < 0x10000) {
        p[0] = (char)(0xE0 | c >> 12);
        p[1] = (char)(0x80 | (c >> 6 & 0x3F));
        p[2] = (char)(0x80 | (c & 0x3F));
        *len += 3;
    } else if (c <= 0x10FFFF) {
        p[0] = (char)(0xF0 | c >> 18);
        p[1] = (char)(0x80 | (c >> 12 & 0x3F));
        p[2] = (char)(0x80 | (c >> 6 & 0x3F));
        p[3] = (char)(0x80 | (c & 0x3F));
        *len += 4;
    } else {
        return false;
    }
    return true;
}

int npy_read_strings(const char *path, npy_string_fn add, void *ctx, tells_error *err)
{
    npy_source s;
    if (source_open(&s, path, true, err) < 0)
        return -1;
    const npy_header *hd = &s.hd;
    size_t width = hd->kind == 'U' ? hd->itemsize / 4 : hd->itemsize;
    bool swap = hd->kind == 'U' && (hd->order == '<') != host_little_endian();
    unsigned char *item = malloc(hd->itemsize ? hd->itemsize : 1);
    char *text = malloc(4 * width + 1);
    int rc = item && text ? 0 : tells_error_nomem(err, s.name, 0);
    for (size_t i = 0; rc == 0 && i < s.count; i++) {
        if (fread(item, 1, hd->itemsize, s.in) < hd->itemsize) {
            rc = ferror(s.in) ? read_error(err, s.name)
                              : tells_error_set(err, s.name, 0, "truncated .npy file: %zu "
                                                "of %zu bytes of data", i * hd->itemsize,
                                                s.expected);
            break;
        }
        /* NumPy pads a string with NULs to the width; a NUL before other
           characters is no part of any id. */
        size_t n = width, len = 0;
        if (hd->kind == 'U') {
            uint32_t *u = (uint32_t *)(void *)item;
            if (swap)
                swap_bytes(item, width, 4);
            while (n > 0 && u[n - 1] == 0)
                n--;
            for (size_t k = 0; rc == 0 && k < n; k++)
                if (u[k] == 0)
                    rc = tells_error_set(err, s.name, 0, "id %zu: a NUL inside", i + 1);
                else if (!put_utf8(u[k], text, &len))
                    rc = tells_error_set(err, s.name, 0, "id %zu: invalid code point "
                                         "U+%04" PRIX32, i + 1, u[k]);
        } else {
            while (n > 0 && item[n - 1] == 0)
                n--;
            memcpy(text, item, n);
            len = n;
            if (memchr(text, '\0', len))
                rc = tells_error_set(err, s.name, 0, "id %zu: a NUL inside", i + 1);
        }
        text[len] = '\0';
        if (rc == 0)
            rc = add(text, len, i, ctx, err);
    }
    if (rc == 0)
        rc = source_finish(&s, err);
    free(item);
    free(text);
    source_close(&s);
    return rc < 0 ? -1 : 0;
}

void npy_free(npy_matrix *m)
{
    free(m->data);
    memset(m, 0, sizeof *m);
}

int npy_write_header(FILE *fp, size_t rows, size_t cols)
{
    char dict[256];
    int len = snprintf(dict, sizeof dict,
                       "{'descr': '<f4', 'fortran_order': False, 'shape': (%zu, %zu), }",
                       rows, cols);
    /* magic (6) + version (2) + length (2) + dict + padding + '\n' */
    size_t total = 10 + (size_t)len + 1;
    size_t pad = (NPY_ALIGN - total % NPY_ALIGN) % NPY_ALIGN;
    size_t hlen = (size_t)len + pad + 1;
    unsigned char pre[10];
    memcpy(pre, npy_magic, 6);
    pre[6] = 1;
    pre[7] = 0;
    pre[8] = (unsigned char)(hlen & 0xff);
    pre[9] = (unsigned char)(hlen >> 8);
    if (fwrite(pre, 1, 10, fp) < 10 || fwrite(dict, 1, (size_t)len, fp) < (size_t)len)
        return -1;
    for (size_t i = 0; i < pad; i++)
        if (putc(' ', fp) == EOF)
            return -1;
    return putc('\n', fp) == EOF ? -1 : 0;
}

int npy_write_rows(FILE *fp, const float *data, size_t count)
{
    if (host_little_endian())
        return fwrite(data, sizeof *data, count, fp) == count ? 0 : -1;
    float buf[NPY_CHUNK / 4];
    for (size_t i = 0; i < count;) {
        size_t n = count - i < NPY_CHUNK / 4 ? count - i : NPY_CHUNK / 4;
        memcpy(buf, data + i, n * sizeof *buf);
        swap_bytes((unsigned char *)buf, n, 4);
        if (fwrite(buf, sizeof *buf, n, fp) < n)
            return -1;
        i += n;
    }
    return 0;
}

int npy_write(FILE *fp, const float *data, size_t rows, size_t cols)
{
    if (npy_write_header(fp, rows, cols) < 0)
        return -1;
    return npy_write_rows(fp, data, rows * cols);
}

int npy_write_matrix(FILE *fp, void *matrix, tells_error *err)
{
    (void)err;
    const npy_matrix *m = matrix;
    return npy_write(fp, m->data, m->rows, m->cols);
}

bool npy_find_nonfinite(const float *data, size_t rows, size_t cols, size_t *row,
                        size_t *col)
{
    for (size_t i = 0; i < rows * cols; i++)
        if (!isfinite(data[i])) {
            *row = i / cols;
            *col = i % cols;
            return true;
        }
    return false;
}
