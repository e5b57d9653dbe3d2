#!/bin/sh
# tells-stat on small files whose numbers are worked out by hand below:
# metrics (single- and multi-label), McNemar, Friedman, Welch, the FDR
# correction and contrast consistency; the resampling tests are
# deterministic for a seed and give p = 1 for a system against itself.
. "${top_srcdir:-.}/tests/init.sh"

# Eight examples, gold e e e n n c c c.
#   id  A  B  C     correct: A B C
#   1   e  e  n              1 1 0
#   2   e  e  n              1 1 0
#   3   n  e  c              0 1 0
#   4   n  e  c              1 0 0
#   5   c  c  e              0 0 0
#   6   c  c  e              1 1 0
#   7   c  c  n              1 1 0
#   8   e  c  c              0 1 1
printf 'id\tgold\tpredicted\n1\te\te\n2\te\te\n3\te\tn\n4\tn\tn\n5\tn\tc\n6\tc\tc\n7\tc\tc\n8\tc\te\n' >"$tmp/a.tsv"
# B has its columns in another order, an extra column and its rows shuffled.
printf 'p_e\tpredicted\tid\tgold\n0.1\tc\t8\tc\n0.9\te\t1\te\n0.8\te\t2\te\n0.7\te\t3\te\n0.6\te\t4\tn\n0.2\tc\t5\tn\n0.3\tc\t6\tc\n0.1\tc\t7\tc\n' >"$tmp/b.tsv"
printf 'id\tgold\tpredicted\n1\te\tn\n2\te\tn\n3\te\tc\n4\tn\tc\n5\tn\te\n6\tc\te\n7\tc\tn\n8\tc\tc\n' >"$tmp/c.tsv"

# A: tp e 2, n 1, c 2 of gold 3, 2, 3 and predicted 3, 2, 3; accuracy 5/8;
#   P = R = F1 = 2/3, 1/2, 2/3 per class, macro 11/18 = 0.611111;
#   kappa (n tr - sum t_c p_c) / (n^2 - sum t_c p_c) = (40 - 22) / (64 - 22)
#   = 0.428571; MCC 18 / sqrt(42 * 42) = 0.428571.
# B never predicts n: tp c 3, e 3, n 0; predicted c 4, e 4; accuracy 6/8;
#   P c 3/4, e 3/4, n 0 (undefined); R 1, 1, 0; F1 6/7, 6/7, 0;
#   macro P 1.5/3 = 0.5, R 2/3, F1 (12/7)/3 = 0.571429; kappa (48 - 24) /
#   (64 - 24) = 0.6; MCC 24 / sqrt(42 * 32) = 0.654654.
what="metrics --details"
run tells-stat metrics --details "$tmp/a.tsv" "$tmp/b.tsv"
expect 0 ""
sed "s|^|$tmp/|" >"$tmp/expected" <<'EOF'
a.tsv	accuracy	-	0.625000	8
a.tsv	macro_precision	-	0.611111	8
a.tsv	macro_recall	-	0.611111	8
a.tsv	macro_f1	-	0.611111	8
a.tsv	micro_precision	-	0.625000	8
a.tsv	micro_recall	-	0.625000	8
a.tsv	micro_f1	-	0.625000	8
a.tsv	kappa	-	0.428571	8
a.tsv	mcc	-	0.428571	8
a.tsv	labels	c,e,n	3	8
a.tsv	precision	c	0.666667	3
a.tsv	recall	c	0.666667	3
a.tsv	f1	c	0.666667	3
a.tsv	precision	e	0.666667	3
a.tsv	recall	e	0.666667	3
a.tsv	f1	e	0.666667	3
a.tsv	precision	n	0.500000	2
a.tsv	recall	n	0.500000	2
a.tsv	f1	n	0.500000	2
b.tsv	accuracy	-	0.750000	8
b.tsv	macro_precision	-	0.500000	8
b.tsv	macro_recall	-	0.666667	8
b.tsv	macro_f1	-	0.571429	8
b.tsv	micro_precision	-	0.750000	8
b.tsv	micro_recall	-	0.750000	8
b.tsv	micro_f1	-	0.750000	8
b.tsv	kappa	-	0.600000	8
b.tsv	mcc	-	0.654654	8
b.tsv	labels	c,e,n	3	8
b.tsv	precision	c	0.750000	3
b.tsv	recall	c	1.000000	3
b.tsv	f1	c	0.857143	3
b.tsv	precision	e	0.750000	3
b.tsv	recall	e	1.000000	3
b.tsv	f1	e	0.857143	3
b.tsv	precision	n	0.000000	2
b.tsv	recall	n	0.000000	2
b.tsv	f1	n	0.000000	2
EOF
{ printf 'system\tmetric\tclass\tvalue\tsupport\n'; cat "$tmp/expected"; } >"$tmp/metrics.expected"
expect_out "$tmp/metrics.expected"

what="metrics from stdin, without --details"
run tells-stat metrics - <"$tmp/a.tsv"
expect 0 ""
{ printf 'system\tmetric\tclass\tvalue\tsupport\n'; sed -n '1,10s|^[^	]*/a.tsv|stdin|p' "$tmp/expected"; } >"$tmp/stdin.expected"
expect_out "$tmp/stdin.expected"

