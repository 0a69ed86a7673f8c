# extract_blocks.awk -- split a Markdown file into its fenced code blocks for
# tests/docs/run_doc_blocks.sh (the convention is in docs/TESTING.md).
#
#   awk -v doc=NAME -v out=DIR -f extract_blocks.awk FILE.md
#
# Writes DIR/NNN (one file per block that the test uses) and prints a
# manifest on stdout, one line per block in document order:
#   sh    NNN LINE EXIT        run DIR/NNN (a script) and expect EXIT
#   file  NNN LINE NAME        copy DIR/NNN to NAME in the scratch directory
#   output NNN LINE -          every line of DIR/NNN must be a line of the
#                              output of the last block run
# and one line "lint LINE MESSAGE" per fence that breaks the convention.
#
# A runnable script gets a status check after every complete command line, so
# that a failing command in the middle of a block (`a && b` on one line, then
# more lines) is noticed even without `set -e` semantics.

function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }

# the code part of a shell line: without a trailing " # comment"
function code_of(s) { sub(/[ \t]+#.*$/, "", s); return trim(s) }

# does the command go on after this line (continuation, pipe, open compound)?
function continues(s, c) {
    c = code_of(s)
    if (c == "" || c ~ /^#/) return 1
    return c ~ /(\\|\||&&|\|\||[{(]|[ \t;]then|[ \t;]do|[ \t;]else|^then|^do|^else)$/
}

function start_block(info, n, i, w, a) {
    inblock = 1; startline = NR; nlines = 0
    n = split(info, w, /[ \t]+/)
    lang = w[1]; kind = "skip"; expect = 0; fname = ""; notest = 0; output = 0
    for (i = 2; i <= n; i++) {
        a = w[i]
        if (a == "no-test") notest = 1
        else if (a == "output") output = 1
        else if (a ~ /^exit=[0-9]+$/) expect = substr(a, 6) + 0
        else if (a ~ /^file=[A-Za-z0-9._\/-]+$/ && a !~ /\.\./ && a !~ /^file=\//) fname = substr(a, 6)
        else printf "lint %d unknown fence attribute '%s' (known: no-test, exit=N, file=NAME, output)\n", NR, a
    }
    if (lang == "")
        printf "lint %d fence without a language: write sh (run), sh no-test, console or text (not run), yaml, ...\n", NR
    else if (lang ~ /^(bash|shell|zsh|shell-session|sh-session)$/)
        printf "lint %d fence language '%s': write sh (run by the docs test) or console (an illustration)\n", NR, lang
    if (output) kind = "output"
    else if (fname != "") kind = "file"
    else if (lang == "sh" && !notest) kind = "sh"
    else if (!notest) kind = "lines"      # other blocks: their build/drasim lines run
    else if (expect) printf "lint %d exit=N on a block that is not run\n", NR
}

function end_block(i, f, line, at, n, cmd) {
    inblock = 0
    if (kind == "skip") return
    f = sprintf("%s/%03d", out, nblocks + 1)
    if (kind == "file" || kind == "output") {
        nblocks++
        printf "" > f
        for (i = 1; i <= nlines; i++) print body[i] > f
        close(f)
        printf "%s %03d %d %s\n", kind, nblocks, startline, kind == "file" ? fname : "-"
        return
    }
    n = 0
    for (i = 1; i <= nlines; i++) {
        line = body[i]
        if (kind == "lines") {
            at = index(line, "build/drasim ")
            if (!at) continue
            line = substr(line, at)
        }
        cmd[++n] = line
        if (!continues(line))
            cmd[++n] = sprintf("__st=$?; if [ $__st -ne 0 ]; then echo \"docs test: %s:%d exited $__st\" >&2; exit $__st; fi",
                               doc, startline + i)
    }
    if (!n) return
    nblocks++
    printf "" > f
    for (i = 1; i <= n; i++) print cmd[i] > f
    close(f)
    printf "sh %03d %d %d\n", nblocks, startline, expect
}

!inblock && /^[ \t]*```/ {
    indent = $0; sub(/```.*$/, "", indent); ilen = length(indent)
    info = $0; sub(/^[ \t]*```/, "", info)
    start_block(trim(info))
    next
}
inblock && /^[ \t]*```[ \t]*$/ { end_block(); next }
inblock {
    line = $0
    # strip the fence's own indentation (blocks inside list items)
    if (ilen && substr(line, 1, ilen) ~ /^[ \t]+$/) line = substr(line, ilen + 1)
    body[++nlines] = line
}
END { if (inblock) printf "lint %d fence not closed\n", startline }
