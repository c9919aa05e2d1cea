#!/usr/bin/env bash
# The install a researcher gets: build the sdist and the wheel (the wheel from the sdist, so a file the
# sdist forgets fails here), install the wheel into a fresh venv OUTSIDE the checkout, then index and
# search examples/ there offline with an empty model cache.  Fails if torch is installed, if the wheel
# lacks the web page's files, or if the search finds nothing.  Prints the venv size and the times.
#   usage: scripts/wheel_smoke.sh [python]   (the python that makes the venv; default python3)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PY="${1:-python3}"
BUILDER="${BUILDER_PYTHON:-$ROOT/.venv/bin/python}"   # a python with the `build` package (the dev extra)
WORK="$(mktemp -d /tmp/papershelf-wheel.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

"$BUILDER" -m build --outdir "$WORK/dist" "$ROOT" >"$WORK/build.log" 2>&1 || { tail -20 "$WORK/build.log"; exit 1; }
WHEEL="$(ls "$WORK"/dist/papershelf-*.whl)"
ls "$WORK"/dist/papershelf-*.tar.gz >/dev/null
"$PY" - "$WHEEL" <<'PY'
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
wanted = [f"papershelf/frontends/web/{f}" for f in ("index.html", "app.js", "style.css")]
wanted.append("papershelf/embed/models/all-MiniLM-L6-v2-int8w/tokenizer.json")
missing = [w for w in wanted if w not in names]
sys.exit(f"the wheel lacks {missing}" if missing else 0)
PY

cd "$WORK"   # nothing below may see the checkout
start=$(date +%s)
"$PY" -m venv "$WORK/venv"
"$WORK/venv/bin/python" -m pip install -q --disable-pip-version-check "$WHEEL"
installed=$(date +%s)
if "$WORK/venv/bin/python" -c "import importlib.util as u, sys; sys.exit(0 if u.find_spec('torch') else 1)"; then
    echo "torch was installed by the default install"; exit 1
fi
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PAPERSHELF_CACHE_DIR="$WORK/cache"
mkdir "$PAPERSHELF_CACHE_DIR"
PS="$WORK/venv/bin/papershelf"
"$PS" --library "$WORK/lib.db" index "$ROOT/examples" >"$WORK/index.log" 2>&1 || { tail -20 "$WORK/index.log"; exit 1; }
"$PS" --library "$WORK/lib.db" search "how long do reefs take to come back" --mode vector --json -n 3 >"$WORK/hits.json"
searched=$(date +%s)
"$WORK/venv/bin/python" - "$WORK/hits.json" <<'PY'
import json, sys
hits = json.load(open(sys.argv[1]))["results"]
assert hits and hits[0]["paper_id"] == "mbeki2022coral", hits[:1]
PY
"$PS" --library "$WORK/lib.db" search "IL-6 western blot" --mode lexical -n 1 >/dev/null
size=$(du -sm "$WORK/venv" | cut -f1)
model=$("$PS" --library "$WORK/lib.db" status --json | "$WORK/venv/bin/python" -c \
    "import json,sys; print(json.load(sys.stdin)['embedding']['active_space']['model'])")
echo "wheel smoke: $(basename "$WHEEL"), no torch, venv $size MB, model $model," \
     "pip install $((installed - start)) s, install to first result $((searched - start)) s"