what="metrics -o writes the same table"
run tells-stat metrics -d -o "$tmp/m.tsv" "$tmp/a.tsv" "$tmp/b.tsv"
expect 0 ""
cmp -s "$tmp/m.tsv" "$tmp/metrics.expected" || fail "$what: file differs"
[ -s "$tmp/out" ] && fail "$what: wrote to stdout"

# One label everywhere: p_e = 1, so kappa is undefined (nan, as
# scikit-learn); MCC's denominator is 0, so it is 0 (as scikit-learn).
printf 'id\tgold\tpredicted\n1\te\te\n2\te\te\n' >"$tmp/one.tsv"
what="metrics with a single label"
run tells-stat metrics "$tmp/one.tsv"
expect 0 ""
[ "$(cut -f 2,4 "$tmp/out" | tr '\t\n' ' ')" = \
  "metric value accuracy 1.000000 macro_precision 1.000000 macro_recall 1.000000 macro_f1 1.000000 micro_precision 1.000000 micro_recall 1.000000 micro_f1 1.000000 kappa nan mcc 0.000000 labels 1 " ] ||
    fail "$what: $(cat "$tmp/out")"

# Multi-label: labels a b c.
#   1 {a,b} {a,b} exact; 2 {a} {a,c}: c fp; 3 {} {b}: b fp; 4 {c} {}: c fn.
#   subset accuracy 1/4; Hamming loss 3 / (4 * 3) = 0.25;
#   a P 1 R 1 F1 1; b P 1/2 R 1 F1 2/3; c P 0 R 0 F1 0;
#   macro P 0.5, R 2/3, F1 5/9 = 0.555556; micro tp 3 fp 2 fn 1:
#   P 0.6, R 0.75, F1 6/9.
printf 'id\tgold\tpredicted\n1\ta,b\tb,a\n2\ta\ta,c\n3\t\tb\n4\tc\t\n' >"$tmp/ml.tsv"
what="metrics --multi-label"
run tells-stat metrics --multi-label -d "$tmp/ml.tsv"
expect 0 ""
sed "s|^|$tmp/|" >"$tmp/expected" <<'EOF'
ml.tsv	subset_accuracy	-	0.250000	4
ml.tsv	hamming_loss	-	0.250000	4
ml.tsv	macro_precision	-	0.500000	4
ml.tsv	macro_recall	-	0.666667	4
ml.tsv	macro_f1	-	0.555556	4
ml.tsv	micro_precision	-	0.600000	4
ml.tsv	micro_recall	-	0.750000	4
ml.tsv	micro_f1	-	0.666667	4
ml.tsv	labels	a,b,c	3	4
ml.tsv	precision	a	1.000000	2
ml.tsv	recall	a	1.000000	2
ml.tsv	f1	a	1.000000	2
ml.tsv	precision	b	0.500000	1
ml.tsv	recall	b	1.000000	1
ml.tsv	f1	b	0.666667	1
ml.tsv	precision	c	0.000000	1
ml.tsv	recall	c	0.000000	1
ml.tsv	f1	c	0.000000	1
EOF
{ printf 'system\tmetric\tclass\tvalue\tsupport\n'; cat "$tmp/expected"; } >"$tmp/ml.expected"
expect_out "$tmp/ml.expected"

# McNemar A against C: A only right on 1 2 4 6 7 (b = 5), C only on 8
# (c = 1). Exact: 2 P(X <= 1), X ~ Bin(6, 1/2) = 2 * 7/64 = 0.21875.
# Chi-squared: (|5 - 1| - 1)^2 / 6 = 1.5, P(chi2_1 >= 1.5) = 0.2206714.
what="mcnemar"
run tells-stat mcnemar --digits 5 "$tmp/a.tsv" "$tmp/c.tsv"
expect 0 ""
expect_out_text "test	statistic	df	p_value	detail
mcnemar_exact	1.000000	-	0.21875	a=$tmp/a.tsv b=$tmp/c.tsv a_only=5 b_only=1 n=8 alternative=two-sided
mcnemar_chi2	1.500000	1	0.22067	a=$tmp/a.tsv b=$tmp/c.tsv a_only=5 b_only=1 n=8 correction=continuity alternative=two-sided"

# Friedman over examples (correctness above): ascending average ranks per
# block sum to A 17.5, B 19, C 11.5; ties sum t(t^2-1) = 7 * 6 + 24 = 66,
# correction 1 - 66 / (3 * 8 * 8) = 0.65625; statistic
# (12 / (3 * 8 * 4) * 799.5 - 96) / 0.65625 = 6 (Cochran's Q is 6 too),
# p = exp(-6/2) = 0.0498; mean ranks, 1 best: 4 - sum/8.
what="friedman"
run tells-stat friedman "$tmp/a.tsv" "$tmp/b.tsv" "$tmp/c.tsv"
expect 0 ""
expect_out_text "test	statistic	df	p_value	detail
friedman	6.000000	2	0.05	blocks=examples n=8 k=3 ties=corrected
friedman_mean_rank	1.812500	-	-	system=$tmp/a.tsv best=1
friedman_mean_rank	1.625000	-	-	system=$tmp/b.tsv best=1
friedman_mean_rank	2.562500	-	-	system=$tmp/c.tsv best=1"

