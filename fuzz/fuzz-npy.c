/* NumPy .npy matrices (base/npy.h): what tells-aflite --embeddings
   reads. A matrix read must write and read back unchanged. */
#include <config.h>

#include <string.h>

#include "fuzz.h"
#include "base/npy.h"

FUZZ_TARGET(npy)
{
    const char *path = fuzz_file("matrix.npy", data, size);
    npy_matrix m, back;
    tells_error err;
    tells_error_clear(&err);
    if (fuzz_check(npy_read(path, &m, &err), &err, "npy_read") < 0)
        return 0;
    size_t row, col;
    npy_find_nonfinite(m.data, m.rows, m.cols, &row, &col);
    fuzz_sink sink;
    FILE *fp = fuzz_sink_open(&sink);
    if (npy_write(fp, m.data, m.rows, m.cols) < 0 || fflush(fp) != 0)
        fuzz_fail("npy_write", "write error on a memory stream");
    const char *copy = fuzz_file("copy.npy", sink.buf, sink.len);
    fuzz_sink_close(&sink);
    if (npy_read(copy, &back, &err) < 0) {
        fprintf(stderr, "fuzz: %s\n", err.msg);
        fuzz_fail("npy_write", "the matrix written does not read back");
    }
    if (back.rows != m.rows || back.cols != m.cols ||
        memcmp(back.data, m.data, m.rows * m.cols * sizeof *m.data) != 0)
        fuzz_fail("npy_write", "the matrix written reads back differently");
    npy_free(&back);
    npy_free(&m);
    return 0;
}
