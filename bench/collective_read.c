/*
 * collective_read PATH [--size BYTES] [--calls N] [--file-bytes B] [--write]: the cost of
 * collective reads served from the page cache, so that runs with and without the interposer
 * (bench/collective_read.py) show what it adds where the file system costs least.
 *
 * With --write, all ranks create PATH and fill it once (MPI_File_write_at_all) with a
 * pattern: every 8-byte word holds its own file offset. Without it, they open PATH read-only
 * and make N calls of MPI_File_read_at_all, each rank reading --size bytes (default 16384):
 * call i reads block i mod K, where the file holds K blocks of nprocs*size bytes and rank r
 * reads the r-th slice of the block. The file is small enough (--file-bytes, default 64 MiB)
 * to stay in the page cache; one untimed pass over it first brings it there.
 *
 * Every call checks the first word it read (a wrong byte means a wrong offset or a broken
 * read, and ends the run with an error); only the loop of calls is timed, after a barrier,
 * in wall-clock and in CPU time (which leaves out the time a rank waited for a core, which
 * on a shared machine blurs the wall clock). Rank 0 prints (on one line)
 *   collective_read: calls=<N> bytes=<all ranks' bytes> seconds=<slowest rank> mib_per_s=<>
 *                    cpu_seconds=<largest CPU time of a rank in the loop>
 * A benchmark reports figures; it never judges them.
 */
#include <mpi.h>
#include <stdint.h>
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
    fprintf(stderr, "collective_read: rank %d: %s failed: %s\n", rank, routine, text);
}

/* Fills buf (a multiple of 8 bytes) with the pattern of the file region starting at offset. */
static void fill(unsigned char *buf, long long len, uint64_t offset) {
    for (long long i = 0; i + 8 <= len; i += 8) {
        uint64_t word = offset + (uint64_t)i;
        memcpy(buf + i, &word, 8);
    }
}

/* Writes the whole file, one block (nprocs*size bytes, this rank's slice) per call. */
static int write_file(MPI_File fh, int rank, int nprocs, long long size, long long blocks,
                      unsigned char *buf) {
    int rc = MPI_SUCCESS;
    for (long long b = 0; b < blocks && rc == MPI_SUCCESS; b++) {
        MPI_Offset off = ((MPI_Offset)b * nprocs + rank) * size;
        fill(buf, size, (uint64_t)off);
        rc = MPI_File_write_at_all(fh, off, buf, (int)size, MPI_BYTE, MPI_STATUS_IGNORE);
    }
    if (rc != MPI_SUCCESS)
        report(rank, "MPI_File_write_at_all", rc);
    return rc;
}

