#!/bin/sh
# browser_check.sh CHROMIUM DIR -- render a drasim report in a real headless
# browser and check it (tests/report26.cmake): index.html and every page it
# links to (the groups' pages) are loaded in a frame of a checking page; every
# <img> must have loaded (a decoded picture: naturalWidth > 0) and every
# <a href> to a file must name a file that exists. Prints "pages N, images N,
# links N" and one line per problem ("broken image ...", "missing link ...");
# exit 1 on a problem, 2 when the browser did not run.
# Chromium runs without its sandbox (tests may run as root in containers) and
# with file access from file pages, so that the checking page can read its frames.
chromium=$1 dir=$(cd "$2" && pwd) || exit 2
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
pages="index.html"
for f in "$dir"/group-*.html "$dir"/group.*.html; do [ -e "$f" ] && pages="$pages $(basename "$f")"; done
list=""
for p in $pages; do list="$list'file://$dir/$p',"; done
cat > "$work/check.html" <<HTML
<!DOCTYPE html><html><body><pre id="out"></pre><iframe id="f" style="width:1200px;height:900px"></iframe>
<script>
const pages = [$list];
const out = document.getElementById('out'), frame = document.getElementById('f');
let nimg = 0, nlink = 0, problems = [], links = [];
function next(i) {
  if (i === pages.length) {
    out.textContent = 'RESULT pages ' + pages.length + ', images ' + nimg + ', links ' + nlink + '\n' + problems.join('\n') + '\n' + links.map(l => 'link ' + l).join('\n') + '\nEND';
    return;
  }
  frame.onload = () => {
    const doc = frame.contentDocument;
    if (!doc || !doc.body) { problems.push('unreadable page ' + pages[i]); next(i + 1); return; }
    const imgs = [...doc.images];
    Promise.all(imgs.map(im => im.complete ? Promise.resolve() : new Promise(r => { im.onload = im.onerror = r; }))).then(() => {
      for (const im of imgs) { nimg++; if (!(im.naturalWidth > 0)) problems.push('broken image ' + im.getAttribute('src') + ' in ' + pages[i]); }
      for (const a of doc.querySelectorAll('a[href]')) {
        const u = new URL(a.getAttribute('href'), doc.URL);
        if (u.protocol !== 'file:') continue;
        nlink++;
        links.push(decodeURIComponent(u.pathname));
      }
      next(i + 1);
    });
  };
  frame.src = pages[i];
}
next(0);
</script></body></html>
HTML
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
  --virtual-time-budget=20000 --dump-dom "file://$work/check.html" > "$work/dom.html" 2> "$work/stderr" ||
  { echo "the browser failed:"; tail -5 "$work/stderr"; exit 2; }
grep -q 'RESULT pages [0-9]' "$work/dom.html" || { echo "the checking page did not finish"; tail -5 "$work/stderr"; exit 2; }
rc=0
grep -o 'RESULT pages [0-9][^<]*' "$work/dom.html" | sed 's/^RESULT //'
grep '^broken image \|^unreadable page ' "$work/dom.html" && rc=1
# the links: each must name an existing file (the fragment dropped)
sed -n 's/^link //p' "$work/dom.html" | sed 's/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g' | while IFS= read -r l; do
  [ -e "$l" ] || echo "missing link $l"
done > "$work/missing"
cat "$work/missing"
[ -s "$work/missing" ] && rc=1
exit $rc
