/*
 * hint_safety FILE [--open KEY=VAL ...] [--access KEY=VAL ...] --workload W
 *             [--size BYTES] [--block BYTES]
 *
 * Does one MPI-IO workload with the given hints and says whether the data survived, so that
 * bench/hint_safety.py can find which hint values (and which changes after open) ROMIO
 * handles. Hints after --open go to MPI_File_open; hints after --access are given to
 * MPI_File_set_info after the open and before any data access (no set_info call without
 * them). KEY=VAL splits at the first '='; VAL may be empty or contain spaces.
 *
 * Workloads (every rank moves --size bytes, default 1 MiB, in --block pieces, default 4 KiB):
 *   contig   MPI_File_write_at_all of one contiguous region per rank ([r*size, (r+1)*size)),
 *            then MPI_File_read_at_all of it
 *   strided  a file view of --block blocks interleaved between ranks with one never-written
 *            block (a hole) per period: period (nprocs+1)*block, rank r's block at
 *            r*block; MPI_File_write_all, seek to 0, MPI_File_read_all
 *   indep    the same view, with independent MPI_File_write and MPI_File_read (the data
 *            sieving path of ind_wr_buffer_size, ind_rd_buffer_size, romio_ds_*)
 *
 * Every byte written is a fixed function of its file offset. Each rank reads its bytes back
 * into a buffer prefilled with the complement of the expected bytes and compares; after
 * MPI_File_close and a barrier, rank 0 re-reads the whole file with pread and checks every
 * written byte, so damage on disk is caught too. Hole bytes that are not zero are counted on
 * a "check holes" line but do not change the result: MPI leaves their contents undefined.
 *
 * Files use MPI_ERRORS_RETURN (and so do MPI_COMM_WORLD and MPI_COMM_SELF, for MPI_Info_set).
 * Rank 0 prints, line-buffered:
 *   hint open|access KEY=[VAL]              the hints as given
 *   info after-open|after-set_info KEY=[V]  MPI_File_get_info's value of each hinted key,
 *                                           or KEY=<unset>
 *   check readback|disk|holes ...           what the comparisons found
 *   time write=S read=S                     slowest rank's seconds
 *   result ok | result mpi-error CLASS ROUTINE | result wrong-data OFFSET
 * and every rank prints a failing call's error string on stderr. Exit status 0 when the
 * result line is "result ok", 1 for the other results, 2 for a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"

#define MAX_HINTS 64

enum workload { CONTIG, STRIDED, INDEP };

struct hint {
    char *key;
    const char *value;
};

struct hints {
    struct hint item[MAX_HINTS];
    int count;
};

/* What one rank ran into; gathered on rank 0 as long longs. */
enum { F_CLASS, F_ROUTINE, F_BAD_OFF, F_BAD_COUNT, F_GOT, F_EXPECTED, F_FIELDS };

static const char *const routines[] = {
    "none",
    "MPI_Info_set",
    "MPI_File_open",
    "MPI_File_set_info",
    "MPI_File_get_info",
    "MPI_File_set_view",
    "MPI_File_write_at_all",
    "MPI_File_read_at_all",
    "MPI_File_write_all",
    "MPI_File_read_all",
    "MPI_File_write",
    "MPI_File_read",
    "MPI_File_seek",
    "MPI_File_close",
};
enum {
    R_NONE,
    R_INFO_SET,
    R_OPEN,
    R_SET_INFO,
    R_GET_INFO,
    R_SET_VIEW,
    R_WRITE_AT_ALL,
    R_READ_AT_ALL,
    R_WRITE_ALL,
    R_READ_ALL,
    R_WRITE,
    R_READ,
    R_SEEK,
    R_CLOSE
};

static const char *class_name(int cls) {
#define C(name)                                                                                    \
    if (cls == name)                                                                               \
        return #name;
    C(MPI_SUCCESS)
    C(MPI_ERR_ACCESS)
    C(MPI_ERR_AMODE)
    C(MPI_ERR_ARG)
    C(MPI_ERR_BAD_FILE)
    C(MPI_ERR_CONVERSION)
    C(MPI_ERR_COUNT)
    C(MPI_ERR_DUP_DATAREP)
    C(MPI_ERR_FILE)
    C(MPI_ERR_FILE_EXISTS)
    C(MPI_ERR_FILE_IN_USE)
    C(MPI_ERR_INFO)
    C(MPI_ERR_INFO_KEY)
    C(MPI_ERR_INFO_NOKEY)
    C(MPI_ERR_INFO_VALUE)
    C(MPI_ERR_INTERN)
    C(MPI_ERR_IO)
    C(MPI_ERR_NOT_SAME)
    C(MPI_ERR_NO_MEM)
    C(MPI_ERR_NO_SPACE)
    C(MPI_ERR_NO_SUCH_FILE)
    C(MPI_ERR_OTHER)
    C(MPI_ERR_QUOTA)
    C(MPI_ERR_READ_ONLY)
    C(MPI_ERR_TYPE)
    C(MPI_ERR_UNSUPPORTED_DATAREP)
    C(MPI_ERR_UNSUPPORTED_OPERATION)
#undef C
    return NULL;
}

