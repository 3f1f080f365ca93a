/*
 * allroutines PATH [--list] [--blocking-collectives]: calls every MPI-IO routine the
 * interposer wraps at least once, with any number of ranks, and checks the data. It exists so that
 * tests can see each wrapper pass data through unchanged and produce its trace records.
 *
 * The file is cut into regions of R = nprocs * B bytes, one region per data routine, in the
 * order of the table `routines` below. Every region ends up fully written, and the byte at
 * file offset o is always (unsigned char)((o*131 + 7) ^ (o >> 9)), so the final file depends
 * only on the number of ranks (and on whether the MPI has the MPI 4 large-count routines):
 * tests compare it byte for byte across runs. Within a region:
 *
 *   explicit-offset routines (default byte view): rank r writes bytes [r*B, +B).
 *   individual-pointer routines: a non-contiguous view; rank r owns blocks of K bytes at
 *     (j*nprocs + r)*K for j = 0 .. B/K-1 (interleaved without holes).
 *   shared-pointer routines: the ranks take turns in rank order (separated by barriers), so
 *     rank r's data lands at r*B; each rank checks MPI_File_get_position_shared first.
 *   ordered routines: rank order by definition, rank r at r*B.
 *
 * The write pass is followed by sync-barrier-sync (MPI's recipe for making other ranks' writes
 * visible) and a read pass with the matching read routines; explicit-offset reads fetch the
 * neighbouring rank's bytes, so data written by one rank is checked by another.
 * Also called: set_size (truncate, so an earlier run leaves nothing behind), preallocate,
 * set_info, get_info, set_view (three views, one non-contiguous), sync, get_size,
 * get_position(_shared), close, and open/close/MPI_File_delete of PATH.scratch.
 *
 * --blocking-collectives calls the blocking collective routine in place of each nonblocking
 * collective one (MPI_File_iwrite_at_all, iwrite_all, iread_*, and their _c forms), with the
 * same data and offsets, so the file is the same: Open MPI 4.1.4's romio321 dies of SIGSEGV
 * in MPI_File_iwrite_at_all (a NULL function pointer called from MPIOI_File_iwrite_all), and
 * the other routines are still worth checking there.
 *
 * Rank 0 prints `allroutines: ok N` (N distinct MPI_File_* routines called; --list also prints
 * each as `routine NAME`). Any MPI error or bad byte is printed and the exit code is 1; a rank
 * that hits a problem carries on with the same calls, so collectives stay matched and every
 * rank reaches MPI_Finalize.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define B 3072 /* bytes per rank per routine */
#define K 512  /* block of the non-contiguous view; B is a multiple of it */

enum kind { EXPLICIT, INDIVIDUAL, SHARED, ORDERED };

enum routine_id {
    AT,
    AT_ALL,
    IAT,
    IAT_ALL,
    AT_ALL_SPLIT,
    PLAIN,
    ALL,
    IPLAIN,
    IALL,
    ALL_SPLIT,
    SHARED_PTR,
    ISHARED_PTR,
    ORDERED_PTR,
    ORDERED_SPLIT,
#if MPI_VERSION >= 4
    AT_C,
    AT_ALL_C,
    IAT_C,
    IAT_ALL_C,
    AT_ALL_SPLIT_C,
    PLAIN_C,
    ALL_C,
    IPLAIN_C,
    IALL_C,
    ALL_SPLIT_C,
    SHARED_PTR_C,
    ISHARED_PTR_C,
    ORDERED_PTR_C,
    ORDERED_SPLIT_C,
#endif
};

/* One data region each, in file order; entries of one kind must be adjacent. */
static const struct {
    enum routine_id id;
    enum kind kind;
} routines[] = {
    {AT, EXPLICIT},           {AT_ALL, EXPLICIT},         {IAT, EXPLICIT},
    {IAT_ALL, EXPLICIT},      {AT_ALL_SPLIT, EXPLICIT},
#if MPI_VERSION >= 4
    {AT_C, EXPLICIT},         {AT_ALL_C, EXPLICIT},       {IAT_C, EXPLICIT},
    {IAT_ALL_C, EXPLICIT},    {AT_ALL_SPLIT_C, EXPLICIT},
#endif
    {PLAIN, INDIVIDUAL},      {ALL, INDIVIDUAL},          {IPLAIN, INDIVIDUAL},
    {IALL, INDIVIDUAL},       {ALL_SPLIT, INDIVIDUAL},
#if MPI_VERSION >= 4
    {PLAIN_C, INDIVIDUAL},    {ALL_C, INDIVIDUAL},        {IPLAIN_C, INDIVIDUAL},
    {IALL_C, INDIVIDUAL},     {ALL_SPLIT_C, INDIVIDUAL},
#endif
    {SHARED_PTR, SHARED},     {ISHARED_PTR, SHARED},
#if MPI_VERSION >= 4
    {SHARED_PTR_C, SHARED},   {ISHARED_PTR_C, SHARED},
#endif
    {ORDERED_PTR, ORDERED},   {ORDERED_SPLIT, ORDERED},
#if MPI_VERSION >= 4
    {ORDERED_PTR_C, ORDERED}, {ORDERED_SPLIT_C, ORDERED},
#endif
};
#define NROUTINES ((int)(sizeof routines / sizeof routines[0]))

