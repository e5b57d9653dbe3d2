#!/bin/sh
# What -o does with each kind of target (lib/base/outfile.h): regular files
# are replaced atomically keeping their mode, symbolic links are followed,
# FIFOs, devices and descriptors are written in place, read-only files and
# directories are refused (for root too); a full file system is an error
# that keeps the old file; SIGINT, SIGTERM and SIGHUP leave no temporary
# file, and SIGPIPE too. The device and full-disk cases run as root inside `unshare -m`
# with a private tmpfs, never on the machine's own /dev.
. "${top_srcdir:-.}/tests/init.sh"

H='id	split	label	premise	hypothesis'
printf '%s\n1\ta\tx\tp q\th\n2\ta\ty\tp q\tk k\n' "$H" >"$tmp/in.tsv"
tells-len "$tmp/in.tsv" >"$tmp/table"

# A new file gets the mode a plain create would; a replaced one keeps its.
what="new file"
run tells-len -o "$tmp/new.tsv" "$tmp/in.tsv"
expect 0 ""
cmp -s "$tmp/table" "$tmp/new.tsv" || fail "$what: wrong content"
what="mode kept"
printf 'old\n' >"$tmp/kept"
chmod 640 "$tmp/kept"
run tells-len -o "$tmp/kept" "$tmp/in.tsv"
expect 0 ""
[ "$(stat -c %a "$tmp/kept")" = 640 ] || fail "$what: mode $(stat -c %a "$tmp/kept")"
cmp -s "$tmp/table" "$tmp/kept" || fail "$what: wrong content"

what="symbolic link followed"
mkdir "$tmp/d"
printf 'old\n' >"$tmp/d/real"
ln -s d/real "$tmp/link"
run tells-len -o "$tmp/link" "$tmp/in.tsv"
expect 0 ""
[ -L "$tmp/link" ] || fail "$what: the link was replaced"
cmp -s "$tmp/table" "$tmp/d/real" || fail "$what: the target was not written"
what="dangling link creates its target"
ln -s d/later "$tmp/dangling"
run tells-len -o "$tmp/dangling" "$tmp/in.tsv"
expect 0 ""
[ -L "$tmp/dangling" ] && cmp -s "$tmp/table" "$tmp/d/later" || fail "$what"
what="link loop"
ln -s loop2 "$tmp/loop1"
ln -s loop1 "$tmp/loop2"
run tells-len -o "$tmp/loop1" "$tmp/in.tsv"
expect 1 "tells-len: $tmp/loop1: cannot open: Too many levels of symbolic links"

what="read-only file refused"
printf 'keep\n' >"$tmp/ro"
chmod 444 "$tmp/ro"
run tells-len -o "$tmp/ro" "$tmp/in.tsv"
expect 1 "tells-len: $tmp/ro: cannot write: the file is read-only"
[ "$(cat "$tmp/ro")" = keep ] || fail "$what: the file changed"
what="directory refused"
run tells-len -o "$tmp/d" "$tmp/in.tsv"
expect 1 "tells-len: $tmp/d: cannot write: it is a directory"

what="FIFO written in place"
mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/from-fifo" &
reader=$!
run tells-len -o "$tmp/fifo" "$tmp/in.tsv"
expect 0 ""
wait $reader
[ -p "$tmp/fifo" ] || fail "$what: the FIFO was replaced"
cmp -s "$tmp/table" "$tmp/from-fifo" || fail "$what: wrong content"

what="/dev/stdout into a file"
tells-len -o /dev/stdout "$tmp/in.tsv" >"$tmp/via-stdout" 2>"$tmp/err" ||
    fail "$what: exit $? ($(cat "$tmp/err"))"
cmp -s "$tmp/table" "$tmp/via-stdout" || fail "$what: wrong content"
what="/dev/stdout into a pipe"
tells-len -o /dev/stdout "$tmp/in.tsv" | cat >"$tmp/via-pipe"
cmp -s "$tmp/table" "$tmp/via-pipe" || fail "$what: wrong content"
ls -A "$tmp" | grep -q '^\.' && fail "temporary files left: $(ls -A "$tmp" | grep '^\.')"

# A signal while the output is being written: the program dies of the
# signal, the old file stays, no temporary file is left. tells-prep
# writes as it reads, so its output is open while it waits for input.
printf '{"sentence1": "a b", "sentence2": "c", "gold_label": "x", "pairID": "1"}\n' \
    >"$tmp/one.jsonl"
