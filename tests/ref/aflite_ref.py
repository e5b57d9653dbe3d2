#!/usr/bin/python3
"""A scikit-learn reference for tells-aflite, and the generator of its test
matrices.

Not run by make check: it needs the Debian packages python3-sklearn and
python3-numpy (run it with /usr/bin/python3; a python3 without
scikit-learn will not do). Two commands:

  aflite_ref.py run --embeddings X.npy PREPARED.tsv [options]
      AFLite as the MedNLI study's reference code runs it (Sakaguchi et al.
      2020): while more than m examples remain, n random train/held-out
      splits with |train| = m, LogisticRegression(random_state=0,
      max_iter=5000) fitted on each train part and predicting its held-out
      part; score = correct / times held out (0 if never held out); the
      top k by score with score >= tau are removed, equal scores in
      tells' order: by the 64-bit hash of the example's key (the first 8
      bytes of the SHA-256 of its id) in the round's tie stream of --seed
      (tie_order below; lib/stats/subsample.c), so the same examples go
      whatever the order of the rows;
      stop when fewer than k were removed or fewer than m remain. Unlike
      that code it keys examples by their row, not by the mean of their
      embedding, so duplicate rows keep their own ids.
      --splits FILE takes the first round's training sets from FILE (one
      line per model, 0-based row indices separated by spaces), as
      tells-aflite --splits does; --write-splits FILE writes the ones it
      drew. --rounds R stops after R rounds (for timing). Writes
      --scores, --easy and --difficult in tells-aflite's formats and a
      per-round line with its wall time on stderr.

  aflite_ref.py gaussian --rows N --dim D --signal S --seed SEED OUT.npy OUT.tsv
      A synthetic matrix: labels drawn uniformly from three classes, rows
      N(0, I) plus S times a random unit vector of their class (the
      planted signal), written as float32 .npy and a prepared TSV whose
      ids are g-00000... (premise and hypothesis "x"). Written in
      blocks, so 550,000 rows need little memory.

  aflite_ref.py fixtures DIR
      The reference numbers of make check, in DIR (tests/data):
      logreg-x.npy (200 x 5 float32, features of unequal scale and
      offset) with logreg-y.txt (three classes) and logreg-ref.tsv, the
      coef_ and intercept_ of LogisticRegression(tol=1e-10,
      max_iter=10000) fitted on rows 0-149 with three classes and with two
      (class 2 as 1), to 17 digits; npy-*.npy, one 3 x 4 matrix in the
      layouts NumPy can write (float64, big-endian, Fortran order, a
      vector, format 2.0); aflite-x.npy and aflite.tsv (600 x 8 Gaussian,
      signal 1.2), aflite-splits.txt (8 models, m = 240) and
      aflite-ref.tsv, the reference's first-round scores with those splits.
"""
import argparse
import hashlib
import sys
import time

import numpy as np
from sklearn.linear_model import LogisticRegression

from splitmix import GAMMA, MASK, mix64, stream   # beside this script


def id_key(i):
    return int.from_bytes(hashlib.sha256(i.encode()).digest()[:8], "big")


def tie_order(keys, seed, rnd):
    """An example's place among equal scores: its key's hash in the tie
    stream of the seed and the round (model number 2^64 - 1)."""
    s = stream(seed, rnd, MASK)
    return [mix64(s + k * GAMMA) for k in keys]


def read_prepared(path):
    ids, labels = [], []
    with open(path, encoding="utf-8") as f:
        header = f.readline()
        if not header.startswith("id\tsplit\tlabel\t"):
            sys.exit(f"{path}: not a prepared TSV")
        for line in f:
            cells = line.rstrip("\n").split("\t")
            ids.append(cells[0])
            labels.append(cells[2])
    return ids, labels


def read_splits(path, n, m, size):
    splits = []
    with open(path) as f:
        for line in f:
            rows = [int(x) for x in line.split()]
            if len(rows) != m or len(set(rows)) != m or min(rows) < 0 or max(rows) >= size:
                sys.exit(f"{path}: line {len(splits) + 1}: not {m} distinct rows below {size}")
            splits.append(np.array(rows))
    if len(splits) != n:
        sys.exit(f"{path}: {len(splits)} lines, expected {n}")
    return splits