static int rank, nprocs;
static int problems;             /* MPI errors and bad bytes seen by this rank */
static int blocking_collectives; /* --blocking-collectives */
static const char *current = "";

/* Distinct routines called, in first-call order. */
static const char *called[128];
static int ncalled;

static void track(const char *name) {
    current = name;
    for (int i = 0; i < ncalled; i++)
        if (strcmp(called[i], name) == 0)
            return;
    if (ncalled < (int)(sizeof called / sizeof called[0]))
        called[ncalled++] = name;
}

/* Records the outcome of the routine last passed to track(); returns 1 if it failed. */
static int check(int rc) {
    if (rc == MPI_SUCCESS)
        return 0;
    char text[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, text, &len);
    for (char *p = text; *p != '\0'; p++)
        if (*p == '\n')
            *p = ' '; /* MPICH's error stack spans lines; keep one line per problem */
    fprintf(stderr, "allroutines: rank %d: %s failed: %s\n", rank, current, text);
    problems++;
    return 1;
}

/* Calls an MPI routine after noting its name; the name is the routine's own spelling. */
#define CALL(fn, ...) (track(#fn), check(fn(__VA_ARGS__)))
/* The write or the read form of the same call. */
#define RW(wfn, rfn, ...) (is_write ? CALL(wfn, __VA_ARGS__) : CALL(rfn, __VA_ARGS__))

static unsigned char pattern_byte(long long offset) {
    uint64_t o = (uint64_t)offset;
    return (unsigned char)((o * 131u + 7u) ^ (o >> 9));
}

/* File offset of byte j of rank r's data in region `region` for routines of kind `kind`. */
static long long expected_offset(int region, enum kind kind, int r, long long j) {
    long long base = (long long)region * nprocs * B;
    if (kind == INDIVIDUAL)
        return base + (j / K * nprocs + r) * K + j % K;
    return base + (long long)r * B + j;
}

static void fill(unsigned char *buf, int region, enum kind kind, int r, int wrong) {
    for (long long j = 0; j < B; j++) {
        unsigned char want = pattern_byte(expected_offset(region, kind, r, j));
        buf[j] = wrong ? (unsigned char)~want : want;
    }
}

static void verify(const unsigned char *buf, int region, enum kind kind, int r, const char *what) {
    for (long long j = 0; j < B; j++) {
        long long off = expected_offset(region, kind, r, j);
        if (buf[j] != pattern_byte(off)) {
            fprintf(stderr,
                    "allroutines: rank %d: %s: byte at offset %lld is 0x%02x, expected 0x%02x\n",
                    rank, what, off, buf[j], pattern_byte(off));
            problems++;
            return;
        }
    }
}

/* Checks the byte count of a finished access. */
static void check_count(MPI_Status *st, const char *what) {
    int n = -1;
    MPI_Get_count(st, MPI_BYTE, &n);
    if (n != B) {
        fprintf(stderr, "allroutines: rank %d: %s moved %d bytes, expected %d\n", rank, what, n, B);
        problems++;
    }
}

static void wait_for(MPI_Request *req, const char *what) {
    MPI_Status st;
    if (MPI_Wait(req, &st) != MPI_SUCCESS) {
        fprintf(stderr, "allroutines: rank %d: MPI_Wait for %s failed\n", rank, what);
        problems++;
        return;
    }
    check_count(&st, what);
}

/*
 * One data access of routine `id` (write or read form). off is used by the explicit-offset
 * routines only. Blocking and split calls check the count of their status, nonblocking ones
 * are waited for at once (the next access must not overlap them).
 */