# Friedman over per-seed scores: every seed ranks x > y > z, so the
# statistic is 12 / (3 * 4 * 4) * (12^2 + 8^2 + 4^2) - 48 = 8,
# p = exp(-4) = 0.0183.
printf 'seed\tx\ty\tz\n1\t0.9\t0.8\t0.7\n2\t0.8\t0.7\t0.6\n3\t0.95\t0.9\t0.1\n4\t0.5\t0.4\t0.3\n' >"$tmp/seeds.tsv"
cut -f 2 "$tmp/seeds.tsv" | tail -n +2 >"$tmp/x.txt"
cut -f 3 "$tmp/seeds.tsv" | tail -n +2 >"$tmp/y.txt"
cut -f 4 "$tmp/seeds.tsv" | tail -n +2 >"$tmp/z.txt"
what="friedman --scores"
run tells-stat friedman --scores "$tmp/x.txt" "$tmp/y.txt" "$tmp/z.txt"
expect 0 ""
expect_out_text "test	statistic	df	p_value	detail
friedman	8.000000	2	0.018	blocks=scores n=4 k=3 ties=corrected
friedman_mean_rank	1.000000	-	-	system=$tmp/x.txt best=1
friedman_mean_rank	2.000000	-	-	system=$tmp/y.txt best=1
friedman_mean_rank	3.000000	-	-	system=$tmp/z.txt best=1"
# Nemenyi far in the tail: 2000 blocks ranked alike, mean ranks 3, 2, 1.
# The critical difference has no cap on q (it stopped at q = 40, so
# --alpha 1e-250 gave the value of 1e-176); q_alpha = q / sqrt(2), q from
# mpmath (tests/ref/make-range-tail-ref.py): 40.594574359291, 47.874678498434,
# 52.460809396302. A pair's p-value keeps its log below 1e-308: for k = 3
# and q = 2 sqrt(d) (d = 500, 2000 here) it is 3 erfc(sqrt(d)) to far more
# digits than printed (the pairs' events overlap by e^(-q^2 / 12)):
# 5.3874984e-219 and 9.7489762e-871 (mpmath).
seq 1 2000 >"$tmp/r1.txt"
seq 2 2001 >"$tmp/r2.txt"
seq 3 2002 >"$tmp/r3.txt"
for a in "1e-180 28.704699 0.907722" "1e-250 33.852510 1.070510" "1e-300 37.095394 1.173059"; do
    set -- $a
    what="nemenyi --alpha $1"
    run tells-stat friedman --scores --nemenyi --alpha "$1" "$tmp/r1.txt" "$tmp/r2.txt" "$tmp/r3.txt"
    expect 0 ""
    grep -q "^nemenyi_cd	$3	-	-	alpha=$1 q_alpha=$2 k=3 n=2000\$" "$tmp/out" ||
        fail "$what: $(grep nemenyi_cd "$tmp/out")"
done
what="nemenyi p-values below 1e-308"
run tells-stat friedman --scores --nemenyi --digits 6 "$tmp/r1.txt" "$tmp/r2.txt" "$tmp/r3.txt"
expect 0 ""
grep '^nemenyi	' "$tmp/out" | cut -f 1-4 >"$tmp/pairs"
printf 'nemenyi\t1.000000\t-\t5.3875e-219\nnemenyi\t2.000000\t-\t9.74898e-871\nnemenyi\t1.000000\t-\t5.3875e-219\n' \
    >"$tmp/pairs.want"
cmp -s "$tmp/pairs" "$tmp/pairs.want" || fail "$what: $(cat "$tmp/pairs")"

what="friedman --scores --column"
run tells-stat friedman --scores -c x "$tmp/seeds.tsv" "$tmp/seeds.tsv" "$tmp/seeds.tsv"
expect 0 ""
grep -q '^friedman	0.000000	2	1	blocks=scores n=4 k=3' "$tmp/out" || fail "$what: $(cat "$tmp/out")"

# Welch: x = 1..5 (mean 3, variance 2.5), y = 6 8 10 (mean 8, variance 4):
# t = -5 / sqrt(2.5/5 + 4/3) = -3.692745, df = 1.833333^2 /
# (0.5^2/4 + 1.333333^2/2) = 3.532847; p from SciPy's
# ttest_ind(equal_var=False): 0.026048821 (two-sided), 0.98697559
# (greater), 0.013024410 (less).
printf '1\n2\n\n3\n4\n5\n' >"$tmp/w1.txt"
printf '6\n8\n10\n' >"$tmp/w2.txt"
for alt in two-sided:0.026049 greater:0.98698 less:0.013024; do
    what="welch --alternative ${alt%:*}"
    run tells-stat welch --digits 5 --alternative "${alt%:*}" "$tmp/w1.txt" "$tmp/w2.txt"
    expect 0 ""
    expect_out_text "test	statistic	df	p_value	detail