def run(args):
    ids, labels = read_prepared(args.prepared)
    X = np.load(args.embeddings)
    if X.shape[0] != len(ids):
        sys.exit("row counts differ")
    classes = sorted(set(labels))
    y = np.array([classes.index(l) for l in labels])
    rng = np.random.default_rng(args.seed)
    keys = [id_key(i) for i in ids]
    alive = np.arange(len(ids))          # rows of X still in D'
    removed_in = np.zeros(len(ids), dtype=int)
    score_rows = []
    first_splits = read_splits(args.splits, args.n, args.m, len(ids)) if args.splits else None
    written = []
    rnd = 0
    while len(alive) > args.m:
        rnd += 1
        t0 = time.time()
        size = len(alive)
        correct = np.zeros(size)
        held = np.zeros(size)
        Xa = X[alive]
        ya = y[alive]
        for j in range(args.n):
            if rnd == 1 and first_splits is not None:
                train = first_splits[j]
            else:
                train = rng.permutation(size)[: args.m]
            if rnd == 1:
                written.append(train)
            mask = np.zeros(size, dtype=bool)
            mask[train] = True
            test = np.flatnonzero(~mask)
            clf = LogisticRegression(random_state=0, max_iter=5000).fit(Xa[train], ya[train])
            pred = clf.predict(Xa[test])
            held[test] += 1
            correct[test] += pred == ya[test]
        score = np.where(held > 0, correct / np.maximum(held, 1), 0.0)
        tie = tie_order([keys[r] for r in alive], args.seed, rnd)
        order = sorted(range(size), key=lambda i: (-score[i], tie[i], alive[i]))
        chosen = [i for i in order if score[i] >= args.tau][: args.k]
        for i in range(size):
            score_rows.append((rnd, alive[i], score[i], int(held[i])))
        removed_in[alive[chosen]] = rnd
        keep = np.ones(size, dtype=bool)
        keep[chosen] = False
        print(f"round {rnd}: {size} remain, removed {len(chosen)}, "
              f"{time.time() - t0:.1f} s", file=sys.stderr, flush=True)
        alive = alive[keep]
        if len(chosen) < args.k or len(alive) < args.m:
            break
        if args.rounds and rnd >= args.rounds:
            break
    if args.write_splits:
        with open(args.write_splits, "w") as f:
            for train in written:
                f.write(" ".join(str(int(i)) for i in train) + "\n")
    if args.scores:
        with open(args.scores, "w") as f:
            f.write("round\tid\tscore\theld_out\tremoved_in_round\n")
            for rnd_, row, s, h in score_rows:
                r = removed_in[row]
                f.write(f"{rnd_}\t{ids[row]}\t{s:.6f}\t{h}\t{r if r else '-'}\n")
    for path, want in ((args.easy, True), (args.difficult, False)):
        if path:
            with open(path, "w") as f:
                for row in range(len(ids)):
                    if (removed_in[row] > 0) == want:
                        f.write(ids[row] + "\n")


def gaussian(args):
    rng = np.random.default_rng(args.seed)
    means = rng.standard_normal((3, args.dim))
    means /= np.linalg.norm(means, axis=1, keepdims=True)
    labels = ["contradiction", "entailment", "neutral"]
    with open(args.out_npy, "wb") as f, open(args.out_tsv, "w") as t:
        header = {"descr": "<f4", "fortran_order": False, "shape": (args.rows, args.dim)}
        np.lib.format.write_array_header_1_0(f, header)
        t.write("id\tsplit\tlabel\tpremise\thypothesis\n")
        block = 65536
        for start in range(0, args.rows, block):
            rows = min(block, args.rows - start)
            y = rng.integers(0, 3, rows)
            X = rng.standard_normal((rows, args.dim)) + args.signal * means[y]
            f.write(X.astype("<f4").tobytes())
            for i in range(rows):
                t.write(f"g-{start + i:05d}\tall\t{labels[y[i]]}\tx\tx\n")


def tight_optimum(X, y, outs):
    """LogisticRegression()'s objective (C = 1), summed log loss plus half
    the squared weights, minimised by SciPy's L-BFGS-B to a tiny gradient."""
    from scipy.optimize import minimize
    from scipy.special import logsumexp
    n, dim = X.shape

    def f(p):
        W = p[: outs * dim].reshape(outs, dim)
        b = p[outs * dim:]
        Z = X @ W.T + b
        if outs == 1:
            z = Z[:, 0]
            loss = np.sum(np.logaddexp(0, z) - y * z)
            R = (1 / (1 + np.exp(-z)) - y)[:, None]
        else:
            lse = logsumexp(Z, axis=1)
            loss = np.sum(lse - Z[np.arange(n), y])
            R = np.exp(Z - lse[:, None])
            R[np.arange(n), y] -= 1
        g = np.concatenate([(R.T @ X + W).ravel(), R.sum(0)])
        return loss + 0.5 * np.sum(W * W), g

    def hessian(p):
        W = p[: outs * dim].reshape(outs, dim)
        b = p[outs * dim:]
        Z = X @ W.T + b
        X1 = np.hstack([X, np.ones((n, 1))])
        if outs == 1:
            q = 1 / (1 + np.exp(-Z[:, 0]))
            P = (q * (1 - q))[:, None, None]
        else:
            Q = np.exp(Z - logsumexp(Z, axis=1)[:, None])
            P = np.einsum("ic,cd->icd", Q, np.eye(outs)) - np.einsum("ic,id->icd", Q, Q)
        # H[(c,j),(d,k)] = sum_i P[i,c,d] X1[i,j] X1[i,k]; weights first, then intercepts
        H = np.einsum("icd,ij,ik->cjdk", P, X1, X1).reshape(outs * (dim + 1), outs * (dim + 1))
        order = [c * (dim + 1) + j for c in range(outs) for j in range(dim)] + \
                [c * (dim + 1) + dim for c in range(outs)]
        H = H[np.ix_(order, order)]
        H[: outs * dim, : outs * dim] += np.eye(outs * dim)
        return H

    r = minimize(f, np.zeros(outs * (dim + 1)), jac=True, method="L-BFGS-B",
                 options={"gtol": 1e-10, "maxiter": 100000, "maxfun": 100000})
    p = r.x
    for _ in range(20):   # Newton steps to the bottom
        g = f(p)[1]
        if np.abs(g).max() < 1e-11:
            break
        p = p - np.linalg.lstsq(hessian(p), g, rcond=None)[0]
    g = f(p)[1]
    if np.abs(g).max() > 1e-9:
        sys.exit(f"no tight optimum: gradient {np.abs(g).max()}")
    return p[: outs * dim].reshape(outs, dim), p[outs * dim:]