/* The byte every workload stores at file offset off: no short period, so a block that lands
 * at the wrong offset does not match by accident. */
static unsigned char pattern(long long off) {
    uint64_t x = (uint64_t)off * 0x9E3779B97F4A7C15ull;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    return (unsigned char)(x >> 56);
}

struct layout {
    enum workload workload;
    int nprocs;
    long long size, block, period;
};

/* File offset of byte i of rank r's buffer. */
static long long file_offset(const struct layout *l, int r, long long i) {
    if (l->workload == CONTIG)
        return (long long)r * l->size + i;
    return (i / l->block) * l->period + (long long)r * l->block + i % l->block;
}

/* Length of the file the workload writes: the end of its last written byte. */
static long long file_length(const struct layout *l) {
    if (l->workload == CONTIG)
        return (long long)l->nprocs * l->size;
    return (l->size / l->block - 1) * l->period + (long long)l->nprocs * l->block;
}

static void fail(int rank, long long *state, int routine, int rc) {
    char text[MPI_MAX_ERROR_STRING];
    int len, cls;
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, text, &len);
    for (char *p = text; *p != '\0'; p++)
        if (*p == '\n')
            *p = ' '; /* MPICH's error stack spans lines */
    fprintf(stderr, "hint_safety: rank %d: %s failed: %s\n", rank, routines[routine], text);
    if (state[F_ROUTINE] == R_NONE) {
        state[F_CLASS] = cls;
        state[F_ROUTINE] = routine;
    }
}

static void note_bad(long long *state, long long off, unsigned char got, unsigned char expected) {
    if (state[F_BAD_COUNT] == 0 || off < state[F_BAD_OFF]) {
        state[F_BAD_OFF] = off;
        state[F_GOT] = got;
        state[F_EXPECTED] = expected;
    }
    state[F_BAD_COUNT]++;
}

/* Builds an info object from hints; MPI_INFO_NULL for none. */
static int make_info(const struct hints *h, MPI_Info *info, int rank, long long *state) {
    *info = MPI_INFO_NULL;
    if (h->count == 0)
        return 0;
    MPI_Info_create(info);
    for (int i = 0; i < h->count; i++) {
        int rc = MPI_Info_set(*info, h->item[i].key, h->item[i].value);
        if (rc != MPI_SUCCESS) {
            fail(rank, state, R_INFO_SET, rc);
            return -1;
        }
    }
    return 0;
}

static void print_info(MPI_File fh, const char *when, const struct hints *a, const struct hints *b,
                       int rank, long long *state) {
    MPI_Info info;
    int rc = MPI_File_get_info(fh, &info);
    if (rc != MPI_SUCCESS) {
        fail(rank, state, R_GET_INFO, rc);
        return;
    }
    const struct hints *lists[2] = {a, b};
    for (int l = 0; l < 2; l++) {
        for (int i = 0; i < lists[l]->count; i++) {
            const char *key = lists[l]->item[i].key;
            int seen = 0; /* print each key once */
            for (int m = 0; m <= l && !seen; m++)
                for (int j = 0; j < (m == l ? i : lists[m]->count) && !seen; j++)
                    seen = strcmp(lists[m]->item[j].key, key) == 0;
            if (seen || rank != 0)
                continue;
            char value[MPI_MAX_INFO_VAL + 1];
            int flag = 0;
#if MPI_VERSION >= 4
            int buflen = (int)sizeof value;
            MPI_Info_get_string(info, key, &buflen, value, &flag);
#else /* Open MPI 4.1 is MPI 3.1 */
            MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
#endif
            if (flag)
                printf("info %s %s=[%s]\n", when, key, value);
            else
                printf("info %s %s=<unset>\n", when, key);
        }
    }
    MPI_Info_free(&info);
}

