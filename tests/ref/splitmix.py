"""SplitMix64 streams as lib/stats/subsample.c makes them (mix64,
subsample_stream), written from its source: shared by the reference
scripts of this folder (aflite_ref.py, make-unit-tests-ref.py), which
import it from beside them. Standard library only."""

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def mix64(z):
    """SplitMix64's finaliser, as lib/stats/subsample.c."""
    z &= MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def stream(seed, rnd, model):
    """subsample_stream(seed, round, model)."""
    s = mix64(seed + GAMMA)
    s = mix64(s + rnd * GAMMA)
    return mix64(s + ((model + 1) & MASK) * GAMMA)
