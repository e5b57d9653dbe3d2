#!/bin/sh
# An earlier test model: says 1 whenever a case names a drug.
exec sed -u -e '/zoloft\|effexor/{s/.*/1/;b' -e '}' -e 's/.*/0/'
