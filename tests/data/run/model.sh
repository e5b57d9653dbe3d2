#!/bin/sh
# A deterministic test model for tells-run: reads one case per line and
# answers at once. "caused" cases get probabilities (class order 0 1),
# lower for zoloft; "gave" or "after" (any case) is 1; "itch" flips INV.
exec sed -u -e '/zoloft caused/{s/.*/1 0.4 0.6/;b' -e '}' \
    -e '/caused/{s/.*/1 0.2 0.8/;b' -e '}' \
    -e '/[Gg]ave\|[Aa]fter/{s/.*/1/;b' -e '}' \
    -e 's/.*/0/'
