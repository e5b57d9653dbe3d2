/* NumPy .npy files holding a matrix of numbers, so that Python users can
   load tells' embeddings with numpy.load and hand theirs to tells, and
   arrays of strings (the MedNLI study's partition ids).
   Written as format version 1.0, little-endian float32 ('<f4'), C order,
   header padded to 64 bytes as NumPy itself writes it. Read: versions 1.0,
   2.0 and 3.0, float32 or float64 of either byte order (float64 is
   converted to float32), C or Fortran order, one or two dimensions (a
   vector is one column). */
#ifndef TELLS_NPY_H
#define TELLS_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/error.h"

typedef struct npy_matrix {
    float *data;     /* rows x cols, row-major */
    size_t rows, cols;
} npy_matrix;

/* Reads a whole file; on failure m is empty and err names the file.
   Memory for the data is only taken once the input is known to hold
   what the header claims (a regular file by its size, a pipe by reading
   it); a header that claims more is the error "the header claims N
   bytes of data (a R x C matrix), the file has M". */
int npy_read(const char *path, npy_matrix *m, tells_error *err);
void npy_free(npy_matrix *m);

/* Called for each string of an array in order: s is UTF-8 of len bytes,
   NUL-terminated; index counts from 0. Returns -1 (with err set) to stop. */
typedef int (*npy_string_fn)(const char *s, size_t len, size_t index, void *ctx,
                             tells_error *err);
/* Reads a one-dimensional array of fixed-width strings, as NumPy saves a
   list of str ('<U10': UCS-4, either byte order) or of bytes ('|S10'),
   format version 1.0, 2.0 or 3.0, and hands each to add: UCS-4 is
   converted to UTF-8, and the NULs that pad a string to the width are
   dropped. A NUL within a string, a code point that is not a character
   (a surrogate, beyond U+10FFFF), another data type or more than one
   dimension is an error, checked as npy_read checks its input. */
int npy_read_strings(const char *path, npy_string_fn add, void *ctx, tells_error *err);

/* The writers fail on a write only: they return -1 and leave the error to
   the caller (out_status). */

/* Writes the header of a rows x cols float32 matrix; the caller then
   writes rows * cols floats with npy_write_rows. */
int npy_write_header(FILE *fp, size_t rows, size_t cols);
/* Writes floats in the file's byte order (little-endian). */
int npy_write_rows(FILE *fp, const float *data, size_t count);
/* Header and data in one call. */
int npy_write(FILE *fp, const float *data, size_t rows, size_t cols);
/* npy_write as an out_writer: matrix is an npy_matrix; err stays clear. */
int npy_write_matrix(FILE *fp, void *matrix, tells_error *err);

/* The first value that is NaN or infinite, in row-major order: returns
   false when there is none, else sets *row and *col. */
bool npy_find_nonfinite(const float *data, size_t rows, size_t cols,
                        size_t *row, size_t *col);

#endif
