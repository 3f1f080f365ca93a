/*
 * mpi_library.h: which loaded library is a C MPI library, for the stub (which finds the
 * real routines in it where MPI was opened RTLD_LOCAL) and the core's component.c (which
 * names the MPI in use). Header only: the stub links nothing of the core.
 */
#ifndef IOT_MPI_LIBRARY_H
#define IOT_MPI_LIBRARY_H

#include <string.h>

/*
 * iot_is_mpi_library returns 1 for the file name (a path, or a bare name) of a C MPI
 * library: MPICH's libmpi.so / libmpich.so, Open MPI's libmpi.so, the standard ABI's
 * libmpi_abi.so (not the Fortran or C++ layers); 0 otherwise.
 */
static inline int iot_is_mpi_library(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    static const char *const prefixes[] = {"libmpi.so", "libmpich.so", "libmpi_abi.so"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(base, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

#endif
