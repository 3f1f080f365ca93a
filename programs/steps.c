/*
 * steps PATH STEP...: one file, opened once, written by a script of steps, so tests can
 * place each decision point of the interposer where they want it and see when a decision
 * happened (the op records of a trace say which hints were in force at each call).
 *
 *   coll=BYTESxN   N MPI_File_write_at_all calls of BYTES per rank
 *   ind=BYTESxN    N MPI_File_write_at calls of BYTES per rank (independent)
 *   view=contiguous|strided
 *                  MPI_File_set_view: the byte view, or blocks of 4 KiB interleaved
 *                  between the ranks (with 2 or more ranks each rank's view has holes,
 *                  which the other ranks fill, so the whole file is defined)
 *   info=KEY:VALUE MPI_File_set_info with that one key
 *   self=BYTESxN   after a sync and a barrier, rank 0 alone opens the file again (on
 *                  MPI_COMM_SELF: a one-rank open beside the job's) and makes N
 *                  MPI_File_write_at_all calls of BYTES from offset 0, writing each byte's
 *                  own content (below), then closes it; the others wait at a barrier
 *
 * Every call writes this rank's next BYTES of its own stream, which starts where the
 * previous call ended (in the units of the view in force, from the start of the view), so
 * no two ranks write the same byte; with sizes in multiples of 4 KiB and every rank
 * writing as much, every byte of the file is written. The byte at file offset o is
 * (unsigned char)((o*131 + 7) ^ (o >> 9)) as in iokernel; only written bytes are defined.
 * Rank 0 prints `steps: ok CALLS` at the end. Exit code 1 on an MPI error, 2 on bad steps.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 4096 };

static unsigned char content(uint64_t o) {
    return (unsigned char)((o * 131 + 7) ^ (o >> 9));
}

/* The file offset of byte v of the view in force (base: its start in the file). */
static uint64_t file_offset(int strided, int rank, int nprocs, uint64_t base, uint64_t v) {
    if (!strided)
        return base + v;
    uint64_t round = v / BLOCK, within = v % BLOCK;
    return base + (round * (uint64_t)nprocs + (uint64_t)rank) * BLOCK + within;
}

static int parse_count(const char *text, unsigned long long *bytes, unsigned long long *n) {
    char *end = NULL;
    *bytes = strtoull(text, &end, 10);
    if (!end || *end != 'x')
        return -1;
    *n = strtoull(end + 1, &end, 10);
    return *end == '\0' && *bytes > 0 && *n > 0 ? 0 : -1;
}

