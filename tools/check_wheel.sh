#!/usr/bin/env bash
# The package outside the lock: build the wheel, install it ALONE in a fresh virtual environment
# (pip resolves pyproject.toml's ranges from the registry; requirements.txt is not used), and run
# every command on small inputs written here. CI installs from the lock, which pins far more than
# irrepro declares, so a dependency missing from pyproject.toml shows up only here.
#
#   tools/check_wheel.sh            (from .ci/run; PYTHON=python3.11 to choose the interpreter)
#
# The routing run needs the Reuters-21578 files: from $IRREPRO_DATA_MIRROR (../shared/data when it
# is beside the clone), copied into a fresh cache so that the installed package fetches them itself.
set -euo pipefail
cd "$(dirname "$0")/.."
repository=$PWD
PYTHON=${PYTHON:-python3}
start=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/tmp}/irrepro-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT
unset PYTHONPATH  # the installed wheel only, never src/
if [ -z "${IRREPRO_DATA_MIRROR:-}" ] && [ -f ../shared/data/MANIFEST.tsv ]; then
  IRREPRO_DATA_MIRROR=$(cd ../shared/data && pwd)
fi
export IRREPRO_DATA_MIRROR="${IRREPRO_DATA_MIRROR:-}" IRREPRO_CACHE="$work/cache"
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 PIP_DISABLE_PIP_VERSION_CHECK=1

step() { echo "check_wheel: $*"; }

# pip's own notes (a configured index folder that is absent here) go to a log shown on failure.
quietly() { "$@" > "$work/pip.log" 2>&1 || { cat "$work/pip.log" >&2; return 1; }; }

step "build the wheel from a copy of the sources (isolated: setuptools from the registry, as pyproject.toml asks)"
mkdir "$work/source"
git ls-files --cached --others --exclude-standard -z | xargs -0 cp --no-dereference --parents -t "$work/source"
"$PYTHON" -m venv "$work/venv"
pip="$work/venv/bin/pip"
quietly "$pip" wheel --no-deps --wheel-dir "$work/dist" "$work/source"
wheel=$(ls "$work"/dist/irrepro-*.whl)
step "install $(basename "$wheel") alone (no lock: the registry resolves its ranges)"
quietly "$pip" install "$wheel"

cd "$work"  # away from the repository: the installed package is the one imported
irrepro="$work/venv/bin/irrepro"
where=$("$work/venv/bin/python" -c "import irrepro; print(irrepro.__file__)")
case "$where" in "$work/venv/"*) ;; *) echo "check_wheel: irrepro imported from $where, not the wheel" >&2; exit 1 ;; esac
expected="irrepro $(basename "$wheel" | cut -d- -f2)"
[ "$("$irrepro" --version)" = "$expected" ] || { echo "check_wheel: --version is not '$expected'" >&2; exit 1; }
"$irrepro" --help > /dev/null

step "small inputs"
"$work/venv/bin/python" - << 'EOF'
import numpy as np
rng = np.random.default_rng(7)
topics, docs = [f"{t}" for t in range(1, 7)], [f"d{d}" for d in range(30)]
with open("qrels.txt", "w") as qrels:
    for topic in topics:
        for doc in docs:
            qrels.write(f"{topic} 0 {doc} {int(rng.random() < 0.3)}\n")
for name in ("orig_b", "orig_a", "new_b", "new_a"):
    with open(f"{name}.run", "w") as run:
        for topic in topics:
            for rank, doc in enumerate(rng.permutation(docs)[:20], start=1):
                run.write(f"{topic} Q0 {doc} {rank} {100 - rank + rng.random():.4f} {name}\n")
EOF
pair=(--qrels qrels.txt --orig-baseline orig_b.run --orig-advanced orig_a.run --new-baseline new_b.run --new-advanced new_a.run)

step "evaluate, compare, report"
"$irrepro" evaluate --qrels qrels.txt orig_b.run orig_a.run > evaluate.txt
grep -q "orig_a" evaluate.txt
"$irrepro" compare "${pair[@]}" --format json > compare.json
"$work/venv/bin/python" -c "import json; json.load(open('compare.json'))"
"$irrepro" report "${pair[@]}" --bootstrap 200 --out report.html > /dev/null
grep -q "</html>" report.html

step "ir_measures' names (ir-measures parses those with parameters)"
"$irrepro" evaluate --qrels qrels.txt orig_b.run --measures "P(rel=1)@10,RR,nDCG@10" > measures.txt
grep -q "P(rel=1)@10" measures.txt

step "routing run on the Reuters-21578 stand-in, and its ir_metadata header (PyYAML)"
"$irrepro" routing run --system wcrobust04 --target reuters-near --depth 50 --quiet --out wcr04.run > routing.txt
[ "$(grep -v '^#' wcr04.run | cut -d' ' -f1 | sort -u | wc -l)" -gt 1 ]
"$irrepro" metadata show wcr04.run > header.yaml
grep -q "^tag: wcrobust04_default" header.yaml

echo "check_wheel: the wheel alone installs and runs every command ($(( $(date +%s) - start )) s)"
