#!/usr/bin/env bash
# Builds Darshan's runtime library (libdarshan.so, for LD_PRELOAD) from the vendored source
# with an MPI compiler, once, and prints the installation prefix:
#   third_party/darshan/build.sh [MPICC]
# MPICC: the argument, else $IOTUNER_MPICC, else the checkout's .venv/bin/mpicc (the PyPI
# mpich that ./setup.sh builds iotuner with), else mpicc.
# The prefix is build/darshan-<hash> in the checkout, <hash> of the source, this script and
# the compiler's path; a finished build (its .done stamp) is reused. The configure script
# is pre-generated (see README.md), so the build needs a C compiler, make and zlib's header
# (Debian: zlib1g-dev), not autotools.
# Log files go to the directory $DARSHAN_LOGPATH names at run time (it must exist).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

mpicc=${1:-${IOTUNER_MPICC:-}}
if [ -z "$mpicc" ]; then
  if [ -x "$root/.venv/bin/mpicc" ]; then mpicc=$root/.venv/bin/mpicc; else mpicc=mpicc; fi
fi
command -v "$mpicc" >/dev/null || { echo "darshan/build.sh: no MPI compiler '$mpicc'" >&2; exit 1; }
mpicc=$(command -v "$mpicc")

hash=$( (cd "$here" && find . -type f ! -name README.md -print0 | LC_ALL=C sort -z |
  xargs -0 sha256sum; echo "$mpicc") | sha256sum | cut -c1-12)
prefix=$root/build/darshan-$hash
if [ -f "$prefix/.done" ]; then
  echo "$prefix"
  exit 0
fi

start=$(date +%s)
rm -rf "$prefix"
mkdir -p "$prefix/obj"
cd "$prefix/obj"
# Maintainer mode off: make never reruns autotools, whatever the checkout's timestamps.
# No Lustre module (it would need lustreapi); HDF5, PnetCDF, DAOS, LDMS are off by default.
"$here/darshan-runtime/configure" --prefix="$prefix" CC="$mpicc" \
  --disable-maintainer-mode --with-log-path-by-env=DARSHAN_LOGPATH --with-jobid-env=NONE \
  --disable-lustre-mod >configure.log 2>&1 ||
  { tail -30 configure.log >&2; echo "darshan/build.sh: configure failed ($prefix/obj/configure.log)" >&2; exit 1; }
{ make -j"$(nproc 2>/dev/null || echo 2)" && make install; } >make.log 2>&1 ||
  { tail -30 make.log >&2; echo "darshan/build.sh: make failed ($prefix/obj/make.log)" >&2; exit 1; }
[ -f "$prefix/lib/libdarshan.so" ] || { echo "darshan/build.sh: no $prefix/lib/libdarshan.so" >&2; exit 1; }
echo "darshan/build.sh: built in $(($(date +%s) - start)) s with $mpicc" >&2
touch "$prefix/.done"
echo "$prefix"