# Every signal whose default ends the program: SIGQUIT (Ctrl-\\) and
# SIGXFSZ (a file-size limit) too, and those of schedulers.
ulimit -c 0
for sig in INT TERM HUP QUIT USR1 USR2 ALRM XCPU XFSZ VTALRM PROF; do
    what="SIG$sig"
    rm -f "$tmp/feed"
    mkfifo "$tmp/feed"
    printf 'old\n' >"$tmp/sig.tsv"
    (cat "$tmp/one.jsonl"; sleep 30) >"$tmp/feed" &
    feeder=$!
    # A background job of a script starts with SIGINT ignored (and an
    # ignored signal stays ignored): restore the default for this one.
    env --default-signal="$sig" tells-prep -q -o "$tmp/sig.tsv" --split a "$tmp/feed" \
        2>"$tmp/err" &
    pid=$!
    n=0
    until ls -A "$tmp" | grep -q '^\.sig\.tsv\.' || [ $n -ge 100 ]; do
        sleep 0.1
        n=$((n + 1))
    done
    [ $n -lt 100 ] || fail "$what: no temporary output appeared"
    kill -s "$sig" $pid
    status=0
    wait $pid || status=$?
    kill $feeder 2>/dev/null
    wait $feeder 2>/dev/null
    [ "$status" = $((128 + $(kill -l "$sig"))) ] || fail "$what: exit status $status"
    [ "$(cat "$tmp/sig.tsv")" = old ] || fail "$what: the old output changed"
    left=$(ls -A "$tmp" | grep '^\.sig\.tsv\.' || :)
    [ -z "$left" ] || fail "$what: left $left"
done

what="a file-size limit (SIGXFSZ)"
printf 'old\n' >"$tmp/sig.tsv"
status=0
(ulimit -f 1; exec tells-prep -q -t whitespace -o "$tmp/sig.tsv" \
    --split dev "$top_srcdir/corpora/snli/snli_1.0_dev.jsonl") 2>/dev/null || status=$?
[ "$status" = $((128 + $(kill -l XFSZ))) ] || fail "$what: exit status $status"
[ "$(cat "$tmp/sig.tsv")" = old ] || fail "$what: the old output changed"
left=$(ls -A "$tmp" | grep '^\.sig\.tsv\.' || :)
[ -z "$left" ] || fail "$what: left $left"

# A descriptor is written as it is open: "-o /dev/stdout >> log" appends
# to log. A link under /proc that is no descriptor is followed as any.
what="-o /dev/stdout >> log"
printf 'one\ntwo\n' >"$tmp/log"
tells-len -o /dev/stdout "$tmp/in.tsv" >>"$tmp/log" || fail "$what: exit $?"
{ printf 'one\ntwo\n'; cat "$tmp/table"; } | cmp -s - "$tmp/log" || fail "$what: $(cat "$tmp/log")"
what="-o /proc/self/fd/3 3>>log"
tells-len -o /proc/self/fd/3 "$tmp/in.tsv" 3>>"$tmp/log" || fail "$what: exit $?"
{ printf 'one\ntwo\n'; cat "$tmp/table" "$tmp/table"; } | cmp -s - "$tmp/log" ||
    fail "$what: $(cat "$tmp/log")"
what="a link under /proc/self/cwd"
seq 1000 >"$tmp/d/proc-real"   # longer than the table: no old tail may stay
ln -s proc-real "$tmp/d/proc-link"
(cd "$tmp/d" && tells-len -o /proc/self/cwd/proc-link "$tmp/in.tsv") || fail "$what: exit $?"
[ -L "$tmp/d/proc-link" ] && cmp -s "$tmp/table" "$tmp/d/proc-real" ||
    fail "$what: $(cat "$tmp/d/proc-real")"

# SIGPIPE, when the reader of standard output has gone, ends the program
# as it always did (killed by the signal: status 141 in a shell) and also
# removes its temporary files. The pipe's reader is closed before the
# program starts, so the first write to it is refused.
closed_pipe() {
    python3 -c 'import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.Popen(sys.argv[1:], stdout=w, stderr=subprocess.DEVNULL)
os.close(w)
print(p.wait())' "$@"
}
mkdir "$tmp/pipe"
awk 'BEGIN { print "id\tsplit\tlabel\tpremise\thypothesis";
             for (i = 0; i < 60; i++) printf "%d\ta\t%s\tp %d\th%d w%d\n", i, i % 2 ? "x" : "y", i, i % 2, i }' \
    >"$tmp/pipe/in.tsv"