welch	-3.692745	3.532847	${alt#*:}	a=$tmp/w1.txt b=$tmp/w2.txt n_a=5 n_b=3 mean_a=3.000000 mean_b=8.000000 alternative=${alt%:*}"
done
what="welch on two columns of one file"
run tells-stat welch -c x -c z "$tmp/seeds.tsv"
expect 0 ""
grep -q "^welch	.*	a=$tmp/seeds.tsv\[x\] b=$tmp/seeds.tsv\[z\] n_a=4 n_b=4 " "$tmp/out" ||
    fail "$what: $(cat "$tmp/out")"

# Benjamini-Hochberg, m = 4 (the '-' row has no test): sorted 1e-400,
# 0.01, 0.03, 0.04 times 4/1, 4/2, 4/3, 4/4 = 4e-400, 0.02, 0.04, 0.04;
# the step-up minimum keeps them. At alpha 0.03 only ranks 1 and 2 pass
# (0.01 <= 2 * 0.03 / 4; 0.03 > 3 * 0.03 / 4).
printf 'test\tp_value\na\t0.01\nb\t0.04\nc\t-\nd\t0.03\ne\t1e-400\n' >"$tmp/p.tsv"
what="fdr"
run tells-stat fdr "$tmp/p.tsv"
expect 0 ""
m='benjamini-hochberg m=4 alpha=0.05'
expect_out_text "test	p_value	p_adjusted	reject	fdr
a	0.01	0.02	yes	$m
b	0.04	0.04	yes	$m
c	-	-	-	-
d	0.03	0.04	yes	$m
e	1e-400	4e-400	yes	$m"
what="fdr --alpha 0.03 from stdin"
run tells-stat fdr --alpha 0.03 <"$tmp/p.tsv"
expect 0 ""
m='benjamini-hochberg m=4 alpha=0.03'
expect_out_text "test	p_value	p_adjusted	reject	fdr
a	0.01	0.02	yes	$m
b	0.04	0.04	no	$m
c	-	-	-	-
d	0.03	0.04	no	$m
e	1e-400	4e-400	yes	$m"

what="a pipeline of tests into fdr"
{
    tells-stat mcnemar "$tmp/a.tsv" "$tmp/c.tsv"
    tells-stat friedman "$tmp/a.tsv" "$tmp/b.tsv" "$tmp/c.tsv" | tail -n +2
} >"$tmp/tests.tsv"
run tells-stat fdr -o "$tmp/fdr.tsv" "$tmp/tests.tsv"
expect 0 ""
[ "$(cut -f 6,7 "$tmp/fdr.tsv" | tr '\t\n' ' ')" = \
  "p_adjusted reject 0.22 no 0.22 no 0.15 no - - - - - - " ] ||
    fail "$what: $(cat "$tmp/fdr.tsv")"

# Contrast groups {1: 2 3 8} (two rows), {4: 5}, {6: 7}.
# A right on 1 2 4 6 7: consistent only {6: 7}; originals 3/3; contrasts
# 2 7 of 2 3 8 5 7 = 2/5. B right on 1 2 3 6 7 8: {1: 2 3 8} and {6: 7};
# originals 1 6 = 2/3; contrasts 2 3 8 7 = 4/5.
printf 'original\tcontrast\n1\t2\t3\n4\t5\n6\t7\n1\t8\n' >"$tmp/groups.tsv"
what="contrast"
run tells-stat contrast --groups "$tmp/groups.tsv" "$tmp/a.tsv" "$tmp/b.tsv"
expect 0 ""
expect_out_text "system	metric	class	value	support
$tmp/a.tsv	consistency	-	0.333333	3
$tmp/a.tsv	original_accuracy	-	1.000000	3
$tmp/a.tsv	contrast_accuracy	-	0.400000	5
$tmp/b.tsv	consistency	-	0.666667	3
$tmp/b.tsv	original_accuracy	-	0.666667	3
$tmp/b.tsv	contrast_accuracy	-	0.800000	5"

# Resampling: B (6/8) against A (5/8). The output is fixed by GSL's
# mt19937 stream for the seed; p = (count + 1) / (samples + 1).
for t in bootstrap permutation; do
    what="$t is deterministic"
    run tells-stat $t -n 999 -s 5 "$tmp/b.tsv" "$tmp/a.tsv"
    expect 0 ""
    cp "$tmp/out" "$tmp/$t.1"
    run tells-stat $t -n 999 -s 5 "$tmp/b.tsv" "$tmp/a.tsv"
    expect_out "$tmp/$t.1"
    line=$(tail -n 1 "$tmp/$t.1")
    count=$(echo "$line" | sed 's/.* count=\([0-9]*\) .*/\1/')
    p=$(echo "$line" | cut -f 4)
    [ "$(awk -v c="$count" 'BEGIN { printf "%.2g", (c + 1) / 1000 }')" = "$p" ] ||
        fail "$what: p $p is not (count + 1) / (samples + 1) for count $count"
    case $line in
    "$t	0.125000	-	"*"	metric=accuracy a=$tmp/b.tsv b=$tmp/a.tsv a_value=0.750000 b_value=0.625000 n=8 samples=999 seed=5 count="*" alternative=two-sided") ;;
    *) fail "$what: $line" ;;
    esac
    run tells-stat $t -n 999 -s 6 "$tmp/b.tsv" "$tmp/a.tsv"
    cmp -s "$tmp/out" "$tmp/$t.1" && fail "$t: seed 6 gives the same as seed 5"

    for m in accuracy macro_f1 micro_f1; do
        what="$t --metric $m of a system against itself"
        run tells-stat $t -m $m -n 200 "$tmp/a.tsv" "$tmp/a.tsv"
        expect 0 ""
        expect_out_text "test	statistic	df	p_value	detail
