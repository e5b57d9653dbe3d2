/* The splits files of tells-aflite --splits (analysis/aflite.h): read for
   3 models of 4 rows out of 10, and for the shape the file itself
   suggests (its lines, the numbers on its first line, its largest
   number), within bounds. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "analysis/aflite.h"

static void read_splits(const char *path, size_t models, size_t train, size_t rows)
{
    size_t *s;
    tells_error err;
    tells_error_clear(&err);
    if (fuzz_check(aflite_read_splits(path, models, train, rows, &s, &err), &err,
                   "aflite_read_splits") < 0)
        return;
    for (size_t m = 0; m < models; m++)
        for (size_t i = 0; i < train; i++) {
            if (s[m * train + i] >= rows)
                fuzz_fail("aflite_read_splits", "a row past the last");
            for (size_t j = 0; j < i; j++)
                if (s[m * train + j] == s[m * train + i])
                    fuzz_fail("aflite_read_splits", "a row given twice");
        }
    free(s);
}

FUZZ_TARGET(aflite_splits)
{
    const char *path = fuzz_file("splits.txt", data, size);
    read_splits(path, 3, 4, 10);
    /* Lines, numbers on the first line, the largest number (capped). */
    size_t lines = 0, first = 0, largest = 0;
    for (size_t i = 0; i < size;) {
        if (data[i] < '0' || data[i] > '9') {
            lines += data[i++] == '\n';
            continue;
        }
        size_t v = 0;
        for (; i < size && data[i] >= '0' && data[i] <= '9'; i++)
            v = v < 100000 ? v * 10 + (data[i] - '0') : v;
        first += lines == 0;
        largest = v > largest ? v : largest;
    }
    if (size > 0 && data[size - 1] != '\n')
        lines++;
    if (lines > 0 && lines <= 64 && first > 0 && first <= 1000 && largest < 100000)
        read_splits(path, lines, first, largest + 1);
    return 0;
}
