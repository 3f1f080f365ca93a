/*
 * mpi_library.h: what the stub and the core's component.c both ask of the process's MPI:
 * which loaded library is a C MPI library (the stub finds the real routines in it where
 * MPI was opened RTLD_LOCAL; component.c names the MPI in use), and the process's rank as
 * its launcher set it (both warn from the first rank only, before MPI can tell). Header
 * only: the stub links nothing of the core.
 */
#ifndef IOT_MPI_LIBRARY_H
#define IOT_MPI_LIBRARY_H

#include <stdlib.h>
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

/*
 * iot_launcher_rank returns this process's rank from the launcher's environment (MPICH's
 * PMI, Open MPI's, PMIx, Slurm), or -1 when none says.
 */
static inline int iot_launcher_rank(void) {
    static const char *const names[] = {"PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK",
                                        "SLURM_PROCID"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        if (v && *v)
            return atoi(v);
    }
    return -1;
}

#endif