$t	0.000000	-	1	metric=$m a=$tmp/a.tsv b=$tmp/a.tsv a_value=0.$( [ $m = macro_f1 ] && echo 611111 || echo 625000) b_value=0.$( [ $m = macro_f1 ] && echo 611111 || echo 625000) n=8 samples=200 seed=1 count=200 alternative=two-sided"
    done
    what="$t --multi-label"
    run tells-stat $t --multi-label -n 100 "$tmp/ml.tsv" "$tmp/ml.tsv"
    expect 0 ""
    grep -q "metric=subset_accuracy .* count=100 " "$tmp/out" || fail "$what: $(cat "$tmp/out")"
done

# No resample as extreme as the data (A right on 40 examples, B on none):
# p is its floor 1/(samples + 1), a bound, which detail says.
awk 'BEGIN { print "id\tgold\tpredicted"; for (i = 0; i < 40; i++) print i "\te\te" }' >"$tmp/all.tsv"
awk 'BEGIN { print "id\tgold\tpredicted"; for (i = 0; i < 40; i++) print i "\te\tn" }' >"$tmp/none.tsv"
for t in bootstrap permutation; do
    what="$t at its floor"
    run tells-stat $t -n 999 "$tmp/all.tsv" "$tmp/none.tsv"
    expect 0 ""
    expect_out_text "test	statistic	df	p_value	detail
$t	1.000000	-	0.001	metric=accuracy a=$tmp/all.tsv b=$tmp/none.tsv a_value=1.000000 b_value=0.000000 n=40 samples=999 seed=1 count=0 alternative=two-sided p_bound=<1/1000"
done

# A p-value below the smallest double: 1100 examples only A gets right.
awk 'BEGIN { print "id\tgold\tpredicted"; for (i = 0; i < 1200; i++) print i "\te\te" }' >"$tmp/right.tsv"
awk 'BEGIN { print "id\tgold\tpredicted"; for (i = 0; i < 1200; i++) print i "\te\t" (i < 1100 ? "n" : "e") }' >"$tmp/wrong.tsv"
# Exact: 2 * 2^-1100 = 2^-1099 = 1.5e-331 (log10 = -1099 * 0.30103 = -330.83);
# chi-squared (1100 - 1)^2 / 1100 = 1098.000909, p = erfc(sqrt(x/2)) =
# 8.98e-241 (both p-values from mpmath at 30 digits).
what="mcnemar far below 1e-308"
run tells-stat mcnemar "$tmp/right.tsv" "$tmp/wrong.tsv"
expect 0 ""
[ "$(cut -f 1-4 "$tmp/out" | tr '\t\n' ' ')" = \
  "test statistic df p_value mcnemar_exact 0.000000 - 1.5e-331 mcnemar_chi2 1098.000909 1 9e-241 " ] ||
    fail "$what: $(cat "$tmp/out")"

what="CRLF input and a missing final newline give the same table"
printf 'id\tgold\tpredicted\r\n1\te\te\r\n2\te\tn\r\n3\tn\tn' >"$tmp/crlf.tsv"
printf 'id\tgold\tpredicted\n1\te\te\n2\te\tn\n3\tn\tn\n' >"$tmp/lf.tsv"
tells-stat metrics -d "$tmp/lf.tsv" | sed 's|^[^	]*lf.tsv|x|' >"$tmp/lf.out"
run tells-stat metrics -d "$tmp/crlf.tsv"
expect 0 ""
sed 's|^[^	]*crlf.tsv|x|' "$tmp/out" >"$tmp/crlf.out"
cmp -s "$tmp/lf.out" "$tmp/crlf.out" || fail "$what"
# ---- issue 16: a fixed label set ----
# Six labels a..f, f absent from this split; one error (d missed in 2):
# Hamming loss 1 / (3 * 5) = 0.066667 over the 5 labels that occur, as the
# labels row says, and 1 / (3 * 6) = 0.055556 with --labels. Macro F1: a b
# c e right (1), d 0, f 0: 4/5 and 4/6.
printf 'id\tgold\tpredicted\n1\ta,b\ta,b\n2\tc,d\tc\n3\te\te\n' >"$tmp/six.tsv"
what="metrics --multi-label says which labels it used"
run tells-stat metrics --multi-label "$tmp/six.tsv"
expect 0 ""
[ "$(cut -f 2-4 "$tmp/out" | grep -E '^(hamming_loss|macro_f1|labels)' | tr '\t\n' '  ')" = \
  "hamming_loss - 0.066667 macro_f1 - 0.800000 labels a,b,c,d,e 5 " ] ||
    fail "$what: $(cat "$tmp/out")"
printf 'f\ne\nd\nc\nb\na\n' >"$tmp/labels.txt"
for spec in a,b,c,d,e,f:a,b,c,d,e,f "@$tmp/labels.txt:f,e,d,c,b,a"; do
    what="metrics --multi-label --labels ${spec%:*}"
    run tells-stat metrics --multi-label --labels "${spec%:*}" "$tmp/six.tsv"
    expect 0 ""
    grep -q "	hamming_loss	-	0.055556	3$" "$tmp/out" || fail "$what: $(cat "$tmp/out")"
    grep -q "	macro_f1	-	0.666667	3$" "$tmp/out" || fail "$what: $(cat "$tmp/out")"
    grep -q "	labels	${spec#*:}	6	3$" "$tmp/out" || fail "$what: $(cat "$tmp/out")"
