/*
 * overhead PATH [--ops N] [--size BYTES] [--collective] [--read] [--phases K] [--own-files]: the
 * cost of one tiny MPI-IO call, so that runs with and without the interposer (bench/overhead.py)
 * show what it adds per call, and of the whole I/O phase, open to the end of close
 * (bench/trace_cost.py).
 *
 * All ranks open PATH together; rank r then makes N calls of --size bytes (default 8) at
 * increasing offsets in its own region, [r*N*size, (r+1)*N*size): sequential and disjoint,
 * so the file system work per call is as small and as even as it gets. MPI_File_write_at by
 * default, MPI_File_write_at_all with --collective (which adds the collective's own cost);
 * with --read the same calls read (MPI_File_read_at, _at_all) a file an earlier write run left.
 * Writes are synced before the close (MPI_File_sync), so the phase ends with data on storage.
 *
 * The loop of calls is timed on its own (after a barrier): open and close happen once per run
 * and would blur a per-call figure. The phase is timed from a barrier before the open to the
 * end of the close, as the program (and IOR's "total") sees it. Rank 0 prints
 *   overhead: ops=<N per rank> seconds=<slowest rank's loop> ns_per_op=<seconds*1e9/N>
 *             cpu_seconds=<largest CPU time of a rank in the loop> cpu_ns_per_op=<>
 *             phase_seconds=<slowest rank's open to end of close>
 * (on one line). With --phases K the whole phase (open, calls, sync, close) runs K times in
 * the one process and phase_seconds is the median of the K phases (the slowest rank's
 * each), phase_min and phase_max their range: a cost of a few tenths of a millisecond per
 * phase shows through the noise of process launches this way (seconds and cpu_seconds are
 * then the last phase's loop).
 * With --own-files, after each phase every rank also writes 8 bytes to a file of its own,
 * PATH.r<rank>, opened on MPI_COMM_SELF (outside the timed phase): files of another group
 * closed between those of the world's (tests/integration/test_interposer.py).
 * CPU time leaves out the time a rank waited for a core, which on a shared
 * machine blurs the wall clock.
 * A benchmark reports figures; it never judges them.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"

static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void report(int rank, const char *routine, int rc) {
    char text[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, text, &len);
    for (char *p = text; *p != '\0'; p++)
        if (*p == '\n')
            *p = ' '; /* MPICH's error stack spans lines */
    fprintf(stderr, "overhead: rank %d: %s failed: %s\n", rank, routine, text);
}

/* --own-files: 8 bytes to PATH.r<rank>, a file of this rank's own; 0, or 1 after reporting. */
static int own_file(const char *path, int rank) {
    char name[4096];
    snprintf(name, sizeof name, "%s.r%d", path, rank);
    MPI_File fh;
    int rc =
        MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    if (rc == MPI_SUCCESS) {
        rc = MPI_File_write_at(fh, 0, "own file", 8, MPI_BYTE, MPI_STATUS_IGNORE);
        int closed = MPI_File_close(&fh);
        rc = rc == MPI_SUCCESS ? closed : rc;
    }
    if (rc != MPI_SUCCESS)
        report(rank, "an own file's open, write or close", rc);
    return rc != MPI_SUCCESS;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/*
 * One I/O phase: open, the calls, sync (writes), close. times gets this rank's loop
 * seconds, loop CPU seconds and phase seconds (barrier before the open to the end of the
 * close). Returns 0, or 1 after reporting what failed.
 */
static int one_phase(const char *path, int rank, long long ops, long long size, int collective,
                     int reading, char *buf, double times[3]) {
    MPI_File fh;
    int status = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double p0 = MPI_Wtime();
    int amode = reading ? MPI_MODE_RDONLY : MPI_MODE_CREATE | MPI_MODE_WRONLY;
    int rc = MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, &fh);
    if (rc != MPI_SUCCESS) {
        /* a collective open fails on every rank alike */
        if (rank == 0)
            report(rank, "MPI_File_open", rc);
        return 1;
    }

    MPI_Offset base = (MPI_Offset)rank * ops * size;
    const char *routine = reading ? (collective ? "MPI_File_read_at_all" : "MPI_File_read_at")
                                  : (collective ? "MPI_File_write_at_all" : "MPI_File_write_at");
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime(), c0 = cpu_seconds();
    /* Stop at the first failure; a collective failure is seen by every rank, so the ranks
     * leave the loop together (an independent one needs no partner). */
    for (long long i = 0; i < ops && rc == MPI_SUCCESS; i++) {
        MPI_Offset off = base + (MPI_Offset)i * size;
        if (reading)
            rc = collective
                     ? MPI_File_read_at_all(fh, off, buf, (int)size, MPI_BYTE, MPI_STATUS_IGNORE)
                     : MPI_File_read_at(fh, off, buf, (int)size, MPI_BYTE, MPI_STATUS_IGNORE);
        else
            rc = collective
                     ? MPI_File_write_at_all(fh, off, buf, (int)size, MPI_BYTE, MPI_STATUS_IGNORE)
                     : MPI_File_write_at(fh, off, buf, (int)size, MPI_BYTE, MPI_STATUS_IGNORE);
    }
    times[0] = MPI_Wtime() - t0;
    times[1] = cpu_seconds() - c0;
    if (rc != MPI_SUCCESS) {
        report(rank, routine, rc);
        status = 1;
    }
    /* Collective: every rank syncs, even one whose loop failed. */
    if (!reading && (rc = MPI_File_sync(fh)) != MPI_SUCCESS) {
        report(rank, "MPI_File_sync", rc);
        status = 1;
    }
    rc = MPI_File_close(&fh);
    if (rc != MPI_SUCCESS) {
        report(rank, "MPI_File_close", rc);
        status = 1;
    }
    times[2] = MPI_Wtime() - p0;
    return status;
}

