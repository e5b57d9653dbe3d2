#!/usr/bin/python3
"""Writes the .npy id files of the tests: arrays of strings as NumPy
saves them, the way the MedNLI study (Herlihy and Rudinger 2021,
crherlihy/clinical_nli_artifacts, src/utils/get_partition_ids.py) saved
its partition_ids/*.npy: np.save of an np.array of str, dtype '<U10'.

Not run by make check: it needs python3-numpy. Run it from the top of the
source tree:

    /usr/bin/python3 tests/ref/make-npy-ids.py

tests/data/ids-*.npy: the layouts tells reads (and some it refuses), for
tests/unit/test-io.c. tests/data/majority-*.npy: the partitions of
tests/baseline-majority.sh (and the other programs' id-file tests), the
same ids as the text files that test writes itself.
"""
import os

import numpy as np
import numpy.lib.format as fmt

OUT = "tests/data"


def save(name, arr, version=None):
    path = os.path.join(OUT, name)
    with open(path, "wb") as f:
        if version is None:
            np.save(f, arr)
        else:
            fmt.write_array(f, arr, version=version)


mixed = ["dev1", "train12345", "d\u00e9j\u00e0-\u00fc", "\U0001F600x", "", "dev1"]
save("ids-u10.npy", np.array(mixed, dtype="<U10"))
save("ids-u10-v2.npy", np.array(mixed, dtype="<U10"), version=(2, 0))
save("ids-u10-v3.npy", np.array(mixed, dtype="<U10"), version=(3, 0))
save("ids-u-big.npy", np.array(mixed, dtype=">U10"))
save("ids-bytes.npy", np.array([m.encode("utf-8") for m in mixed], dtype="S16"))
save("ids-2d.npy", np.array([["a", "b"], ["c", "d"]], dtype="<U3"))
save("ids-int.npy", np.arange(3, dtype="<i8"))
save("ids-tab.npy", np.array(["ok", "a\tb"], dtype="<U4"))
save("ids-empty.npy", np.array([], dtype="<U10"))

# The worked example of issue 16: dev's easy rows are neutral 65,
# contradiction 25, entailment 4; its difficult rows mostly entailment.
easy = (["n%d" % i for i in range(1, 66)] + ["c%d" % i for i in range(1, 26)]
        + ["e%d" % i for i in range(1, 5)])
difficult = (["e%d" % i for i in range(5, 151)] + ["c%d" % i for i in range(26, 61)]
             + ["n%d" % i for i in range(66, 101)])
save("majority-easy.npy", np.array(easy, dtype="<U10"))
save("majority-difficult.npy", np.array(difficult, dtype="<U10"), version=(2, 0))