done
# Per-class rows follow the order of --labels, absent labels included.
what="metrics --details --labels @FILE: rows in the file's order"
run tells-stat metrics -d --multi-label -l "@$tmp/labels.txt" "$tmp/six.tsv"
expect 0 ""
[ "$(grep -E '	(labels|f1)	' "$tmp/out" | cut -f 3,4 | tr '\t\n' '  ')" = \
  "f,e,d,c,b,a 6 f 0.000000 e 1.000000 d 0.000000 c 1.000000 b 1.000000 a 1.000000 " ] ||
    fail "$what: $(cat "$tmp/out")"
# Single-label: B never predicts n; with a fourth label x, macro recall is
# (1 + 1 + 0 + 0) / 4 instead of / 3.
what="metrics --labels, single-label"
run tells-stat metrics -l c,e,n,x "$tmp/b.tsv"
expect 0 ""
grep -q "	macro_recall	-	0.500000	8$" "$tmp/out" || fail "$what: $(cat "$tmp/out")"
grep -q "	labels	c,e,n,x	4	8$" "$tmp/out" || fail "$what: $(cat "$tmp/out")"
what="bootstrap -m macro_f1 --labels"
run tells-stat bootstrap -m macro_f1 -n 50 -l c,e,n,x "$tmp/b.tsv" "$tmp/b.tsv"
expect 0 ""
grep -q "a_value=0.428571 b_value=0.428571 " "$tmp/out" || fail "$what: $(cat "$tmp/out")"

# ---- issue 16: paired tests ----
# Wilcoxon, d = 1 -2 3 4 5: R+ = 13, R- = 2, T = 2; exact (5 pairs, no
# zeros or ties): p = 2 P(R+ <= 2) = 2 * 3/32 = 0.1875 (SciPy's wilcoxon).
printf '2\n1\n4\n5\n6\n' >"$tmp/wa.txt"
printf '1\n3\n1\n1\n1\n' >"$tmp/wb.txt"
what="wilcoxon, exact"
run tells-stat wilcoxon --digits 4 "$tmp/wa.txt" "$tmp/wb.txt"
expect 0 ""
expect_out_text "test	statistic	df	p_value	detail
wilcoxon	2.000000	-	0.1875	a=$tmp/wa.txt b=$tmp/wb.txt n=5 zeros=0 r_plus=13 r_minus=2 tied_groups=0 method=exact alternative=two-sided"
# A zero difference added: dropped, and the normal approximation with
# the continuity correction: z = (2 - 7.5 + 0.5) / sqrt(5 6 11 / 24) =
# -1.348400, p = 0.17753 (SciPy's wilcoxon(method='approx',
# correction=True)).
printf '7\n' >>"$tmp/wa.txt"
printf '7\n' >>"$tmp/wb.txt"
what="wilcoxon, normal approximation"
run tells-stat wilcoxon --digits 5 "$tmp/wa.txt" "$tmp/wb.txt"
expect 0 ""
expect_out_text "test	statistic	df	p_value	detail
wilcoxon	2.000000	-	0.17753	a=$tmp/wa.txt b=$tmp/wb.txt n=6 zeros=1 r_plus=13 r_minus=2 tied_groups=0 method=normal z=-1.348400 correction=continuity alternative=two-sided"
# SciPy's rule: exact up to 50 pairs, the approximation from 51.
D=${top_srcdir:-.}/tests/data
for n in 50:exact 51:normal; do
    what="wilcoxon on ${n%:*} pairs"
    run tells-stat wilcoxon -c x -c y "$D/stat-paired-n${n%:*}.tsv"
    expect 0 ""
    grep -q "n=${n%:*} zeros=0 .* method=${n#*:} " "$tmp/out" || fail "$what: $(cat "$tmp/out")"
done
# Paired t: d = 1..5, mean 3, sd sqrt(2.5): t = 3 / sqrt(0.5) = 4.242641,
# 4 df, p = 0.013236 (SciPy's ttest_rel).
printf '2\n4\n6\n8\n10\n' >"$tmp/ta.txt"
printf '1\n2\n3\n4\n5\n' >"$tmp/tb.txt"
what="paired-t"
run tells-stat paired-t --digits 5 "$tmp/ta.txt" "$tmp/tb.txt"
expect 0 ""
expect_out_text "test	statistic	df	p_value	detail
paired_t	4.242641	4	0.013236	a=$tmp/ta.txt b=$tmp/tb.txt n=5 mean_diff=3.000000 sd_diff=1.581139 alternative=two-sided"
what="paired-t --alternative less on two columns"
printf 'a\tb\n2\t1\n4\t2\n6\t3\n8\t4\n10\t5\n' >"$tmp/t.tsv"
run tells-stat paired-t --digits 5 --alternative less -c a -c b "$tmp/t.tsv"
expect 0 ""
grep -q "^paired_t	4.242641	4	0.99338	a=$tmp/t.tsv\[a\] b=$tmp/t.tsv\[b\] " "$tmp/out" ||
    fail "$what: $(cat "$tmp/out")"