int main(int argc, char **argv) {
    int rank, nprocs;
    const char *path = NULL;
    long long ops = 1000000, size = 8, phases = 1;
    int collective = 0, reading = 0, own_files = 0, bad = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    for (int i = 1; i < argc && !bad; i++) {
        if (strcmp(argv[i], "--collective") == 0) {
            collective = 1;
        } else if (strcmp(argv[i], "--own-files") == 0) {
            own_files = 1;
        } else if (strcmp(argv[i], "--read") == 0) {
            reading = 1;
        } else if (strcmp(argv[i], "--ops") == 0 || strcmp(argv[i], "--size") == 0 ||
                   strcmp(argv[i], "--phases") == 0) {
            long long *target = argv[i][2] == 'o' ? &ops : argv[i][2] == 's' ? &size : &phases;
            if (i + 1 >= argc || parse_count(argv[i + 1], target) != 0) {
                if (rank == 0)
                    fprintf(stderr, "overhead: %s needs a positive integer, got '%s'\n", argv[i],
                            i + 1 < argc ? argv[i + 1] : "");
                bad = 1;
            }
            i++;
        } else if (argv[i][0] != '-' && path == NULL) {
            path = argv[i];
        } else {
            if (rank == 0)
                fprintf(stderr, "overhead: unexpected argument '%s'\n", argv[i]);
            bad = 1;
        }
    }
    if (!bad && path == NULL) {
        if (rank == 0)
            fprintf(stderr, "usage: overhead PATH [--ops N] [--size BYTES] [--collective] [--read] "
                            "[--phases K] [--own-files]\n");
        bad = 1;
    }
    if (!bad && size > (1 << 30)) {
        if (rank == 0)
            fprintf(stderr, "overhead: --size must be at most 1 GiB, got %lld\n", size);
        bad = 1;
    }
    if (bad) {
        MPI_Finalize();
        return 2;
    }

    char *buf = malloc((size_t)size);
    int no_memory = buf == NULL, status = 0;
    MPI_Allreduce(MPI_IN_PLACE, &no_memory, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (no_memory) {
        if (buf == NULL)
            fprintf(stderr, "overhead: rank %d: cannot allocate %lld bytes\n", rank, size);
        free(buf);
        MPI_Finalize();
        return 1;
    }
    memset(buf, 'a' + rank % 26, (size_t)size);

    double *phase_times = malloc((size_t)phases * sizeof *phase_times);
    double mine[3] = {0, 0, 0}, slowest[3] = {0, 0, 0}, first = 0;
    for (long long k = 0; k < phases && status == 0; k++) {
        status = one_phase(path, rank, ops, size, collective, reading, buf, mine);
        if (own_files && status == 0)
            status = own_file(path, rank);
        MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        MPI_Reduce(mine, slowest, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (phase_times)
            phase_times[k] = slowest[2];
        if (k == 0)
            first = slowest[2];
    }
    if (rank == 0 && status == 0) {
        double median = slowest[2], low = slowest[2], high = slowest[2];
        if (phase_times) {
            qsort(phase_times, (size_t)phases, sizeof *phase_times, by_value);
            median = phases % 2 ? phase_times[phases / 2]
                                : (phase_times[phases / 2 - 1] + phase_times[phases / 2]) / 2;
            low = phase_times[0];
            high = phase_times[phases - 1];
        }
        printf("overhead: ops=%lld seconds=%.6f ns_per_op=%.1f cpu_seconds=%.6f cpu_ns_per_op=%.1f "
               "phase_seconds=%.6f phases=%lld phase_min=%.6f phase_max=%.6f phase_first=%.6f\n",
               ops, slowest[0], slowest[0] * 1e9 / (double)ops, slowest[1],
               slowest[1] * 1e9 / (double)ops, median, phases, low, high, first);
    }
    free(phase_times);
    free(buf);
    MPI_Finalize();
    return status;
}
