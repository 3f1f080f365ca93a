#!/usr/bin/env bash
# Sets up iotuner in this checkout, without root:
#   .venv/            virtual environment with the iotuner package (editable)
#   MPI               the PyPI `mpich` wheel, unless IOTUNER_MPICC names your own mpicc
#   .venv/lib/iotuner/libiotuner.so and .venv/libexec/iotuner/*  (built with that mpicc)
# Safe to run again: it only redoes what changed.
set -euo pipefail
cd "$(dirname "$0")"

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[dev]"

if [ -n "${IOTUNER_MPICC:-}" ]; then
  mpicc=$IOTUNER_MPICC
  mpiexec=${IOTUNER_MPIEXEC:-$(dirname "$(command -v "$mpicc")")/mpiexec}
else
  .venv/bin/python -m pip install --quiet "mpich>=4.1"
  mpicc=$PWD/.venv/bin/mpicc
  mpiexec=$PWD/.venv/bin/mpiexec
fi
if ! command -v "$mpicc" >/dev/null; then
  echo "setup.sh: the MPI compiler '$mpicc' was not found (IOTUNER_MPICC should name an mpicc)" >&2
  exit 1
fi

make --no-print-directory -s MPICC="$mpicc" PREFIX=.venv install
mkdir -p .venv/share/iotuner
cat > .venv/share/iotuner/build.json.tmp <<JSON
{"mpicc": "$mpicc", "mpiexec": "$mpiexec"}
JSON
mv .venv/share/iotuner/build.json.tmp .venv/share/iotuner/build.json
echo "setup.sh: ready (MPI compiler: $mpicc)"
