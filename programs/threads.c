/*
 * threads PREFIX [--threads T] [--rounds K] [--ops N]: MPI-IO from several threads at once
 * under MPI_THREAD_MULTIPLE, so the tests can check that a traced run counts every call
 * and moves every byte while threads open, use and close files side by side.
 *
 * Every rank opens PREFIX.shared on MPI_COMM_WORLD; then T threads run K rounds of: open
 * PREFIX.p<rank>.t<t>.r<k> on MPI_COMM_SELF, N MPI_File_write_at of 8 bytes to it and N to
 * PREFIX.shared (the same handle in every thread), one MPI_File_write_at_all of 8 bytes,
 * and close. Every 8-byte word written holds its own offset. After the threads end, every
 * rank reads its words of PREFIX.shared back and checks them. (The threads' files belong to
 * MPI_COMM_SELF: with threads of two ranks opening files on different communicators at
 * once, MPICH 5.0.2 hung here even without iotuner.)
 *
 * Rank 0 prints "threads: ok threads=T rounds=K ops=N" when all went well; exit status 3
 * (and a line saying so) when MPI does not provide MPI_THREAD_MULTIPLE.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

enum { MAX_THREADS = 16 };

static const char *prefix;
static long long threads = 2, rounds = 4, ops = 2000;
static int rank, nprocs;
static MPI_File shared;

struct worker {
    int t;
    int failed;
};

static int check(int rc, const char *what, int t) {
    if (rc == MPI_SUCCESS)
        return 0;
    char text[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, text, &len);
    fprintf(stderr, "threads: rank %d thread %d: %s failed: %s\n", rank, t, what, text);
    return 1;
}

/* The offset of word i of round k of thread t of this rank in PREFIX.shared. */
static MPI_Offset shared_offset(int t, long long k, long long i) {
    return ((((MPI_Offset)t * nprocs + rank) * rounds + k) * ops + i) * 8;
}

static void *work(void *arg) {
    struct worker *w = arg;
    char name[4096];
    for (long long k = 0; k < rounds && !w->failed; k++) {
        snprintf(name, sizeof name, "%s.p%d.t%d.r%lld", prefix, rank, w->t, k);
        MPI_File fh;
        if (check(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                                MPI_INFO_NULL, &fh),
                  "MPI_File_open", w->t)) {
            w->failed = 1;
            break;
        }
        for (long long i = 0; i < ops && !w->failed; i++) {
            uint64_t word = (uint64_t)i * 8;
            w->failed = check(
                MPI_File_write_at(fh, (MPI_Offset)word, &word, 8, MPI_BYTE, MPI_STATUS_IGNORE),
                "MPI_File_write_at", w->t);
            uint64_t there = (uint64_t)shared_offset(w->t, k, i);
            w->failed |= check(MPI_File_write_at(shared, (MPI_Offset)there, &there, 8, MPI_BYTE,
                                                 MPI_STATUS_IGNORE),
                               "MPI_File_write_at (shared file)", w->t);
        }
        uint64_t word = (uint64_t)ops * 8;
        w->failed |= check(
            MPI_File_write_at_all(fh, (MPI_Offset)word, &word, 8, MPI_BYTE, MPI_STATUS_IGNORE),
            "MPI_File_write_at_all", w->t);
        w->failed |= check(MPI_File_close(&fh), "MPI_File_close", w->t);
    }
    return NULL;
}

int main(int argc, char **argv) {
    int provided = MPI_THREAD_SINGLE, bad = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    for (int i = 1; i < argc && !bad; i++) {
        long long *target = strcmp(argv[i], "--threads") == 0  ? &threads
                            : strcmp(argv[i], "--rounds") == 0 ? &rounds
                            : strcmp(argv[i], "--ops") == 0    ? &ops
                                                               : NULL;
        if (target) {
            bad = i + 1 >= argc || parse_count(argv[i + 1], target) != 0;
            if (bad && rank == 0)
                fprintf(stderr, "threads: %s needs a positive integer, got '%s'\n", argv[i],
                        i + 1 < argc ? argv[i + 1] : "");
            i++;
        } else if (argv[i][0] != '-' && !prefix) {
            prefix = argv[i];
        } else {
            bad = 1;
            if (rank == 0)
                fprintf(stderr, "threads: unexpected argument '%s'\n", argv[i]);
        }
    }
    if (!bad && (!prefix || threads > MAX_THREADS)) {
        if (rank == 0)
            fprintf(stderr, "usage: threads PREFIX [--threads T<=%d] [--rounds K] [--ops N]\n",
                    MAX_THREADS);
        bad = 1;
    }
    if (bad) {
        MPI_Finalize();
        return 2;
    }
    if (provided < MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            printf("threads: MPI provides thread level %d, not MPI_THREAD_MULTIPLE\n", provided);
        MPI_Finalize();
        return 3;
    }

    char name[4096];
    snprintf(name, sizeof name, "%s.shared", prefix);
    int failed = check(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR,
                                     MPI_INFO_NULL, &shared),
                       "MPI_File_open (shared file)", -1);
    if (failed) {
        MPI_Finalize();
        return 1;
    }
    struct worker w[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    for (int t = 0; t < threads; t++)
        w[t] = (struct worker){.t = t};
    for (int t = 0; t < threads; t++)
        if (pthread_create(&tid[t], NULL, work, &w[t]) != 0) {
            fprintf(stderr, "threads: rank %d: cannot start a thread\n", rank);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    for (int t = 0; t < threads; t++) {
        pthread_join(tid[t], NULL);
        failed |= w[t].failed;
    }

    /* Every word this rank wrote to the shared file holds its offset. */
    long long wrong = 0;
    for (int t = 0; t < threads && !failed; t++)
        for (long long k = 0; k < rounds; k++)
            for (long long i = 0; i < ops; i++) {
                uint64_t word = 0;
                MPI_Offset at = shared_offset(t, k, i);
                failed |= check(MPI_File_read_at(shared, at, &word, 8, MPI_BYTE, MPI_STATUS_IGNORE),
                                "MPI_File_read_at (shared file)", -1);
                wrong += word != (uint64_t)at;
            }
    if (wrong) {
        fprintf(stderr, "threads: rank %d: %lld words of the shared file are wrong\n", rank, wrong);
        failed = 1;
    }
    failed |= check(MPI_File_close(&shared), "MPI_File_close (shared file)", -1);
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && !failed)
        printf("threads: ok threads=%lld rounds=%lld ops=%lld\n", threads, rounds, ops);
    MPI_Finalize();
    return failed;
}