# Two columns of stdin: read once, both columns served from that reading,
# as from a file.
for cmd in wilcoxon paired-t welch; do
    what="$cmd on two columns of stdin"
    run tells-stat "$cmd" -c a -c b "$tmp/t.tsv"
    sed "s|$tmp/t.tsv|stdin|g" "$tmp/out" >"$tmp/from-file"
    run tells-stat "$cmd" -c a -c b - <"$tmp/t.tsv"
    expect 0 ""
    expect_out "$tmp/from-file"
done

# ---- issue 16: McNemar without correction, Cochran's Q ----
# A against C: b = 5, c = 1: (5 - 1)^2 / 6 = 2.666667, p = 0.10247.
what="mcnemar --no-continuity-correction"
run tells-stat mcnemar --digits 5 --no-continuity-correction "$tmp/a.tsv" "$tmp/c.tsv"
expect 0 ""
grep -q "^mcnemar_chi2	2.666667	1	0.10247	.* correction=none alternative=two-sided$" \
    "$tmp/out" || fail "$what: $(cat "$tmp/out")"
# The worked example of mlxtend's user guide (cochrans_q, example 1):
# three classifiers, 100 examples; Q = 7.529, p = 0.023; McNemar
# of the first two without correction: 5.333, p = 0.021.
for m in 1 2 3; do
    awk -v m=$m 'BEGIN { print "id\tgold\tpredicted";
        for (i = 0; i < 100; i++) {
            w = m == 1 ? i < 16 : m == 2 ? (i < 6 || i == 20 || i == 21) \
                : (i < 3 || i == 6 || i == 20 || i == 21 || i >= 98);
            print i "\t0\t" (w ? 1 : 0) } }' >"$tmp/k$m.tsv"
done
what="cochran"
run tells-stat cochran "$tmp/k1.tsv" "$tmp/k2.tsv" "$tmp/k3.tsv"
expect 0 ""
expect_out_text "test	statistic	df	p_value	detail
cochran_q	7.529412	2	0.023	blocks=examples n=100 k=3"
what="mcnemar --no-continuity-correction, mlxtend's example"
run tells-stat mcnemar --no-continuity-correction "$tmp/k1.tsv" "$tmp/k2.tsv"
expect 0 ""
grep -q "^mcnemar_chi2	5.333333	1	0.021	" "$tmp/out" || fail "$what: $(cat "$tmp/out")"

# ---- issue 16: Friedman without tie correction, Nemenyi ----
# The tie-corrected statistic above was 6 with C = 0.65625: uncorrected
# 6 * 0.65625 = 3.9375, p = exp(-3.9375 / 2) = 0.14.
what="friedman --no-tie-correction"
run tells-stat friedman --no-tie-correction "$tmp/a.tsv" "$tmp/b.tsv" "$tmp/c.tsv"
expect 0 ""
grep -q "^friedman	3.937500	2	0.14	blocks=examples n=8 k=3 ties=uncorrected$" "$tmp/out" ||
    fail "$what: $(cat "$tmp/out")"
# Mean ranks 1 2 3 over 4 blocks: CD = 2.343701 sqrt(3 4 / (6 4)) =
# 1.657247; pairs differ by 1 (p = P(range_3 > 2) = 0.3335) and 2 (p =
# P(range_3 > 4) = 0.013), SciPy's studentized_range.sf(q, 3, inf).
what="friedman --nemenyi"
run tells-stat friedman --scores --nemenyi "$tmp/x.txt" "$tmp/y.txt" "$tmp/z.txt"
expect 0 ""
expect_out_text "test	statistic	df	p_value	detail
friedman	8.000000	2	0.018	blocks=scores n=4 k=3 ties=corrected
friedman_mean_rank	1.000000	-	-	system=$tmp/x.txt best=1
friedman_mean_rank	2.000000	-	-	system=$tmp/y.txt best=1
friedman_mean_rank	3.000000	-	-	system=$tmp/z.txt best=1
nemenyi_cd	1.657247	-	-	alpha=0.05 q_alpha=2.343701 k=3 n=4
nemenyi	1.000000	-	0.33	a=$tmp/x.txt b=$tmp/y.txt mean_rank_a=1.000000 mean_rank_b=2.000000 cd=1.657247 differ=no
nemenyi	2.000000	-	0.013	a=$tmp/x.txt b=$tmp/z.txt mean_rank_a=1.000000 mean_rank_b=3.000000 cd=1.657247 differ=yes
nemenyi	1.000000	-	0.33	a=$tmp/y.txt b=$tmp/z.txt mean_rank_a=2.000000 mean_rank_b=3.000000 cd=1.657247 differ=no"
# Demsar (2006), 3.2.2: mean ranks 3.143 2.000 2.893 1.964 over 14 data
# sets give chi^2_F = 9.28 and, at alpha 0.10, CD = 1.12.
what="friedman --no-tie-correction --nemenyi --alpha 0.1, Demsar's example"
run tells-stat friedman --scores -c c45 --no-tie-correction --nemenyi --alpha 0.1 \
    "$D/stat-demsar.tsv" "$D/stat-demsar.tsv" "$D/stat-demsar.tsv" "$D/stat-demsar.tsv"
expect 0 ""
grep -q "^nemenyi_cd	1.1[12][0-9]*	-	-	alpha=0.1 q_alpha=2.291341 k=4 n=14$" "$tmp/out" ||
    fail "$what: $(cat "$tmp/out")"

