#include <config.h>
#include "base/idfile.h"

#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/lineio.h"
#include "base/npy.h"
#include "base/outfile.h"
#include "base/utf8.h"

/* The NumPy format's magic string; no text file starts with it (0x93 is
   no first byte of UTF-8). */
static const char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* Whether path names a .npy file: by its name, or, for a regular file
   (which can be read twice), by its first bytes. */
static bool is_npy(const char *path)
{
    size_t len = strlen(path);
    if (len > 4 && strcmp(path + len - 4, ".npy") == 0)
        return true;
    struct stat st;
    if (strcmp(path, "-") == 0 || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
        return false;
    FILE *fp = fopen(path, "rb");
    char head[6];
    bool npy = fp && fread(head, 1, sizeof head, fp) == sizeof head &&
               memcmp(head, npy_magic, sizeof head) == 0;
    if (fp)
        fclose(fp);
    return npy;
}

typedef struct npy_ids {
    vocab *ids;
    const char *name;
} npy_ids;

static int add_npy_id(const char *id, size_t len, size_t index, void *ctx, tells_error *err)
{
    const char *name = ((npy_ids *)ctx)->name;
    vocab *ids = ((npy_ids *)ctx)->ids;
    if (len == 0)
        return 0;   /* as a blank line */
    if (strpbrk(id, "\t\n\r"))
        return tells_error_set(err, name, 0, "id %zu: a tab or line break in an id",
                               index + 1);
    return vocab_intern(ids, id, len) < 0 ? tells_error_nomem(err, name, 0) : 0;
}

static int load_npy(id_set *s, const char *path, tells_error *err)
{
    if (!(s->ids = vocab_new()))
        return tells_error_nomem(err, display_name(path), 0);
    npy_ids ctx = {s->ids, display_name(path)};
    return npy_read_strings(path, add_npy_id, &ctx, err);
}

int id_set_load(id_set *s, const char *path, tells_error *err)
{
    memset(s, 0, sizeof *s);
    if (is_npy(path)) {
        int rc = load_npy(s, path, err);
        if (rc == 0 && !(s->seen = calloc(vocab_size(s->ids) + 1, sizeof *s->seen)))
            rc = tells_error_nomem(err, display_name(path), 0);
        if (rc < 0)
            id_set_free(s);
        return rc;
    }
    line_reader r;
    if (line_reader_open(&r, path, 0, err) < 0)
        return -1;
    s->ids = vocab_new();
    int rc = s->ids ? 0 : tells_error_nomem(err, r.name, 0);
    char *line;
    size_t len;
    while (rc == 0 && (rc = line_reader_next(&r, &line, &len, err)) == 1) {
        rc = 0;
        if (len == 0)
            continue;
        if (memchr(line, '\t', len) || strlen(line) != len)
            rc = tells_error_set(err, r.name, r.lineno,
                                 "an id file has one id per line (found a tab or NUL)");
        else if (utf8_invalid_offset(line, len) != (size_t)-1)
            rc = tells_error_set(err, r.name, r.lineno, "invalid UTF-8");
        else if (vocab_intern(s->ids, line, len) < 0)
            rc = tells_error_nomem(err, r.name, r.lineno);
    }
    line_reader_close(&r);
    if (rc == 0) {
        s->seen = calloc(vocab_size(s->ids) + 1, sizeof *s->seen);
        if (!s->seen)
            rc = tells_error_nomem(err, display_name(path), 0);
    }
    if (rc < 0) {
        id_set_free(s);
        return -1;
    }
    return 0;
}

void id_set_free(id_set *s)
{
    vocab_free(s->ids);
    free(s->seen);
    s->ids = NULL;
    s->seen = NULL;
}

bool id_set_match(id_set *s, const char *id, size_t len)
{
    long k = vocab_find(s->ids, id, len);
    if (k < 0)
        return false;
    s->seen[k] = true;
    return true;
}

size_t id_set_size(const id_set *s) { return s->ids ? vocab_size(s->ids) : 0; }

size_t id_set_unseen(const id_set *s)
{
    size_t n = 0;
    for (size_t i = 0; i < id_set_size(s); i++)
        n += !s->seen[i];
    return n;
}

int id_set_write_unseen(const id_set *s, FILE *fp)
{
    for (size_t i = 0; i < id_set_size(s); i++)
        if (!s->seen[i] && fprintf(fp, "%s\n", vocab_str(s->ids, i)) < 0)
            return -1;
    return 0;
}

int idfile_write(const char *path, const char *const *ids, size_t n, tells_error *err)
{
    size_t plen = strlen(path);
    char *sum_path = malloc(plen + 8);
    if (!sum_path)
        return tells_error_nomem(err, path, 0);
    memcpy(sum_path, path, plen);
    memcpy(sum_path + plen, ".sha256", 8);
    out_set outs = {0};
    FILE *data = out_set_open(&outs, path, err);
    FILE *sum = data ? out_set_open(&outs, sum_path, err) : NULL;
    free(sum_path);
    if (!sum) {
        out_set_abort(&outs);
        return -1;
    }
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    int bad = 0;
    for (size_t i = 0; i < n && !bad; i++) {
        size_t len = strlen(ids[i]);
        sha256_update(&ctx, len, (const uint8_t *)ids[i]);
        sha256_update(&ctx, 1, (const uint8_t *)"\n");
        bad = fwrite(ids[i], 1, len, data) < len || putc('\n', data) == EOF;
    }
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(&ctx, sizeof digest, digest);
    for (size_t i = 0; i < sizeof digest && !bad; i++)
        bad = fprintf(sum, "%02x", digest[i]) < 0;
    const char *slash = strrchr(path, '/');
    if (!bad)
        bad = fprintf(sum, "  %s\n", slash ? slash + 1 : path) < 0;
    if (bad) {
        out_set_abort(&outs);
        return tells_error_io(err, path, 0, "write error");
    }
    return out_set_commit(&outs, err);
}