/* The workload's data movement; returns 0, or -1 after an MPI error (recorded in state). */
static int run_workload(MPI_File fh, const struct layout *l, unsigned char *wbuf,
                        unsigned char *rbuf, int rank, long long *state, double *seconds) {
    int rc, count = (int)l->size;
    MPI_Datatype block = MPI_DATATYPE_NULL, filetype = MPI_DATATYPE_NULL;
    MPI_Offset off = (MPI_Offset)rank * l->size;
    double t0;

    if (l->workload != CONTIG) {
        MPI_Type_contiguous((int)l->block, MPI_BYTE, &block);
        MPI_Type_create_resized(block, 0, (MPI_Aint)l->period, &filetype);
        MPI_Type_commit(&filetype);
        MPI_Type_free(&block);
        rc = MPI_File_set_view(fh, (MPI_Offset)rank * l->block, MPI_BYTE, filetype, "native",
                               MPI_INFO_NULL);
        MPI_Type_free(&filetype);
        if (rc != MPI_SUCCESS) {
            fail(rank, state, R_SET_VIEW, rc);
            return -1;
        }
    }

    t0 = MPI_Wtime();
    switch (l->workload) {
    case CONTIG:
        rc = MPI_File_write_at_all(fh, off, wbuf, count, MPI_BYTE, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) {
            fail(rank, state, R_WRITE_AT_ALL, rc);
            return -1;
        }
        break;
    case STRIDED:
        rc = MPI_File_write_all(fh, wbuf, count, MPI_BYTE, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) {
            fail(rank, state, R_WRITE_ALL, rc);
            return -1;
        }
        break;
    case INDEP:
        rc = MPI_File_write(fh, wbuf, count, MPI_BYTE, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) {
            fail(rank, state, R_WRITE, rc);
            return -1;
        }
        break;
    }
    seconds[0] = MPI_Wtime() - t0;

    /* Reading one's own bytes back needs no sync under MPI-IO's consistency rules for the
     * collective case; the independent case writes and reads through the same handle, and
     * the barrier only keeps the phases apart for the timings. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (l->workload != CONTIG) {
        rc = MPI_File_seek(fh, 0, MPI_SEEK_SET);
        if (rc != MPI_SUCCESS) {
            fail(rank, state, R_SEEK, rc);
            return -1;
        }
    }
    t0 = MPI_Wtime();
    switch (l->workload) {
    case CONTIG:
        rc = MPI_File_read_at_all(fh, off, rbuf, count, MPI_BYTE, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) {
            fail(rank, state, R_READ_AT_ALL, rc);
            return -1;
        }
        break;
    case STRIDED:
        rc = MPI_File_read_all(fh, rbuf, count, MPI_BYTE, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) {
            fail(rank, state, R_READ_ALL, rc);
            return -1;
        }
        break;
    case INDEP:
        rc = MPI_File_read(fh, rbuf, count, MPI_BYTE, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) {
            fail(rank, state, R_READ, rc);
            return -1;
        }
        break;
    }
    seconds[1] = MPI_Wtime() - t0;
    return 0;
}

/* Whether the workload writes the byte at file offset off (else it is a hole). */
static int is_written(const struct layout *l, long long off) {
    return l->workload == CONTIG || (off % l->period) / l->block < l->nprocs;
}

/* Rank 0: every written byte of the file as pread sees it (into state), and how many hole
 * bytes (never written by anyone; MPI leaves their contents undefined) are not zero. */
static void check_disk(const char *path, const struct layout *l, long long *state) {
    long long length = file_length(l), chunk = 1 << 20, written_total = l->nprocs * l->size;
    long long hole_seen = 0, hole_bad = 0, hole_first = -1;
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        printf("check disk: cannot open %s: %s\n", path, strerror(errno));
        note_bad(state, 0, 0, pattern(0));
        return;
    }
    unsigned char *buf = malloc((size_t)chunk);
    long long pos = 0;
    while (buf != NULL && pos < length) {
        long long want = length - pos < chunk ? length - pos : chunk;
        ssize_t got = pread(fd, buf, (size_t)want, (off_t)pos);
        if (got <= 0) { /* every written byte from here on is missing */
            for (long long off = pos; off < length; off++)
                if (is_written(l, off))
                    note_bad(state, off, 0, pattern(off));
            break;
        }
        for (long long i = 0; i < got; i++) {
            long long off = pos + i;
            if (is_written(l, off)) {
                if (buf[i] != pattern(off))
                    note_bad(state, off, buf[i], pattern(off));
            } else {
                hole_seen++;
                if (buf[i] != 0 && hole_bad++ == 0)
                    hole_first = off;
            }
        }
        pos += got;
    }
    off_t end = lseek(fd, 0, SEEK_END);
    if (end != (off_t)length)
        printf("check disk: file size %lld, the workload writes %lld\n", (long long)end, length);
    free(buf);
    close(fd);
    if (state[F_BAD_COUNT] > 0)
        printf("check disk: %lld of %lld written bytes wrong, first at offset %lld "
               "(expected 0x%02llx, found 0x%02llx)\n",
               state[F_BAD_COUNT], written_total, state[F_BAD_OFF], state[F_EXPECTED],
               state[F_GOT]);
    else
        printf("check disk: all %lld written bytes as written\n", written_total);
    if (hole_bad > 0)
        printf("check holes: %lld of %lld never-written bytes not zero, first at offset %lld\n",
               hole_bad, hole_seen, hole_first);
    else if (hole_seen > 0)
        printf("check holes: all %lld never-written bytes zero\n", hole_seen);
}