# ---- issue 16: ER-Test's normalised failure rate, seeds ----
# Tests T1 T2 T3; model A two seeds, B one. Failure rates (cases -
# passed) / cases: A 0 .25 | .5 .5 | .5 .75, B .75 | 0 | 0. Means: A
# .125 .5 .625, B .75 0 0; min-max per test over the means: A 0 1 1, B 1
# 0 0; A's seeds on that scale: (0 - .125)/.625 = -.2 and .2 (sd
# .282843), 1 and 1, .8 and 1.2 (sd .282843). (all): per seed the mean
# over tests: A rates .333333 .5 (mean .416667, sd .117851), normalised
# .533333 .8 (mean .666667, sd .188562); B .25 and 1/3.
H='capability	label	type	placeholders	templates	cases	passed	pass_rate'
printf '%s\nT1\t0\tMFT\ta\t1\t4\t4\t1\nT2\t1\tMFT\ta\t1\t4\t2\t.5\nT3\t-\tDIR\ta\t2\t8\t4\t.5\n' "$H" >"$tmp/a0.tsv"
printf '%s\nT3\t-\tDIR\ta\t2\t8\t2\t.25\nT1\t0\tMFT\ta\t1\t4\t3\t.75\nT2\t1\tMFT\ta\t1\t4\t2\t.5\n' "$H" >"$tmp/a1.tsv"
printf '%s\nT1\t0\tMFT\ta\t1\t4\t1\t.25\nT2\t1\tMFT\ta\t1\t4\t4\t1\nT3\t-\tDIR\ta\t2\t8\t8\t1\n' "$H" >"$tmp/b0.tsv"
what="normalized-failure"
run tells-stat normalized-failure "A=$tmp/a0.tsv" "B=$tmp/b0.tsv" "A=$tmp/a1.tsv"
expect 0 ""
expect_out_text "capability	label	type	placeholders	model	seeds	failure_rate	failure_rate_sd	normalized_failure_rate	normalized_failure_rate_sd
T1	0	MFT	a	A	2	0.125000	0.176777	0.000000	0.282843
T1	0	MFT	a	B	1	0.750000	nan	1.000000	nan
T2	1	MFT	a	A	2	0.500000	0.000000	1.000000	0.000000
T2	1	MFT	a	B	1	0.000000	nan	0.000000	nan
T3	-	DIR	a	A	2	0.625000	0.176777	1.000000	0.282843
T3	-	DIR	a	B	1	0.000000	nan	0.000000	nan
(all)	-	-	-	A	2	0.416667	0.117851	0.666667	0.188562
(all)	-	-	-	B	1	0.250000	nan	0.333333	nan"
# A tree report: topic, tests, failures; the (all) row is not a test; two
# models that tie on a topic both get 0 there.
printf 'topic\ttests\tfailures\tfailure_rate\n/a\t4\t1\t.25\n/b\t2\t1\t.5\n(all)\t6\t2\t.33\n' >"$tmp/t1.tsv"
printf 'topic\ttests\tfailures\tfailure_rate\n/a\t4\t3\t.75\n/b\t2\t1\t.5\n(all)\t6\t4\t.67\n' >"$tmp/t2.tsv"
what="normalized-failure of tree reports"
run tells-stat normalized-failure "$tmp/t1.tsv" "$tmp/t2.tsv"
expect 0 ""
expect_out_text "topic	model	seeds	failure_rate	failure_rate_sd	normalized_failure_rate	normalized_failure_rate_sd
/a	$tmp/t1.tsv	1	0.250000	nan	0.000000	nan
/a	$tmp/t2.tsv	1	0.750000	nan	1.000000	nan
/b	$tmp/t1.tsv	1	0.500000	nan	0.000000	nan
/b	$tmp/t2.tsv	1	0.500000	nan	0.000000	nan
(all)	$tmp/t1.tsv	1	0.375000	nan	0.000000	nan
(all)	$tmp/t2.tsv	1	0.625000	nan	0.500000	nan"
# Seeds: a metrics table of two seeds (A 5/8, B 6/8: mean .6875, sd
# .088388), and numbers (0.8 0.82 0.85: mean .823333, sd .025166, as
# NumPy's std(ddof=1)); x of seeds.tsv: .9 .8 .95 .5, sd .201556.
tells-stat metrics -o "$tmp/seed-metrics.tsv" "$tmp/a.tsv" "$tmp/b.tsv"
printf '0.8\n0.82\n0.85\n' >"$tmp/acc.txt"
what="seeds"
run tells-stat seeds "$tmp/seed-metrics.tsv" "$tmp/acc.txt"
expect 0 ""
grep -q "^$tmp/seed-metrics.tsv	accuracy	-	2	0.687500	0.088388$" "$tmp/out" ||
    fail "$what: $(cat "$tmp/out")"
grep -q "	labels	" "$tmp/out" && fail "$what: the labels row is not a metric"
[ "$(tail -n 1 "$tmp/out")" = "$tmp/acc.txt	value	-	3	0.823333	0.025166" ] ||
    fail "$what: $(cat "$tmp/out")"
what="seeds --column"
run tells-stat seeds -c x "$tmp/seeds.tsv"
expect 0 ""
expect_out_text "system	metric	class	seeds	mean	sd
$tmp/seeds.tsv	x	-	4	0.787500	0.201556"
finish
