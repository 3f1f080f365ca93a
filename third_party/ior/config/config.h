/* Hand-written replacement for the config.h that IOR's autotools `configure` generates,
 * so IOR builds with one mpicc command and no autotools (see ../README.md). It says what
 * `configure` finds on a Linux/glibc system, and enables only the POSIX and MPIIO
 * backends (the MPIIO backend borrows POSIX's stat/mkdir helpers). */
#ifndef IOTUNER_IOR_CONFIG_H
#define IOTUNER_IOR_CONFIG_H

#define META_PACKAGE_NAME "ior"
#define META_VERSION "4.1.0+dev"
#define PACKAGE "ior"
#define PACKAGE_NAME "ior"
#define PACKAGE_VERSION "4.1.0+dev"
#define VERSION "4.1.0+dev"

#define HAVE_FCNTL_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_STRINGS_H 1
#define HAVE_SYS_IOCTL_H 1
#define HAVE_SYS_PARAM_H 1
#define HAVE_SYS_STATFS_H 1
#define HAVE_SYS_STATVFS_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_MOUNT_H 1
#define HAVE_UNISTD_H 1
#define HAVE_STATFS 1
#define HAVE_STATVFS 1
#define HAVE_GETTIMEOFDAY 1
#define HAVE_STRCASECMP 1
#define HAVE_STRNCASECMP 1
#define HAVE_SYSCONF 1
#define HAVE_UNAME 1

/* MPI 4 large-count routines (MPICH 4.x has them; IOR falls back without). */
#define HAVE_MPI_FILE_READ_C 1

#define USE_MPIIO_AIORI 1
#define USE_POSIX_AIORI 1

#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif

#endif
