#!/bin/sh
# tests/tutorial.sh [FILE.md [MIN]]: runs the commands of a page of docs/
# (default docs/tutorial.md; at least MIN commands, default 10) as a user
# would.  Run by `make check` on docs/tutorial.md and docs/formats.md, with
# TWILL_BIN set to the program under test (optimized, debug or sanitizer
# build).
#
# In the tutorial's fenced blocks:
#   - a block whose info string has a second word, ```twill my-gemm.twill,
#     is part of that file: the blocks of one name are concatenated in
#     document order and written before any command runs;
#   - a line "$ CMD" is a command, run by sh in one scratch directory (the
#     commands in order, so later ones see earlier ones' files), with `twill`
#     meaning $TWILL_BIN; it must exit 0 (a command that is meant to fail
#     says so itself: `...; echo "exit $?"`);
#   - the lines after it, up to the next command or the end of the block,
#     are its output as the tutorial shows it.  They must be the command's
#     real output (stdout then stderr, or stderr then stdout: a terminal
#     interleaves them), except that a line "..." stands for any number of
#     lines left out, trailing blank lines do not count, trailing blanks of
#     a line do not count, and a time "0.123 s" matches any time.
# `nvcc` commands are skipped, with a line saying so, where nvcc is absent.
# Nothing outside the tree and the scratch directory is read.
# Prints every mismatch and exits 1, or prints one line and exits 0.
cd "$(dirname "$0")/.." || exit 1
md=${1:-docs/tutorial.md}
bin=${TWILL_BIN:-}
if [ -z "$bin" ] || [ ! -x "$bin" ]; then
  echo "tutorial.sh: TWILL_BIN='$bin' is not an executable twill" >&2
  exit 1
fi
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
if [ ! -r "$md" ]; then echo "tutorial.sh: cannot read $md" >&2; exit 1; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/twill-tutorial.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/work" "$tmp/cmd"

# Split the tutorial: files into work/, command N into cmd/N.sh, its shown
# output into cmd/N.exp and its line number into cmd/N.line.
awk -v dir="$tmp" '
function flush_file() { if (fname != "") close(dir "/work/" fname) }
/^```/ {
  if (!infence) {
    infence = 1; fname = ""; cmd = 0
    info = substr($0, 4); n = split(info, w, " ")
    if (n >= 2) {
      fname = w[2]
      if (fname !~ /^[A-Za-z0-9._-]+$/) {
        printf "%s:%d: bad file name %s\n", FILENAME, FNR, fname > "/dev/stderr"
        bad = 1; fname = ""
      } else files[fname]++
    }
  } else { flush_file(); infence = 0; fname = "" }
  next
}
infence && fname != "" { print >> (dir "/work/" fname); next }
infence && /^\$ / {
  ncmd++; cmd = ncmd
  print substr($0, 3) > (dir "/cmd/" cmd ".sh"); close(dir "/cmd/" cmd ".sh")
  print FNR > (dir "/cmd/" cmd ".line"); close(dir "/cmd/" cmd ".line")
  printf "" > (dir "/cmd/" cmd ".exp")
  next
}
infence && cmd { print >> (dir "/cmd/" cmd ".exp"); next }
END {
  nf = 0; for (f in files) nf++
  print ncmd + 0 > (dir "/count")
  print nf > (dir "/files")
  if (infence) { printf "%s: a fenced block is not closed\n", FILENAME > "/dev/stderr"; bad = 1 }
  exit bad
}' "$md" || exit 1

ncmd=$(cat "$tmp/count")
min=${2:-10}
nfiles=$(cat "$tmp/files")
if [ "$ncmd" -lt "$min" ] || [ "$nfiles" -lt 1 ]; then
  echo "tutorial.sh: $md: $ncmd commands and $nfiles files found (expected a file and at least $min commands)" >&2
  exit 1
fi

# match EXP ACT: the shown lines EXP are ACT with runs elided by "..."
match() {
  awk '
  function norm(s) {
    sub(/[ \t\r]+$/, "", s)
    gsub(/[0-9]+\.[0-9]+ s/, "_ s", s)
    return s
  }
  FNR == NR { e[++ne] = norm($0); next }
  { a[++na] = norm($0) }
  END {
    while (ne > 0 && e[ne] == "") ne--
    while (na > 0 && a[na] == "") na--
    pos = 1; anchored = 1; i = 1
    while (i <= ne) {
      if (e[i] == "...") { anchored = 0; i++; continue }
      j = i; while (j <= ne && e[j] != "...") j++
      len = j - i
      last = pos + (anchored ? 0 : na)
      if (j > ne) {                  # the last segment ends the output
        first = na - len + 1
        if (first < pos || (anchored && first != pos)) { print "at line " i ": " e[i]; exit 1 }
        last = first
      } else first = pos
      found = 0
      for (s = first; s <= last && s + len - 1 <= na; s++) {
        ok = 1
        for (k = 0; k < len; k++) if (a[s + k] != e[i + k]) { ok = 0; break }
        if (ok) { found = 1; break }
      }
      if (!found) { print "not found in order: " e[i]; exit 1 }
      pos = s + len; anchored = 1; i = j
    }
    if (ne == 0 && na > 0) { print "output not shown: " a[1]; exit 1 }
    if (ne > 0 && e[ne] != "..." && pos != na + 1) { print "output not shown: " a[pos]; exit 1 }
    exit 0
  }' "$1" "$2"
}

have_nvcc=0
command -v nvcc >/dev/null 2>&1 && have_nvcc=1

fail=0; ran=0; skipped=0
n=1
while [ "$n" -le "$ncmd" ]; do
  c=$tmp/cmd/$n
  line=$(cat "$c.line")
  text=$(cat "$c.sh")
  case $text in
    nvcc*)
      if [ $have_nvcc = 0 ]; then
        echo "tutorial.sh: skipped (nvcc not installed): $md:$line: $text"
        skipped=$((skipped + 1)); n=$((n + 1)); continue
      fi ;;
  esac
  { echo 'twill() { "$TWILL_BIN" "$@"; }'; cat "$c.sh"; } > "$c.run"
  rc=0
  (cd "$tmp/work" && TWILL_BIN=$bin sh "$c.run" > "$c.out" 2> "$c.err" < /dev/null) || rc=$?
  ran=$((ran + 1))
  if [ $rc != 0 ]; then
    echo "$md:$line: \`$text\` exited $rc:" >&2
    head -n 20 "$c.out" "$c.err" >&2
    fail=1
  else
    cat "$c.out" "$c.err" > "$c.oe"; cat "$c.err" "$c.out" > "$c.eo"
    if ! why=$(match "$c.exp" "$c.oe") && ! match "$c.exp" "$c.eo" > /dev/null; then
      echo "$md:$line: \`$text\`: the output differs from the tutorial's ($why); it printed:" >&2
      cat "$c.oe" >&2
      fail=1
    fi
  fi
  n=$((n + 1))
done

if [ $fail = 0 ]; then
  echo "tutorial.sh: $ran commands of $md ran as shown ($skipped skipped)"
else
  echo "tutorial.sh: $md: FAILED" >&2
  exit 1
fi