what="SIGPIPE: tells-pvi --summary --tokens"
status=$(closed_pipe tells-pvi -q --folds 2 --epoch 1 --bucket 1000 --summary "$tmp/pipe/s.tsv" \
    --tokens "$tmp/pipe/t.tsv" "$tmp/pipe/in.tsv")
[ "$status" = -13 ] || fail "$what: not ended by SIGPIPE ($status)"
d=$top_srcdir/tests/data/run
seq 20 | sed 's/.*/1 0.2 0.8/' >"$tmp/pipe/pred"
what="SIGPIPE: tells-run --failures"
status=$(closed_pipe tells-run -t "$d/templates.tsv" --fill "ade=$d/ade.txt" \
    --fill "drug=$d/drug.txt" --predictions "$tmp/pipe/pred" --classes 0,1 \
    --failures "$tmp/pipe/f.csv")
[ "$status" = -13 ] || fail "$what: not ended by SIGPIPE ($status)"
left=$(ls -A "$tmp/pipe" | grep -v '^in\.tsv$\|^pred$' || :)
[ -z "$left" ] || fail "SIGPIPE: left $left"

# As root, in a mount namespace of our own: a private /dev with the device
# nodes made by mknod, and a small tmpfs that fills up.
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
    echo "output-targets: not root or no unshare: device and full-disk cases skipped" >&2
    finish
fi
cat >"$tmp/root.sh" <<'EOF'
set -u
in=$1 tmp=$2 table=$3
mount -t tmpfs -o size=1m tmpfs /dev || exit 77
mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/full c 1 7 &&
    mknod -m 666 /dev/zero c 1 5 || exit 77
ln -s /proc/self/fd /dev/fd
ln -s /proc/self/fd/1 /dev/stdout
tells-len -o /dev/null "$in" 2>&1 || echo "null: exit $?"
[ -c /dev/null ] || echo "null: replaced"
tells-len -o /dev/full "$in" 2>&1; echo "full: exit $?"
[ -c /dev/full ] || echo "full: replaced"
ls -A /dev | tr '\n' ' '; echo
tells-len -o /dev/stdout "$in" | cmp -s - "$table" || echo "stdout: differs"
# A full file system: the write fails, the old file stays, no temporary file.
mkdir "$tmp/small"
mount -t tmpfs -o size=64k tmpfs "$tmp/small" || exit 77
printf 'old\n' >"$tmp/small/out.tsv"
head -c 60000 /dev/zero >"$tmp/small/filler"
tells-phrases --scores -t 0 -m 1 -o "$tmp/small/out.tsv" "$tmp/big.tsv" 2>&1
echo "disk: exit $?"
cat "$tmp/small/out.tsv"
ls -A "$tmp/small" | tr '\n' ' '; echo
umount "$tmp/small"
EOF
# A corpus whose phrase table is larger than the space left.
awk 'BEGIN { print "id\tsplit\tlabel\tpremise\thypothesis";
             for (i = 0; i < 3000; i++) printf "%d\ta\tx\tw%d v%d\th%d k%d\n", i, i, i, i, i }' \
    >"$tmp/big.tsv"
unshare -m sh "$tmp/root.sh" "$tmp/in.tsv" "$tmp" "$tmp/table" >"$tmp/root.out" 2>&1
status=$?
if [ $status = 77 ]; then
    echo "output-targets: cannot mount in a namespace: device and full-disk cases skipped" >&2
    finish
fi
cat >"$tmp/root.expected" <<EOF
tells-len: /dev/full: write error: No space left on device
full: exit 1
fd full null stdout zero 
tells-phrases: $tmp/small/out.tsv: write error: No space left on device
disk: exit 1
old
filler out.tsv 
EOF
what="as root: devices and a full disk"
if ! cmp -s "$tmp/root.expected" "$tmp/root.out"; then
    fail "$what:"
    diff "$tmp/root.expected" "$tmp/root.out" >&2
fi
finish