def fixtures(args):
    d = args.dir
    rng = np.random.default_rng(20261122)
    X = (rng.standard_normal((200, 5)) * [1, 3, 0.5, 10, 2] + [0, 5, -2, 40, 1]).astype(np.float32)
    y = rng.integers(0, 3, 200)
    X[:, 0] += y  # a signal
    X[:, 2] -= 0.5 * y
    np.save(f"{d}/logreg-x.npy", X)
    np.savetxt(f"{d}/logreg-y.txt", y, fmt="%d")
    with open(f"{d}/logreg-ref.tsv", "w") as f:
        f.write("case\toutput\tcoef_and_intercept\n")
        for case, yy in (("multinomial", y), ("binary", (y == 2).astype(int))):
            Xt, yt = X[:150].astype(np.float64), yy[:150]
            clf = LogisticRegression(tol=1e-10, max_iter=10000).fit(Xt, yt)
            # scikit-learn's L-BFGS stops on its relative-decrease test
            # before the optimum of this ill-conditioned problem; the same
            # objective minimised to a gradient of 1e-9 is the reference.
            best = tight_optimum(Xt, yt, clf.coef_.shape[0])
            for name, W, b in ((case, best[0], best[1]),
                               (case + "-sklearn", clf.coef_, clf.intercept_)):
                for o in range(W.shape[0]):
                    vals = list(W[o]) + [b[o]]
                    f.write(f"{name}\t{o}\t" + " ".join(repr(float(v)) for v in vals) + "\n")
    M = np.arange(12, dtype=np.float64).reshape(3, 4) / 8 - 0.5
    np.save(f"{d}/npy-f4.npy", M.astype("<f4"))
    np.save(f"{d}/npy-f8-big.npy", M.astype(">f8"))
    np.save(f"{d}/npy-fortran.npy", np.asfortranarray(M.astype("<f4")))
    np.save(f"{d}/npy-vector.npy", M[:, 0].astype("<f4"))
    with open(f"{d}/npy-v2.npy", "wb") as f:
        np.lib.format.write_array_header_2_0(f, {"descr": "<f4", "fortran_order": False, "shape": (3, 4)})
        f.write(M.astype("<f4").tobytes())
    # AFLite's first round against the reference
    g = argparse.Namespace(rows=600, dim=8, signal=1.2, seed=3, out_npy=f"{d}/aflite-x.npy",
                           out_tsv=f"{d}/aflite.tsv")
    gaussian(g)
    r = argparse.Namespace(prepared=g.out_tsv, embeddings=g.out_npy, n=8, m=240, k=50, tau=0.75,
                           seed=5, splits=None, write_splits=f"{d}/aflite-splits.txt", rounds=1,
                           scores=f"{d}/aflite-ref.tsv", easy=None, difficult=None)
    run(r)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("prepared")
    r.add_argument("--embeddings", required=True)
    r.add_argument("-n", type=int, default=64)
    r.add_argument("-m", type=int, default=5620)
    r.add_argument("-k", type=int, default=500)
    r.add_argument("--tau", type=float, default=0.75)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--splits")
    r.add_argument("--write-splits")
    r.add_argument("--rounds", type=int, default=0)
    r.add_argument("--scores")
    r.add_argument("--easy")
    r.add_argument("--difficult")
    g = sub.add_parser("gaussian")
    g.add_argument("--rows", type=int, required=True)
    g.add_argument("--dim", type=int, default=300)
    g.add_argument("--signal", type=float, required=True)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("out_npy")
    g.add_argument("out_tsv")
    f = sub.add_parser("fixtures")
    f.add_argument("dir")
    args = p.parse_args()
    {"run": run, "gaussian": gaussian, "fixtures": fixtures}[args.cmd](args)


if __name__ == "__main__":
    main()