static void access_data(enum routine_id id, int is_write, MPI_File fh, MPI_Offset off,
                        unsigned char *buf) {
    MPI_Status st;
    MPI_Request req = MPI_REQUEST_NULL;
    const char *first;
    int failed = 0, nonblocking = 0;
#if MPI_VERSION >= 4
    MPI_Count nc = B;
    if (blocking_collectives)
        id = id == IAT_ALL_C ? AT_ALL_C : id == IALL_C ? ALL_C : id;
#endif
    if (blocking_collectives)
        id = id == IAT_ALL ? AT_ALL : id == IALL ? ALL : id;

    switch (id) {
    case AT:
        failed = RW(MPI_File_write_at, MPI_File_read_at, fh, off, buf, B, MPI_BYTE, &st);
        break;
    case AT_ALL:
        failed = RW(MPI_File_write_at_all, MPI_File_read_at_all, fh, off, buf, B, MPI_BYTE, &st);
        break;
    case IAT:
        failed = RW(MPI_File_iwrite_at, MPI_File_iread_at, fh, off, buf, B, MPI_BYTE, &req);
        nonblocking = 1;
        break;
    case IAT_ALL:
        failed = RW(MPI_File_iwrite_at_all, MPI_File_iread_at_all, fh, off, buf, B, MPI_BYTE, &req);
        nonblocking = 1;
        break;
    case AT_ALL_SPLIT:
        failed =
            RW(MPI_File_write_at_all_begin, MPI_File_read_at_all_begin, fh, off, buf, B, MPI_BYTE);
        first = current;
        if (!failed)
            failed = RW(MPI_File_write_at_all_end, MPI_File_read_at_all_end, fh, buf, &st);
        current = first;
        break;
    case PLAIN:
        failed = RW(MPI_File_write, MPI_File_read, fh, buf, B, MPI_BYTE, &st);
        break;
    case ALL:
        failed = RW(MPI_File_write_all, MPI_File_read_all, fh, buf, B, MPI_BYTE, &st);
        break;
    case IPLAIN:
        failed = RW(MPI_File_iwrite, MPI_File_iread, fh, buf, B, MPI_BYTE, &req);
        nonblocking = 1;
        break;
    case IALL:
        failed = RW(MPI_File_iwrite_all, MPI_File_iread_all, fh, buf, B, MPI_BYTE, &req);
        nonblocking = 1;
        break;
    case ALL_SPLIT:
        failed = RW(MPI_File_write_all_begin, MPI_File_read_all_begin, fh, buf, B, MPI_BYTE);
        first = current;
        if (!failed)
            failed = RW(MPI_File_write_all_end, MPI_File_read_all_end, fh, buf, &st);
        current = first;
        break;
    case SHARED_PTR:
        failed = RW(MPI_File_write_shared, MPI_File_read_shared, fh, buf, B, MPI_BYTE, &st);
        break;
    case ISHARED_PTR:
        failed = RW(MPI_File_iwrite_shared, MPI_File_iread_shared, fh, buf, B, MPI_BYTE, &req);
        nonblocking = 1;
        break;
    case ORDERED_PTR:
        failed = RW(MPI_File_write_ordered, MPI_File_read_ordered, fh, buf, B, MPI_BYTE, &st);
        break;
    case ORDERED_SPLIT:
        failed =
            RW(MPI_File_write_ordered_begin, MPI_File_read_ordered_begin, fh, buf, B, MPI_BYTE);
        first = current;
        if (!failed)
            failed = RW(MPI_File_write_ordered_end, MPI_File_read_ordered_end, fh, buf, &st);
        current = first;
        break;
#if MPI_VERSION >= 4
    case AT_C:
        failed = RW(MPI_File_write_at_c, MPI_File_read_at_c, fh, off, buf, nc, MPI_BYTE, &st);
        break;
    case AT_ALL_C:
        failed =
            RW(MPI_File_write_at_all_c, MPI_File_read_at_all_c, fh, off, buf, nc, MPI_BYTE, &st);
        break;
    case IAT_C:
        failed = RW(MPI_File_iwrite_at_c, MPI_File_iread_at_c, fh, off, buf, nc, MPI_BYTE, &req);
        nonblocking = 1;
        break;
    case IAT_ALL_C:
        failed =
            RW(MPI_File_iwrite_at_all_c, MPI_File_iread_at_all_c, fh, off, buf, nc, MPI_BYTE, &req);
        nonblocking = 1;
        break;
    case AT_ALL_SPLIT_C:
        failed = RW(MPI_File_write_at_all_begin_c, MPI_File_read_at_all_begin_c, fh, off, buf, nc,
                    MPI_BYTE);
        first = current;
        /* there is no _c form of the end routines: they take no count */
        if (!failed)
            failed = RW(MPI_File_write_at_all_end, MPI_File_read_at_all_end, fh, buf, &st);
        current = first;
        break;
    case PLAIN_C:
        failed = RW(MPI_File_write_c, MPI_File_read_c, fh, buf, nc, MPI_BYTE, &st);
        break;
    case ALL_C:
        failed = RW(MPI_File_write_all_c, MPI_File_read_all_c, fh, buf, nc, MPI_BYTE, &st);
        break;
    case IPLAIN_C:
        failed = RW(MPI_File_iwrite_c, MPI_File_iread_c, fh, buf, nc, MPI_BYTE, &req);
        nonblocking = 1;
        break;
    case IALL_C:
        failed = RW(MPI_File_iwrite_all_c, MPI_File_iread_all_c, fh, buf, nc, MPI_BYTE, &req);
        nonblocking = 1;
        break;
    case ALL_SPLIT_C:
        failed = RW(MPI_File_write_all_begin_c, MPI_File_read_all_begin_c, fh, buf, nc, MPI_BYTE);
        first = current;
        if (!failed)
            failed = RW(MPI_File_write_all_end, MPI_File_read_all_end, fh, buf, &st);
        current = first;
        break;
    case SHARED_PTR_C:
        failed = RW(MPI_File_write_shared_c, MPI_File_read_shared_c, fh, buf, nc, MPI_BYTE, &st);
        break;
    case ISHARED_PTR_C:
        failed = RW(MPI_File_iwrite_shared_c, MPI_File_iread_shared_c, fh, buf, nc, MPI_BYTE, &req);
        nonblocking = 1;
        break;
    case ORDERED_PTR_C:
        failed = RW(MPI_File_write_ordered_c, MPI_File_read_ordered_c, fh, buf, nc, MPI_BYTE, &st);
        break;
    case ORDERED_SPLIT_C:
        failed = RW(MPI_File_write_ordered_begin_c, MPI_File_read_ordered_begin_c, fh, buf, nc,
                    MPI_BYTE);
        first = current;
        if (!failed)
            failed = RW(MPI_File_write_ordered_end, MPI_File_read_ordered_end, fh, buf, &st);
        current = first;
        break;
#endif
    }
    if (failed)
        return;
    if (nonblocking)
        wait_for(&req, current);
    else
        check_count(&st, current);
}

