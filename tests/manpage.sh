#!/bin/sh
# tests/manpage.sh: docs/twill.1 says what the program does.  Run by `make
# check` with TWILL_BIN set to the program under test.
#   1. Every command `twill help` lists has a section (.SS "twill CMD ...")
#      in the page, and every section names a command `twill help` lists.
#   2. For each command, the options the page lists (the .B/.BI tag line of
#      each .TP paragraph in its section, option first) are exactly the
#      options `twill help CMD` lists (its lines "  -OPT ..." after
#      "options:", up to the first blank line).
#   3. groff -man -z -ww formats the page without a warning (skipped, with a
#      line saying so, where groff is not installed).
# Prints every difference and exits 1, or prints one line and exits 0.
cd "$(dirname "$0")/.." || exit 1
page=${1:-docs/twill.1}
bin=${TWILL_BIN:-}
if [ -z "$bin" ] || [ ! -x "$bin" ]; then
  echo "manpage.sh: TWILL_BIN='$bin' is not an executable twill" >&2
  exit 1
fi
if [ ! -r "$page" ]; then echo "manpage.sh: cannot read $page" >&2; exit 1; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/twill-manpage.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# the commands of `twill help`: the lines "  NAME  what" after "commands:"
"$bin" help > "$tmp/help" 2>&1 || { echo "manpage.sh: twill help failed" >&2; exit 1; }
awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }' \
  "$tmp/help" | sort > "$tmp/cmds.help"

# the page's sections and options: "CMD OPTION" lines, and "CMD" alone for
# a section without options
awk '
function unesc(s) { gsub(/\\-/, "-", s); gsub(/\\f[A-Z]/, "", s); return s }
/^\.SS / {
  sec = ""; t = unesc($0)
  if (t ~ /^\.SS "?twill /) { sub(/^\.SS "?twill /, "", t); split(t, w, /[ "]/); sec = w[1]; print sec }
  tp = 0; next
}
/^\.S[HS] / { sec = ""; next }
/^\.TP/ { tp = 1; next }
tp == 1 && sec != "" {
  tp = 0
  if ($0 ~ /^\.BI? /) {
    t = $0; sub(/^\.BI? +/, "", t)
    if (t ~ /^"/) { sub(/^"/, "", t); sub(/".*/, "", t) } else sub(/ .*/, "", t)
    t = unesc(t); sub(/ +$/, "", t); sub(/=.*/, "", t)
    if (t ~ /^-/) print sec " " t
  }
  next
}
{ tp = 0 }' "$page" > "$tmp/page"
awk 'NF == 1' "$tmp/page" | sort -u > "$tmp/cmds.page"

if [ ! -s "$tmp/cmds.help" ] || [ "$(wc -l < "$tmp/cmds.help")" -lt 10 ]; then
  echo "manpage.sh: fewer than 10 commands read from 'twill help'" >&2
  exit 1
fi
if ! cmp -s "$tmp/cmds.help" "$tmp/cmds.page"; then
  echo "manpage.sh: commands of 'twill help' (<) and sections of $page (>) differ:" >&2
  diff "$tmp/cmds.help" "$tmp/cmds.page" >&2
  fail=1
fi

nopts=0
for c in $(cat "$tmp/cmds.help"); do
  "$bin" help "$c" > "$tmp/h.$c" 2>&1 || { echo "manpage.sh: twill help $c failed" >&2; fail=1; continue; }
  awk '/^options:/ { on = 1; next } on && /^$/ { exit } on && /^  -/ { print $1 }' \
    "$tmp/h.$c" | sort -u > "$tmp/help.$c"
  awk -v c="$c" 'NF == 2 && $1 == c { print $2 }' "$tmp/page" | sort -u > "$tmp/page.$c"
  nopts=$((nopts + $(wc -l < "$tmp/help.$c")))
  if ! cmp -s "$tmp/help.$c" "$tmp/page.$c"; then
    echo "manpage.sh: options of 'twill help $c' (<) and of its section in $page (>) differ:" >&2
    diff "$tmp/help.$c" "$tmp/page.$c" >&2
    fail=1
  fi
done
if [ "$nopts" -lt 50 ]; then
  echo "manpage.sh: only $nopts options read from the commands' help" >&2
  fail=1
fi

if command -v groff > /dev/null 2>&1; then
  if ! groff -man -z -ww "$page" > "$tmp/groff" 2>&1 || [ -s "$tmp/groff" ]; then
    echo "manpage.sh: groff -man -z -ww $page:" >&2
    cat "$tmp/groff" >&2
    fail=1
  fi
  g="checked by groff"
else
  echo "manpage.sh: skipped the groff check (groff not installed)"
  g="not formatted (no groff)"
fi

if [ $fail = 0 ]; then
  echo "manpage.sh: $page lists the $nopts options of $(wc -l < "$tmp/cmds.help") commands as their help does; $g"
else
  echo "manpage.sh: $page: FAILED" >&2
  exit 1
fi
