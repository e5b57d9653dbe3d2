#!/bin/sh
# tells-concepts: the links of the issue's examples, a prepared TSV, the
# index's statistics, headings-only and exact-token linking, and the MeSH
# 2017 linking of earlier runs.
. "${top_srcdir:-.}/tests/init.sh"

TELLS_DATA=$corpora
export TELLS_DATA
T='id	field	start	end	text	descriptor	name	tree_numbers'

what="the issue's synonyms"
printf '%s\n' 'He smokes; heart attack, high blood pressure and shortness of breath.' \
    'No rash, bleeding or kidney failure; COPD on antibiotics, strokes and headaches.' \
    'Let ALL patients take the aid.' >"$tmp/text"
run tells-concepts --text "$tmp/text"
expect 0 ""
expect_out_text "$T
1	text	1	2	smokes	D012906	Smoke	D20.633.937
1	text	1	2	smokes	D012907	Smoking	F01.145.805
1	text	2	4	heart attack	D009203	Myocardial Infarction	C14.280.647.500,C14.907.585.500,C23.550.513.355.750,C23.550.717.489.750
1	text	4	7	high blood pressure	D006973	Hypertension	C14.907.489
1	text	8	11	shortness of breath	D004417	Dyspnea	C08.618.326,C23.888.852.371
2	text	1	2	rash	D005076	Exanthema	C17.800.257
2	text	2	3	bleeding	D006470	Hemorrhage	C23.550.414
2	text	4	6	kidney failure	D051437	Renal Insufficiency	C12.050.351.968.419.780,C12.200.777.419.780,C12.950.419.780
2	text	6	7	COPD	D029424	Pulmonary Disease, Chronic Obstructive	C08.381.495.389,C23.550.291.500.875
2	text	8	9	antibiotics	D000900	Anti-Bacterial Agents	D27.505.954.122.085
2	text	9	10	strokes	D020521	Stroke	C10.228.140.300.775,C14.907.253.855
2	text	11	12	headaches	D006261	Headache	C23.888.592.612.441
3	text	2	3	patients	D010361	Patients	M01.643"

what="abbreviations: short ones only in their capitals"
printf '%s\n' 'copd and aids' 'let him rest, the aid' 'the LET was measured' >"$tmp/abb"
run tells-concepts -T "$tmp/abb"
expect 0 ""
expect_out_text "$T
1	text	0	1	copd	D029424	Pulmonary Disease, Chronic Obstructive	C08.381.495.389,C23.550.291.500.875
1	text	2	3	aids	D000163	Acquired Immunodeficiency Syndrome	C01.221.250.875.040,C01.221.812.640.400.040,C01.778.640.400.040,C01.925.782.815.616.400.040,C01.925.813.400.040,C01.925.839.040,C12.100.937.640.400.040,C20.673.480.040
2	text	2	3	rest	D012146	Rest	I03.450.769.647
3	text	1	2	LET	D018499	Linear Energy Transfer	G01.154.240.400,G02.111.255.400,G02.216.400
3	text	3	4	measured	D014894	Weights and Measures	E05.978"

what="permuted terms: the text's order links, the comma order does not"
printf '%s\n' 'smoking habits' 'habits smoking' >"$tmp/perm"
run tells-concepts -T "$tmp/perm"
expect 0 ""
expect_out_text "$T
1	text	0	2	smoking habits	D012907	Smoking	F01.145.805
2	text	0	1	habits	D006184	Habits	F01.145.466
2	text	1	2	smoking	D012907	Smoking	F01.145.805"

what="a prepared TSV, with merged tokens and --field"
printf 'id\tsplit\tlabel\tpremise\thypothesis\np1\tdev\tneutral\tthe patient had a heart_attack\the smokes\n' >"$tmp/prep.tsv"
run tells-concepts "$tmp/prep.tsv"
expect 0 ""
expect_out_text "$T
p1	premise	1	2	patient	D010361	Patients	M01.643
p1	premise	4	6	heart attack	D009203	Myocardial Infarction	C14.280.647.500,C14.907.585.500,C23.550.513.355.750,C23.550.717.489.750
p1	hypothesis	1	2	smokes	D012906	Smoke	D20.633.937
p1	hypothesis	1	2	smokes	D012907	Smoking	F01.145.805"
run tells-concepts -F hypothesis -o "$tmp/h.tsv" - <"$tmp/prep.tsv"
expect 0 ""
[ "$(cut -f 2 "$tmp/h.tsv" | sort -u | tr '\n' ' ')" = "field hypothesis " ] ||
    fail "$what: --field hypothesis: $(cat "$tmp/h.tsv")"

what="headings only, exact tokens, MeSH 2017 as before"
run tells-concepts --no-terms -T "$tmp/text"
expect 0 ""
cut -f 5 "$tmp/out" | tr '\n' ' ' >"$tmp/got"
[ "$(cat "$tmp/got")" = "text smokes smokes heart blood pressure kidney strokes headaches patients " ] || fail "$what: --no-terms: $(cat "$tmp/got")"
run tells-concepts --no-terms --no-stem -T "$tmp/text"
expect 0 ""
[ "$(cut -f 5 "$tmp/out" | tr '\n' ' ')" = "text heart blood pressure kidney patients " ] || fail "$what: --no-stem: $(cut -f 5 "$tmp/out")"
run tells-concepts --mesh "$corpora/mesh/mtrees2017.txt" -T "$tmp/text"
expect 0 ""
expect_out_text "$T
1	text	2	3	heart	D006321	Heart	A07.541
1	text	5	7	blood pressure	D001794	Blood Pressure	E01.370.600.875.249,G09.330.380.076
2	text	4	5	kidney	D007668	Kidney	A05.810.453
3	text	2	3	patients	D010361	Patients	M01.643"
run tells-concepts --mesh "$corpora/mesh/mtrees2017.txt" --stem --terms "$corpora/mesh/desc2024-terms.tsv" -T "$tmp/text"
expect 1 "tells-concepts: $corpora/mesh/desc2024-terms.tsv:351: descriptor D000043 is 'Abstracting and Indexing as Topic' in $corpora/mesh/mtrees2017.txt, not 'Abstracting and Indexing' (another MeSH version?)"

what="--stats"
run tells-concepts --stats
expect 0 ""
expect_out_text "descriptors	30762
tree_numbers	64457
term_rows	263936
terms	189626
permuted_skipped	76915
unknown_rows	4
unknown_descriptors	2
abbreviations	118
keys	147507
ambiguous_keys	561"

what="usage errors"
run tells-concepts --terms x --no-terms
expect 2 "tells-concepts: --terms and --no-terms exclude each other
Try 'tells-concepts --help' for more information."
run tells-concepts -T -F premise
expect 2 "tells-concepts: --field is for prepared TSVs, not --text
Try 'tells-concepts --help' for more information."
run tells-concepts -F both2
expect 2 "tells-concepts: invalid --field 'both2' (hypothesis, premise or both)
Try 'tells-concepts --help' for more information."
run tells-concepts --stats "$tmp/text"
expect 2 "tells-concepts: --stats reads no input
Try 'tells-concepts --help' for more information."
finish