/* Sets the view routines of `kind` use; regions of that kind start at region `first`. */
static void set_view_for(MPI_File fh, enum kind kind, int first) {
    MPI_Offset disp = (MPI_Offset)first * nprocs * B;
    if (kind == EXPLICIT) {
        /* The default view, set explicitly: explicit offsets are file bytes. */
        CALL(MPI_File_set_view, fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    } else if (kind == INDIVIDUAL) {
        /* One block of K bytes at r*K in every tile of nprocs*K bytes: a view with holes (the
         * other ranks' blocks). A real info object goes with it, carrying a default value. */
        MPI_Datatype block, tile;
        MPI_Info info;
        MPI_Type_contiguous(K, MPI_BYTE, &block);
        MPI_Type_create_resized(block, 0, (MPI_Aint)nprocs * K, &tile);
        MPI_Type_commit(&tile);
        MPI_Info_create(&info);
        MPI_Info_set(info, "romio_cb_read", "automatic");
        CALL(MPI_File_set_view, fh, disp + (MPI_Offset)rank * K, MPI_BYTE, tile, "native", info);
        MPI_Info_free(&info);
        MPI_Type_free(&tile);
        MPI_Type_free(&block);
    } else {
        /* Shared-pointer routines need the same view on every rank. */
        CALL(MPI_File_set_view, fh, disp, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    }
}

static void expect_position(MPI_Offset got, MPI_Offset want, const char *what) {
    if (got != want) {
        fprintf(stderr, "allroutines: rank %d: %s is %lld, expected %lld\n", rank, what,
                (long long)got, (long long)want);
        problems++;
    }
}

/* The write pass (is_write) or the read pass over all regions. */
static void pass(MPI_File fh, int is_write, unsigned char *buf) {
    int first = 0;
    for (int i = 0; i < NROUTINES; i++) {
        enum kind kind = routines[i].kind;
        if (i == 0 || kind != routines[i - 1].kind) {
            if (kind != ORDERED) { /* ordered routines reuse the shared routines' view */
                first = i;
                set_view_for(fh, kind, first);
            }
            if (kind == INDIVIDUAL) {
                /* Harmless hints that the non-contiguous accesses do look at. */
                MPI_Info info;
                MPI_Info_create(&info);
                MPI_Info_set(info, is_write ? "romio_ds_write" : "romio_ds_read", "disable");
                CALL(MPI_File_set_info, fh, info);
                MPI_Info_free(&info);
            }
        }
        /* Explicit-offset reads fetch the neighbour's bytes; everything else its own. */
        int owner = kind == EXPLICIT && !is_write ? (rank + 1) % nprocs : rank;
        fill(buf, i, kind, owner, !is_write);
        MPI_Offset off = (MPI_Offset)i * nprocs * B + (MPI_Offset)owner * B;
        MPI_Offset pos;

        if (kind == SHARED) {
            for (int turn = 0; turn < nprocs; turn++) {
                if (turn == rank) {
                    CALL(MPI_File_get_position_shared, fh, &pos);
                    expect_position(pos,
                                    (MPI_Offset)(i - first) * nprocs * B + (MPI_Offset)rank * B,
                                    "shared file pointer before my turn");
                    access_data(routines[i].id, is_write, fh, off, buf);
                }
                MPI_Barrier(MPI_COMM_WORLD);
            }
        } else {
            access_data(routines[i].id, is_write, fh, off, buf);
        }
        if (kind == INDIVIDUAL) {
            CALL(MPI_File_get_position, fh, &pos);
            expect_position(pos, (MPI_Offset)(i - first + 1) * B, "individual file pointer");
        } else if (kind == ORDERED) {
            /* An ordered routine may return on one rank while a faster rank is already in the
             * next one (ROMIO passes a token and has no closing barrier), so the shared pointer
             * is only stable between barriers. */
            MPI_Barrier(MPI_COMM_WORLD);
            CALL(MPI_File_get_position_shared, fh, &pos);
            MPI_Barrier(MPI_COMM_WORLD);
            expect_position(pos, (MPI_Offset)(i - first + 1) * nprocs * B,
                            "shared file pointer after an ordered access");
        }
        if (!is_write)
            verify(buf, i, kind, owner, current);
    }
}

int main(int argc, char **argv) {
    MPI_File fh;
    MPI_Offset size;
    int list = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    int usage = argc < 2;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0)
            list = 1;
        else if (strcmp(argv[i], "--blocking-collectives") == 0)
            blocking_collectives = 1;
        else
            usage = 1;
    }
    if (usage) {
        if (rank == 0)
            fprintf(stderr, "usage: allroutines PATH [--list] [--blocking-collectives]\n");
        MPI_Finalize();
        return 2;
    }
    const char *path = argv[1];
    MPI_Offset total = (MPI_Offset)NROUTINES * nprocs * B;
    unsigned char *buf = malloc(B);
    size_t plen = strlen(path);
    char *scratch = malloc(plen + sizeof ".scratch");
    if (buf == NULL || scratch == NULL) {
        fprintf(stderr, "allroutines: out of memory\n");
        problems++;
        goto done; /* no collective has happened yet, so every rank gets here */
    }
    memcpy(scratch, path, plen);
    memcpy(scratch + plen, ".scratch", sizeof ".scratch");

    if (CALL(MPI_File_open, MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
             &fh))
        goto done; /* open fails on every rank alike: nothing to close */
    CALL(MPI_File_set_size, fh, 0);
    CALL(MPI_File_preallocate, fh, total);
    CALL(MPI_File_get_size, fh, &size);
    expect_position(size, total, "file size after MPI_File_preallocate");

    pass(fh, 1, buf);
    CALL(MPI_File_sync, fh);
    MPI_Barrier(MPI_COMM_WORLD);
    CALL(MPI_File_sync, fh);
    pass(fh, 0, buf);

    MPI_Info info;
    if (!CALL(MPI_File_get_info, fh, &info))
        MPI_Info_free(&info);
    CALL(MPI_File_get_size, fh, &size);
    expect_position(size, total, "final file size");
    CALL(MPI_File_close, &fh);

    /* A second file, only to be deleted. */
    MPI_File sfh;
    if (!CALL(MPI_File_open, MPI_COMM_WORLD, scratch, MPI_MODE_CREATE | MPI_MODE_WRONLY,
              MPI_INFO_NULL, &sfh))
        CALL(MPI_File_close, &sfh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CALL(MPI_File_delete, scratch, MPI_INFO_NULL);
        if (access(scratch, F_OK) == 0) {
            fprintf(stderr, "allroutines: %s still exists after MPI_File_delete\n", scratch);
            problems++;
        }
    }

done:;
    int all_problems = 0;
    MPI_Allreduce(&problems, &all_problems, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        if (list)
            for (int i = 0; i < ncalled; i++)
                printf("routine %s\n", called[i]);
        if (all_problems == 0)
            printf("allroutines: ok %d\n", ncalled);
        else
            printf("allroutines: FAILED with %d problems\n", all_problems);
    }
    free(buf);
    free(scratch);
    MPI_Finalize();
    return all_problems == 0 ? 0 : 1;
}