/* Reads calls blocks, cycling over the file; 0, or 1 after a failure or a wrong word. */
static int read_loop(MPI_File fh, int rank, int nprocs, long long size, long long blocks,
                     long long calls, unsigned char *buf) {
    int bad = 0;
    for (long long i = 0; i < calls; i++) {
        MPI_Offset off = ((MPI_Offset)(i % blocks) * nprocs + rank) * size;
        int rc = MPI_File_read_at_all(fh, off, buf, (int)size, MPI_BYTE, MPI_STATUS_IGNORE);
        uint64_t word;
        memcpy(&word, buf, 8);
        if (rc != MPI_SUCCESS) {
            report(rank, "MPI_File_read_at_all", rc);
            bad = 1;
        } else if (word != (uint64_t)off) {
            fprintf(stderr,
                    "collective_read: rank %d: read at offset %lld found the word of offset %llu\n",
                    rank, (long long)off, (unsigned long long)word);
            bad = 1;
        }
        /* Every rank makes the same collective calls: a rank that found a problem goes on
         * reading until the next check, which all ranks reach at the same call, and they
         * leave together (deciding at once would leave the others waiting in a read). */
        if ((i & 1023) == 1023 || i == calls - 1) {
            MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            if (bad)
                return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    int rank, nprocs;
    const char *path = NULL;
    long long size = 16384, calls = 10000, file_bytes = 64LL << 20;
    int writing = 0, bad = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    for (int i = 1; i < argc && !bad; i++) {
        long long *target = strcmp(argv[i], "--size") == 0         ? &size
                            : strcmp(argv[i], "--calls") == 0      ? &calls
                            : strcmp(argv[i], "--file-bytes") == 0 ? &file_bytes
                                                                   : NULL;
        if (strcmp(argv[i], "--write") == 0) {
            writing = 1;
        } else if (target) {
            if (i + 1 >= argc || parse_count(argv[i + 1], target) != 0) {
                if (rank == 0)
                    fprintf(stderr, "collective_read: %s needs a positive integer, got '%s'\n",
                            argv[i], i + 1 < argc ? argv[i + 1] : "");
                bad = 1;
            }
            i++;
        } else if (argv[i][0] != '-' && path == NULL) {
            path = argv[i];
        } else {
            if (rank == 0)
                fprintf(stderr, "collective_read: unexpected argument '%s'\n", argv[i]);
            bad = 1;
        }
    }
    if (!bad && path == NULL) {
        if (rank == 0)
            fprintf(stderr, "usage: collective_read PATH [--size BYTES] [--calls N] "
                            "[--file-bytes B] [--write]\n");
        bad = 1;
    }
    if (!bad && (size % 8 != 0 || size > (1 << 30))) {
        if (rank == 0)
            fprintf(stderr,
                    "collective_read: --size must be a multiple of 8 of at most 1 GiB, got %lld\n",
                    size);
        bad = 1;
    }
    if (bad) {
        MPI_Finalize();
        return 2;
    }
    long long blocks = file_bytes / (size * nprocs);
    if (blocks < 1) {
        /* Every rank computes the same: they all leave here. */
        if (rank == 0)
            fprintf(stderr,
                    "collective_read: --file-bytes must hold one call of every rank (%lld x %d "
                    "= %lld bytes), got %lld\n",
                    size, nprocs, size * nprocs, file_bytes);
        MPI_Finalize();
        return 2;
    }

    unsigned char *buf = malloc((size_t)size);
    int no_memory = buf == NULL, status = 0;
    MPI_Allreduce(MPI_IN_PLACE, &no_memory, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (no_memory) {
        if (buf == NULL)
            fprintf(stderr, "collective_read: rank %d: cannot allocate %lld bytes\n", rank, size);
        free(buf);
        MPI_Finalize();
        return 1;
    }

    MPI_File fh;
    int amode = writing ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY;
    int rc = MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, &fh);
    if (rc != MPI_SUCCESS) {
        /* a collective open fails on every rank alike */
        if (rank == 0)
            report(rank, "MPI_File_open", rc);
        free(buf);
        MPI_Finalize();
        return 1;
    }

    double seconds = 0, cpu = 0;
    if (writing) {
        status = write_file(fh, rank, nprocs, size, blocks, buf) != MPI_SUCCESS;
    } else {
        /* One untimed pass puts the file in the page cache (and the first call's one-time
         * work, in MPI and in the interposer, outside the timed loop). */
        status = read_loop(fh, rank, nprocs, size, blocks, blocks, buf);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime(), c0 = cpu_seconds();
        if (!status)
            status = read_loop(fh, rank, nprocs, size, blocks, calls, buf);
        seconds = MPI_Wtime() - t0;
        cpu = cpu_seconds() - c0;
    }
    rc = MPI_File_close(&fh);
    if (rc != MPI_SUCCESS) {
        report(rank, "MPI_File_close", rc);
        status = 1;
    }

    double mine[2] = {seconds, cpu}, slowest[2];
    MPI_Reduce(mine, slowest, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && status == 0 && !writing) {
        double bytes = (double)calls * (double)size * nprocs;
        printf("collective_read: calls=%lld bytes=%.0f seconds=%.6f mib_per_s=%.1f "
               "cpu_seconds=%.6f\n",
               calls, bytes, slowest[0],
               slowest[0] > 0 ? bytes / slowest[0] / (1024.0 * 1024.0) : 0.0, slowest[1]);
    }
    free(buf);
    MPI_Finalize();
    return status;
}
