#!/usr/bin/python3
"""Training dynamics and the reference cartography statistics for
tests/carto.sh, with NumPy from the definitions (Swayamdipta et al. 2020)
and the selection of allenai/cartography's
cartography/selection/train_dy_filtering.py:

  tests/data/carto/dynamics_epoch_K.jsonl (K = 0..4)  the cartography
      code's format: 150 examples, 3 classes, logits drawn at random and
      drifting towards the gold class for most examples
  tests/data/carto/epoch-K.tsv       the same epochs as tells predictions
      (id, split, gold, predicted, p_0, p_1, p_2): the softmax of the
      logits with 17 significant digits
  tests/data/carto-ref.tsv           id, gold, confidence (mean gold
      probability), variability (np.std, ddof 0), correctness (share of
      epochs whose argmax is gold), forgetfulness (right then wrong at the
      next epoch), each with 10 decimals
  tests/data/carto-{easy,ambiguous,hard}.ids   the regions, a partition:
      m = int(0.33 N) + 1 (the code's head(n=num_samples+1)); ambiguous
      the m of the highest variability; of the others, easy-to-learn the
      half (the larger when odd) of the highest confidence, hard-to-learn
      the rest; ties by id in byte order. (train_dy_filtering.py selects
      each region by its metric alone, so that its regions overlap and
      miss examples: 28 of these 150.)

make check does not run this; it compares tells with the files."""
import json
import os
import sys

import numpy as np

out = sys.argv[1] if len(sys.argv) > 1 else "tests/data"
os.makedirs(out + "/carto", exist_ok=True)
rng = np.random.default_rng(15)
N, K, E = 150, 3, 5
guids = [int(g) for g in rng.choice(10**12, size=N, replace=False)]
gold = rng.integers(0, K, size=N)
drift = rng.uniform(-0.5, 1.5, size=N)
logits = np.zeros((E, N, K))
for e in range(E):
    logits[e] = rng.normal(0, 1, size=(N, K))
    logits[e, np.arange(N), gold] += drift * e
probs = np.exp(logits - logits.max(axis=2, keepdims=True))
probs /= probs.sum(axis=2, keepdims=True)

for e in range(E):
    order = rng.permutation(N) if e else np.arange(N)   # any order after the first
    with open(f"{out}/carto/dynamics_epoch_{e}.jsonl", "w") as f:
        for i in order:
            f.write(json.dumps({"guid": guids[i], f"logits_epoch_{e}":
                                [round(float(v), 10) for v in logits[e, i]],
                                "gold": int(gold[i])}, separators=(",", ":")) + "\n")
    with open(f"{out}/carto/epoch-{e}.tsv", "w") as f:
        f.write("id\tsplit\tgold\tpredicted\tp_0\tp_1\tp_2\n")
        for i in order:
            f.write("%d\ttrain\t%d\t%d\t%s\n" % (guids[i], gold[i], int(np.argmax(probs[e, i])),
                                                  "\t".join("%.17g" % v for v in probs[e, i])))

# The statistics from the logits as written (rounded to 10 decimals).
written = np.round(logits, 10)
p = np.exp(written - written.max(axis=2, keepdims=True))
p /= p.sum(axis=2, keepdims=True)
true = p[:, np.arange(N), gold]                      # E x N
right = np.argmax(written, axis=2) == gold[None, :]  # first maximum, as np.argmax
conf = true.mean(axis=0)
var = true.std(axis=0)
corr = right.sum(axis=0) / E
forget = [sum(1 for e in range(E - 1) if right[e, i] and not right[e + 1, i]) for i in range(N)]
with open(f"{out}/carto-ref.tsv", "w") as f:
    f.write("id\tgold\tconfidence\tvariability\tcorrectness\tforgetfulness\n")
    for i in range(N):
        f.write("%d\t%d\t%.10f\t%.10f\t%.10f\t%d\n" % (guids[i], gold[i], conf[i], var[i],
                                                       corr[i], forget[i]))
take = int(0.33 * N) + 1
ids = [str(g) for g in guids]


def by(key, among):
    """among sorted by key descending, ties by id in byte order."""
    return sorted(among, key=lambda i: (-key[i], ids[i].encode()))


ambiguous = set(by(var, range(N))[:take])
rest = by(conf, [i for i in range(N) if i not in ambiguous])
easy = set(rest[:(len(rest) + 1) // 2])
regions = {"easy": easy, "ambiguous": ambiguous,
           "hard": set(range(N)) - ambiguous - easy}
for name, chosen in regions.items():
    with open(f"{out}/carto-{name}.ids", "w") as f:
        for i in range(N):
            if i in chosen:
                f.write("%d\n" % guids[i])