/* The self= step: N collective calls of BYTES on a one-rank open of path; 1 on a failure. */
static int write_alone(const char *path, unsigned long long bytes, unsigned long long n) {
    MPI_File alone;
    if (MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &alone) != MPI_SUCCESS)
        return 1;
    unsigned char *buf = malloc(bytes);
    if (!buf)
        MPI_Abort(MPI_COMM_WORLD, 1);
    int failed = 0;
    for (unsigned long long c = 0; c < n; c++) {
        for (unsigned long long k = 0; k < bytes; k++)
            buf[k] = content(c * bytes + k);
        MPI_Status status;
        failed |= MPI_File_write_at_all(alone, (MPI_Offset)(c * bytes), buf, (int)bytes, MPI_BYTE,
                                        &status) != MPI_SUCCESS;
    }
    free(buf);
    failed |= MPI_File_close(&alone) != MPI_SUCCESS;
    return failed;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, nprocs = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 2) {
        if (rank == 0)
            fprintf(stderr, "usage: steps PATH STEP...\n");
        MPI_Finalize();
        return 2;
    }
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_WRONLY,
                           MPI_INFO_NULL, &fh);
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "steps: rank %d cannot open %s\n", rank, argv[1]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Datatype strided_type = MPI_DATATYPE_NULL, block = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(BLOCK, MPI_BYTE, &block);
    MPI_Type_create_resized(block, 0, (MPI_Aint)BLOCK * nprocs, &strided_type);
    MPI_Type_commit(&strided_type);

    int strided = 0, failed = 0, bad = 0;
    uint64_t stream = 0;    /* bytes this rank wrote in the view in force */
    uint64_t view_base = 0; /* where the view in force starts in the file */
    long long calls = 0;
    for (int i = 2; i < argc && !bad; i++) {
        const char *step = argv[i];
        unsigned long long bytes = 0, n = 0;
        if (strncmp(step, "coll=", 5) == 0 || strncmp(step, "ind=", 4) == 0) {
            int collective = step[0] == 'c';
            if (parse_count(strchr(step, '=') + 1, &bytes, &n) != 0) {
                bad = 1;
                break;
            }
            unsigned char *buf = malloc(bytes);
            if (!buf)
                MPI_Abort(MPI_COMM_WORLD, 1);
            for (unsigned long long c = 0; c < n; c++) {
                /* Explicit offsets count bytes of the view from its start. In the strided
                 * view each rank sees only its own blocks; in a byte view rank r's bytes of
                 * a call follow the lower ranks' bytes of that call. */
                uint64_t at = strided ? stream : stream * (uint64_t)nprocs + (uint64_t)rank * bytes;
                for (unsigned long long k = 0; k < bytes; k++)
                    buf[k] = content(file_offset(strided, rank, nprocs, view_base, at + k));
                MPI_Status status;
                rc = collective ? MPI_File_write_at_all(fh, (MPI_Offset)at, buf, (int)bytes,
                                                        MPI_BYTE, &status)
                                : MPI_File_write_at(fh, (MPI_Offset)at, buf, (int)bytes, MPI_BYTE,
                                                    &status);
                failed |= rc != MPI_SUCCESS;
                stream += bytes;
                calls++;
            }
            free(buf);
        } else if (strcmp(step, "view=contiguous") == 0 || strcmp(step, "view=strided") == 0) {
            /* A new view starts a new region after everything written so far. */
            MPI_Offset end = 0;
            MPI_File_sync(fh);
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_File_get_size(fh, &end);
            MPI_Allreduce(MPI_IN_PLACE, &end, 1, MPI_OFFSET, MPI_MAX, MPI_COMM_WORLD);
            end = (end + BLOCK - 1) / BLOCK * BLOCK;
            strided = step[5] == 's';
            view_base = (uint64_t)end;
            rc = strided ? MPI_File_set_view(fh, end + (MPI_Offset)rank * BLOCK, MPI_BYTE,
                                             strided_type, "native", MPI_INFO_NULL)
                         : MPI_File_set_view(fh, end, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
            failed |= rc != MPI_SUCCESS;
            stream = 0;
        } else if (strncmp(step, "self=", 5) == 0) {
            if (parse_count(step + 5, &bytes, &n) != 0) {
                bad = 1;
                break;
            }
            MPI_File_sync(fh);
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == 0)
                failed |= write_alone(argv[1], bytes, n);
            MPI_Barrier(MPI_COMM_WORLD);
            calls += rank == 0 ? (long long)n : 0;
        } else if (strncmp(step, "info=", 5) == 0 && strchr(step, ':')) {
            char key[MPI_MAX_INFO_KEY + 1];
            const char *colon = strchr(step, ':');
            size_t len = (size_t)(colon - step - 5);
            if (len == 0 || len > MPI_MAX_INFO_KEY) {
                bad = 1;
                break;
            }
            memcpy(key, step + 5, len);
            key[len] = '\0';
            MPI_Info info;
            MPI_Info_create(&info);
            MPI_Info_set(info, key, colon + 1);
            rc = MPI_File_set_info(fh, info);
            failed |= rc != MPI_SUCCESS;
            MPI_Info_free(&info);
        } else {
            bad = 1;
        }
    }
    MPI_File_sync(fh);
    MPI_File_close(&fh);
    MPI_Type_free(&strided_type);
    MPI_Type_free(&block);
    if (bad && rank == 0)
        fprintf(stderr, "steps: a step is not coll=BYTESxN, ind=BYTESxN, view=contiguous|strided, "
                        "self=BYTESxN or info=KEY:VALUE\n");
    if (failed)
        fprintf(stderr, "steps: rank %d: an MPI call failed\n", rank);
    else if (!bad && rank == 0)
        printf("steps: ok %lld\n", calls);
    MPI_Finalize();
    return bad ? 2 : failed ? 1 : 0;
}