static int usage(int rank, const char *why) {
    if (rank == 0)
        fprintf(stderr,
                "hint_safety: %s\nusage: hint_safety FILE [--open KEY=VAL ...] "
                "[--access KEY=VAL ...] --workload contig|strided|indep [--size BYTES] "
                "[--block BYTES]\n",
                why);
    MPI_Finalize();
    return 2;
}

int main(int argc, char **argv) {
    int rank, nprocs;
    const char *path = NULL;
    struct hints open_hints = {.count = 0}, access_hints = {.count = 0};
    struct hints *target = NULL;
    struct layout l = {.workload = CONTIG, .size = 1 << 20, .block = 4096};
    int have_workload = 0;
    char why[300];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    setvbuf(stdout, NULL, _IOLBF, 0); /* keep what was printed if a rank dies */
    l.nprocs = nprocs;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--open") == 0) {
            target = &open_hints;
        } else if (strcmp(a, "--access") == 0) {
            target = &access_hints;
        } else if (strcmp(a, "--workload") == 0) {
            if (++i >= argc)
                return usage(rank, "--workload needs a value");
            if (strcmp(argv[i], "contig") == 0)
                l.workload = CONTIG;
            else if (strcmp(argv[i], "strided") == 0)
                l.workload = STRIDED;
            else if (strcmp(argv[i], "indep") == 0)
                l.workload = INDEP;
            else
                return usage(rank, "unknown workload");
            have_workload = 1;
            target = NULL;
        } else if (strcmp(a, "--size") == 0 || strcmp(a, "--block") == 0) {
            long long bytes = 0;
            if (++i >= argc || parse_count(argv[i], &bytes) != 0 || bytes > (1LL << 30)) {
                snprintf(why, sizeof why, "%s needs a byte count from 1 to 1 GiB (%lld), got '%s'",
                         a, 1LL << 30, i < argc ? argv[i] : "");
                return usage(rank, why);
            }
            *(a[2] == 's' ? &l.size : &l.block) = bytes;
            target = NULL;
        } else if (strncmp(a, "--", 2) == 0) {
            snprintf(why, sizeof why, "unknown option '%s'", a);
            return usage(rank, why);
        } else if (target != NULL) {
            const char *eq = strchr(a, '=');
            if (eq == NULL || eq == a) {
                snprintf(why, sizeof why, "a hint is KEY=VAL, got '%s'", a);
                return usage(rank, why);
            }
            if (target->count == MAX_HINTS)
                return usage(rank, "too many hints");
            struct hint *h = &target->item[target->count++];
            h->key = strndup(a, (size_t)(eq - a));
            h->value = eq + 1;
        } else if (path == NULL) {
            path = a;
        } else {
            snprintf(why, sizeof why, "unexpected argument '%s'", a);
            return usage(rank, why);
        }
    }
    if (path == NULL || !have_workload)
        return usage(rank, "FILE and --workload are required");
    if (l.workload != CONTIG && l.size % l.block != 0)
        return usage(rank, "--size must be a multiple of --block for strided and indep");
    l.period = (long long)(nprocs + 1) * l.block;

    if (rank == 0) {
        for (int i = 0; i < open_hints.count; i++)
            printf("hint open %s=[%s]\n", open_hints.item[i].key, open_hints.item[i].value);
        for (int i = 0; i < access_hints.count; i++)
            printf("hint access %s=[%s]\n", access_hints.item[i].key, access_hints.item[i].value);
    }

    long long state[F_FIELDS] = {0, R_NONE, -1, 0, 0, 0};
    double seconds[2] = {0, 0};
    unsigned char *wbuf = malloc((size_t)l.size), *rbuf = malloc((size_t)l.size);
    if (wbuf == NULL || rbuf == NULL) {
        fprintf(stderr, "hint_safety: rank %d: cannot allocate 2 x %lld bytes\n", rank, l.size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (long long i = 0; i < l.size; i++) {
        wbuf[i] = pattern(file_offset(&l, rank, i));
        rbuf[i] = (unsigned char)~wbuf[i]; /* a byte never read back cannot pass */
    }

    MPI_Info open_info = MPI_INFO_NULL, access_info = MPI_INFO_NULL;
    int ok = make_info(&open_hints, &open_info, rank, state) == 0 &&
             make_info(&access_hints, &access_info, rank, state) == 0;
    MPI_File fh = MPI_FILE_NULL;
    if (ok) {
        int rc =
            MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, open_info, &fh);
        if (rc != MPI_SUCCESS) {
            fail(rank, state, R_OPEN, rc);
            ok = 0;
        }
    }
    if (ok) {
        MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
        print_info(fh, "after-open", &open_hints, &access_hints, rank, state);
        if (access_hints.count > 0) {
            int rc = MPI_File_set_info(fh, access_info);
            if (rc != MPI_SUCCESS) {
                fail(rank, state, R_SET_INFO, rc);
                ok = 0;
            } else {
                print_info(fh, "after-set_info", &open_hints, &access_hints, rank, state);
            }
        }
    }
    if (ok && run_workload(fh, &l, wbuf, rbuf, rank, state, seconds) == 0) {
        for (long long i = 0; i < l.size; i++)
            if (rbuf[i] != wbuf[i])
                note_bad(state, file_offset(&l, rank, i), rbuf[i], wbuf[i]);
    }
    if (fh != MPI_FILE_NULL) {
        int rc = MPI_File_close(&fh);
        if (rc != MPI_SUCCESS)
            fail(rank, state, R_CLOSE, rc);
    }
    if (open_info != MPI_INFO_NULL)
        MPI_Info_free(&open_info);
    if (access_info != MPI_INFO_NULL)
        MPI_Info_free(&access_info);

    long long *all = rank == 0 ? malloc(sizeof(long long) * F_FIELDS * (size_t)nprocs) : NULL;
    double slowest[2];
    MPI_Gather(state, F_FIELDS, MPI_LONG_LONG, all, F_FIELDS, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    MPI_Reduce(seconds, slowest, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has closed the file */

    int status = 0;
    if (rank == 0) {
        const long long *err = NULL, *bad = NULL;
        for (int r = 0; r < nprocs; r++) {
            const long long *s = all + (size_t)r * F_FIELDS;
            if (s[F_ROUTINE] != R_NONE && err == NULL)
                err = s;
            if (s[F_BAD_COUNT] > 0) {
                printf("check readback rank %d: %lld of %lld bytes wrong, first at file offset "
                       "%lld (expected 0x%02llx, got 0x%02llx)\n",
                       r, s[F_BAD_COUNT], l.size, s[F_BAD_OFF], s[F_EXPECTED], s[F_GOT]);
                if (bad == NULL || s[F_BAD_OFF] < bad[F_BAD_OFF])
                    bad = s;
            }
        }
        long long disk[F_FIELDS] = {0, R_NONE, -1, 0, 0, 0};
        if (err == NULL) {
            check_disk(path, &l, disk);
            if (disk[F_BAD_COUNT] > 0 && (bad == NULL || disk[F_BAD_OFF] < bad[F_BAD_OFF]))
                bad = disk;
            printf("time write=%.6f read=%.6f\n", slowest[0], slowest[1]);
        }
        if (err != NULL) {
            const char *name = class_name((int)err[F_CLASS]);
            if (name != NULL)
                printf("result mpi-error %s %s\n", name, routines[err[F_ROUTINE]]);
            else
                printf("result mpi-error class-%lld %s\n", err[F_CLASS], routines[err[F_ROUTINE]]);
            status = 1;
        } else if (bad != NULL) {
            printf("result wrong-data %lld\n", bad[F_BAD_OFF]);
            status = 1;
        } else {
            printf("result ok\n");
        }
        free(all);
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int i = 0; i < open_hints.count; i++)
        free(open_hints.item[i].key);
    for (int i = 0; i < access_hints.count; i++)
        free(access_hints.item[i].key);
    free(wbuf);
    free(rbuf);
    MPI_Finalize();
    return status;
}
