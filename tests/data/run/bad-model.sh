#!/bin/sh
# Test models that misbehave, for tells-run's model process checks:
# bad-model.sh MODE, with MODE one of the following (answers are always
# "1 0.4 0.6")
#   sleep         never reads nor answers
#   loading       says "loading weights" on stderr, then never answers
#   read-all      reads all its input before answering
#   every-second  answers every second line, then exits at end of input
#   too-many      answers each line twice
#   long-line     answers the first case with a 2 MB line
#   fail          says "KeyError: 'drug'" on stderr and exits 3
#   linger        answers every line, then does not exit
case $1 in
sleep) exec sleep 1000 ;;
loading) echo 'loading weights' >&2; exec sleep 1000 ;;
read-all) lines=$(cat); printf '%s\n' "$lines" | sed 's/.*/1 0.4 0.6/' ;;
every-second) exec sed -u -n 'n;s/.*/1 0.4 0.6/p' ;;
too-many) exec sed -u 's/.*/1 0.4 0.6/p' ;;
long-line) read -r line; head -c 2097152 /dev/zero | tr '\0' 1; echo; exec sleep 1000 ;;
fail) read -r line; echo "KeyError: 'drug'" >&2; exit 3 ;;
linger) sed -u 's/.*/1 0.4 0.6/'; exec sleep 1000 ;;
*) echo "bad-model.sh: unknown mode '$1'" >&2; exit 2 ;;
esac
