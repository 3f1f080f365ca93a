#!/usr/bin/env bash
# Sets up iotuner in this checkout, without root:
#   .venv/            virtual environment with the iotuner package (editable)
#   MPI               the PyPI `mpich` wheel, unless IOTUNER_MPICC names your own mpicc
#   .venv/lib/iotuner/libiotuner.so and .venv/libexec/iotuner/*  (built with that mpicc)
# IOTUNER_PREFIX=DIR puts the MPI part (library, programs, build.json) in DIR instead: one
# build per MPI side by side; iotuner then uses the one $IOTUNER_PREFIX names.
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
  # The launcher of the same MPI: Debian's /usr/bin/mpicc.mpich goes with mpiexec.mpich,
  # while /usr/bin/mpiexec may be another MPI's (the alternatives system picks one).
  bindir=$(dirname "$(command -v "$mpicc" || echo "$mpicc")")
  suffix=${mpicc##*/mpicc}
  mpiexec=$bindir/mpiexec$suffix
  [ -x "$mpiexec" ] || mpiexec=$bindir/mpiexec
  mpiexec=${IOTUNER_MPIEXEC:-$mpiexec}
else
  .venv/bin/python -m pip install --quiet "mpich>=4.1"
  mpicc=$PWD/.venv/bin/mpicc
  mpiexec=$PWD/.venv/bin/mpiexec
fi
if ! command -v "$mpicc" >/dev/null; then
  echo "setup.sh: the MPI compiler '$mpicc' was not found (IOTUNER_MPICC should name an mpicc)" >&2
  exit 1
fi

prefix=${IOTUNER_PREFIX:-.venv}
# Each prefix builds in its own directory, so builds for two MPIs never mix objects.
build=build
[ "$prefix" = .venv ] || build=build/prefix-$(printf %s "$(realpath -m "$prefix")" | cksum | cut -d' ' -f1)
make --no-print-directory -s MPICC="$mpicc" BUILD="$build" PREFIX="$prefix" install
mkdir -p "$prefix/share/iotuner"
cat > "$prefix/share/iotuner/build.json.tmp" <<JSON
{"mpicc": "$mpicc", "mpiexec": "$mpiexec"}
JSON
mv "$prefix/share/iotuner/build.json.tmp" "$prefix/share/iotuner/build.json"
echo "setup.sh: ready (MPI compiler: $mpicc, installed in $prefix)"
