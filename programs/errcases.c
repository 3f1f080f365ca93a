/*
 * errcases: provokes every MPI-IO error scenario the interposer must pass through untouched,
 * and prints what MPI answered, so that tests can compare a run under libiotuner.so with a run
 * without it line by line.
 *
 *   errcases --dir DIR --handler return|user|fatal [SCENARIO ...]
 *   errcases --list
 *
 * Every rank runs every scenario named (default: all that the handler mode allows, in the
 * order of the table `scenarios` below); collective routines are called by all ranks. Each
 * scenario uses its own files, DIR/NAME.dat (and DIR/NAME.later.dat, DIR/NAME.missing), which
 * rank 0 removes before the scenario starts, so a directory can be reused.
 *
 * Handler modes:
 *   return  MPI_ERRORS_RETURN on MPI_FILE_NULL (files inherit it at open) and on
 *           MPI_COMM_WORLD and MPI_COMM_SELF.
 *   user    a user error handler (MPI_File_create_errhandler) on MPI_FILE_NULL, inherited by
 *           every file; it counts its calls, records the error classes and returns. The
 *           communicators keep MPI's default (fatal).
 *   fatal   MPI_ERRORS_ARE_FATAL on MPI_FILE_NULL and, explicitly, on every file opened; only
 *           the scenarios that succeed run (naming an error scenario is a usage error).
 *
 * Rank 0 prints one line per scenario, after it finished on every rank:
 *
 *   scenario NAME rc_class=C handler_calls=N handler_class=C[,C...] extra=...
 *
 * rc_class is the error class of the call under test (for the success scenarios: of the first
 * call that failed, MPI_SUCCESS if none), as a name (MPI_ERR_TYPE) or as `class<N>` for a class
 * without one here; handler_calls and handler_class are the user handler's calls during the
 * scenario and their classes in order (`-` for none); extra holds what else the scenario
 * checks (status counts, what a later call on another file answered, ...; `-` for nothing).
 * A field whose value differs between ranks is printed as the ranks' values joined by `/`.
 *
 * Seen with MPICH 5.0.2 (what the lines record, not what this program assumes): after a user
 * file error handler returns, the routine returns MPI_SUCCESS (rc_class is MPI_SUCCESS in user
 * mode, the class is in handler_class), also from a failed MPI_File_open, whose handle is then
 * MPI_FILE_NULL; MPI_ERRORS_ARE_FATAL on MPI_FILE_NULL makes a failed open die of SIGSEGV, so
 * fatal mode has no open that fails.
 *
 * Seen with Open MPI 4.1.4 (Debian): MPI_File_set_info(fh, MPI_INFO_NULL) fails with
 * MPI_ERR_INFO (so set_info_null fails, and under fatal ends the job); OMPIO accepts a
 * negative offset or displacement (MPI_SUCCESS; its pwritev/preadv print EINVAL) and the
 * individual file pointer of an MPI_MODE_SEQUENTIAL file, where romio321 answers
 * MPI_ERR_ARG and MPI_ERR_UNSUPPORTED_OPERATION; MPI_File_open(MPI_COMM_NULL, ...) raises
 * MPI_ERR_COMM on MPI_COMM_WORLD, so in user mode (MPI_COMM_WORLD fatal) it ends the job.
 * The scenarios that can end a job therefore come last in their mode. A job that ends so
 * prints the lines up to there and exits with mpiexec's status: the same with and without
 * iotuner, which is what the tests compare.
 *
 * Exit codes: 0 when every scenario ran (error classes are data, not failures), 2 bad options.
 * `--list` prints `NAME success|error`, one scenario a line.
 */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MODE_RETURN, MODE_USER, MODE_FATAL };

#define BLK 4096  /* bytes per rank in the data scenarios */
#define REC 16    /* bytes of one record in the sequential scenarios */
#define PIECE 512 /* block of the strided view */
#define NPIECES 4
#define MAX_CLASSES 8
#define FIELD 192

static int mode;
static int rank, nprocs;
static const char *dir;

/* ---- the user error handler ------------------------------------------------------- */

static int handler_calls;
static int handler_classes[MAX_CLASSES];

static void count_errors(MPI_File *fh, int *code, ...) {
    (void)fh;
    int cls = *code;
    MPI_Error_class(*code, &cls);
    if (handler_calls < MAX_CLASSES)
        handler_classes[handler_calls] = cls;
    handler_calls++;
}

/* ---- error class names ------------------------------------------------------------ */

#define CLASS(name) {name, #name}
static const struct {
    int cls;
    const char *name;
} class_names[] = {
    CLASS(MPI_SUCCESS),
    CLASS(MPI_ERR_BUFFER),
    CLASS(MPI_ERR_COUNT),
    CLASS(MPI_ERR_TYPE),
    CLASS(MPI_ERR_TAG),
    CLASS(MPI_ERR_COMM),
    CLASS(MPI_ERR_RANK),
    CLASS(MPI_ERR_REQUEST),
    CLASS(MPI_ERR_ROOT),
    CLASS(MPI_ERR_GROUP),
    CLASS(MPI_ERR_OP),
    CLASS(MPI_ERR_ARG),
    CLASS(MPI_ERR_UNKNOWN),
    CLASS(MPI_ERR_TRUNCATE),
    CLASS(MPI_ERR_OTHER),
    CLASS(MPI_ERR_INTERN),
    CLASS(MPI_ERR_IN_STATUS),
    CLASS(MPI_ERR_PENDING),
    CLASS(MPI_ERR_FILE),
    CLASS(MPI_ERR_NOT_SAME),
    CLASS(MPI_ERR_AMODE),
    CLASS(MPI_ERR_UNSUPPORTED_DATAREP),
    CLASS(MPI_ERR_UNSUPPORTED_OPERATION),
    CLASS(MPI_ERR_NO_SUCH_FILE),
    CLASS(MPI_ERR_FILE_EXISTS),
    CLASS(MPI_ERR_BAD_FILE),
    CLASS(MPI_ERR_ACCESS),
    CLASS(MPI_ERR_NO_SPACE),
    CLASS(MPI_ERR_QUOTA),
    CLASS(MPI_ERR_READ_ONLY),
    CLASS(MPI_ERR_FILE_IN_USE),
    CLASS(MPI_ERR_DUP_DATAREP),
    CLASS(MPI_ERR_CONVERSION),
    CLASS(MPI_ERR_IO),
    CLASS(MPI_ERR_INFO),
    CLASS(MPI_ERR_INFO_KEY),
    CLASS(MPI_ERR_INFO_VALUE),
    CLASS(MPI_ERR_INFO_NOKEY),
};

/* The class of an error code, as a name. */
static const char *class_of(int code, char *buf, size_t buflen) {
    int cls = code;
    if (code != MPI_SUCCESS && MPI_Error_class(code, &cls) != MPI_SUCCESS)
        cls = code;
    for (size_t i = 0; i < sizeof class_names / sizeof class_names[0]; i++)
        if (class_names[i].cls == cls)
            return class_names[i].name;
    snprintf(buf, buflen, "class%d", cls);
    return buf;
}

/* ---- what a scenario reports ------------------------------------------------------ */

struct result {
    int rc;            /* the call under test, or the first failure of a success scenario */
    int rc_set;        /* rc holds the call under test (error scenarios set it once) */
    char extra[FIELD]; /* "key=value,..." */
};

/* A success scenario: keeps the first failure. */
static void step(struct result *r, int rc) {
    if (!r->rc_set && rc != MPI_SUCCESS) {
        r->rc = rc;
        r->rc_set = 1;
    }
}

/* An error scenario: the call under test. */
static void tested(struct result *r, int rc) {
    r->rc = rc;
    r->rc_set = 1;
}

static void add_extra(struct result *r, const char *fmt, ...) {
    size_t len = strlen(r->extra);
    if (len >= sizeof r->extra - 1)
        return;
    if (len > 0)
        r->extra[len++] = ',';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->extra + len, sizeof r->extra - len, fmt, ap);
    va_end(ap);
}

/* Adds "key=CLASS" to extra. */
static void extra_class(struct result *r, const char *key, int rc) {
    char buf[32];
    add_extra(r, "%s=%s", key, class_of(rc, buf, sizeof buf));
}

static int count_of(const MPI_Status *st, int rc) {
    int count = -1;
    if (rc == MPI_SUCCESS)
        MPI_Get_count(st, MPI_BYTE, &count);
    return count;
}

/* ---- helpers ---------------------------------------------------------------------- */

static void path_of(char *out, size_t outlen, const char *name, const char *suffix) {
    snprintf(out, outlen, "%s/%s%s", dir, name, suffix);
}

/*
 * Opens on MPI_COMM_WORLD; in fatal mode the file gets MPI_ERRORS_ARE_FATAL explicitly.
 *
 * RATIONALE: MPICH 5.0.2 drops a reference to a user file error handler that a file inherited
 * from MPI_FILE_NULL when the file is closed, without having taken one at open: after two
 * files were opened and closed, the next error fails an assertion in errutil.c and aborts.
 * In user mode each open therefore takes one more reference (MPI_File_get_errhandler), kept
 * until MPI_Finalize. The handler stays the one MPI_FILE_NULL has; files still inherit it.
 */
static int open_file(const char *path, int amode, MPI_File *fh) {
    *fh = MPI_FILE_NULL;
    if (mode == MODE_USER) {
        MPI_Errhandler reference;
        MPI_File_get_errhandler(MPI_FILE_NULL, &reference);
    }
    int rc = MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, fh);
    if (rc == MPI_SUCCESS && mode == MODE_FATAL)
        MPI_File_set_errhandler(*fh, MPI_ERRORS_ARE_FATAL);
    return rc;
}

/* Closes a file that is open (after a failed open the handle is MPI_FILE_NULL). */
static void close_file(struct result *r, MPI_File *fh) {
    if (*fh == MPI_FILE_NULL)
        return;
    int rc = MPI_File_close(fh);
    if (rc != MPI_SUCCESS)
        extra_class(r, "close", rc);
}

static unsigned char byte_at(long long offset) {
    unsigned long long o = (unsigned long long)offset;
    return (unsigned char)((o * 131u + 7u) ^ (o >> 9));
}

static unsigned char wbuf[BLK], rbuf[BLK];

/* Fills wbuf with the content of file bytes [offset, offset + n). */
static void fill(long long offset, int n) {
    for (int i = 0; i < n; i++)
        wbuf[i] = byte_at(offset + i);
}

/* Every rank's flag is true. */
static int all_true(int flag) {
    int all = 0;
    MPI_Allreduce(&flag, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* An erroneous call (count -1) on a file opened now, after the scenario's open: does the file
 * carry the error handler MPI_FILE_NULL had (the user's, or MPI_ERRORS_RETURN)? */
static void later_file(struct result *r, const char *name) {
    char path[4096];
    path_of(path, sizeof path, name, ".later.dat");
    MPI_File fh;
    int rc = open_file(path, MPI_MODE_CREATE | MPI_MODE_RDWR, &fh);
    extra_class(r, "later_open", rc);
    if (rc != MPI_SUCCESS)
        return;
    int before = handler_calls;
    MPI_Status st;
    rc = MPI_File_write_at(fh, 0, wbuf, -1, MPI_BYTE, &st);
    extra_class(r, "later_write", rc);
    add_extra(r, "later_handler_calls=%d", handler_calls - before);
    close_file(r, &fh);
}

/* ---- success scenarios ------------------------------------------------------------ */

static void collective_write(const char *name, const char *path, struct result *r) {
    (void)name;
    MPI_File fh;
    MPI_Status st;
    step(r, open_file(path, MPI_MODE_CREATE | MPI_MODE_RDWR, &fh));
    if (fh == MPI_FILE_NULL)
        return;
    long long offset = (long long)rank * BLK;
    fill(offset, BLK);
    int rc = MPI_File_write_at_all(fh, offset, wbuf, BLK, MPI_BYTE, &st);
    step(r, rc);
    add_extra(r, "written=%d", count_of(&st, rc));
    step(r, MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    step(r, MPI_File_sync(fh));
    /* Read the next rank's block: data written by one rank is checked by another. */
    long long other = (long long)((rank + 1) % nprocs) * BLK;
    rc = MPI_File_read_at_all(fh, other, rbuf, BLK, MPI_BYTE, &st);
    step(r, rc);
    add_extra(r, "read=%d", count_of(&st, rc));
    fill(other, BLK);
    add_extra(r, "verified=%d", all_true(memcmp(wbuf, rbuf, BLK) == 0));
    close_file(r, &fh);
}

static void set_view_write_all(const char *name, const char *path, struct result *r) {
    (void)name;
    MPI_File fh;
    MPI_Status st;
    MPI_Datatype filetype;
    MPI_Type_vector(NPIECES, PIECE, PIECE * nprocs, MPI_BYTE, &filetype);
    MPI_Type_commit(&filetype);
    step(r, open_file(path, MPI_MODE_CREATE | MPI_MODE_RDWR, &fh));
    if (fh == MPI_FILE_NULL) {
        MPI_Type_free(&filetype);
        return;
    }
    MPI_Offset disp = (MPI_Offset)rank * PIECE;
    step(r, MPI_File_set_view(fh, disp, MPI_BYTE, filetype, "native", MPI_INFO_NULL));
    /* The j-th piece of this rank is at file offset (j*nprocs + rank) * PIECE. */
    for (int j = 0; j < NPIECES; j++)
        for (int i = 0; i < PIECE; i++)
            wbuf[j * PIECE + i] = byte_at((long long)(j * nprocs + rank) * PIECE + i);
    int rc = MPI_File_write_all(fh, wbuf, NPIECES * PIECE, MPI_BYTE, &st);
    step(r, rc);
    add_extra(r, "written=%d", count_of(&st, rc));
    step(r, MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    step(r, MPI_File_sync(fh));
    step(r, MPI_File_seek(fh, 0, MPI_SEEK_SET));
    memset(rbuf, 0, sizeof rbuf);
    rc = MPI_File_read_all(fh, rbuf, NPIECES * PIECE, MPI_BYTE, &st);
    step(r, rc);
    add_extra(r, "read=%d", count_of(&st, rc));
    add_extra(r, "verified=%d", all_true(memcmp(wbuf, rbuf, NPIECES * PIECE) == 0));
    close_file(r, &fh);
    MPI_Type_free(&filetype);
}

static void read_past_eof(const char *name, const char *path, struct result *r) {
    (void)name;
    MPI_File fh;
    MPI_Status st;
    step(r, open_file(path, MPI_MODE_CREATE | MPI_MODE_RDWR, &fh));
    if (fh == MPI_FILE_NULL)
        return;
    fill(0, 100);
    if (rank == 0)
        step(r, MPI_File_write_at(fh, 0, wbuf, 100, MPI_BYTE, &st));
    step(r, MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    step(r, MPI_File_sync(fh));
    int rc = MPI_File_read_at(fh, 4096, rbuf, 10, MPI_BYTE, &st);
    step(r, rc);
    add_extra(r, "past_eof=%d", count_of(&st, rc));
    rc = MPI_File_read_at(fh, 90, rbuf, 20, MPI_BYTE, &st);
    step(r, rc);
    add_extra(r, "across_eof=%d", count_of(&st, rc));
    rc = MPI_File_read_at_all(fh, 4096 + (MPI_Offset)rank * 10, rbuf, 10, MPI_BYTE, &st);
    step(r, rc);
    add_extra(r, "all_past_eof=%d", count_of(&st, rc));
    close_file(r, &fh);
}

static void set_info_null(const char *name, const char *path, struct result *r) {
    (void)name;
    MPI_File fh;
    MPI_Status st;
    step(r, open_file(path, MPI_MODE_CREATE | MPI_MODE_RDWR, &fh));
    if (fh == MPI_FILE_NULL)
        return;
    int rc = MPI_File_set_info(fh, MPI_INFO_NULL);
    step(r, rc);
    extra_class(r, "set_info", rc);
    fill((long long)rank * BLK, BLK);
    rc = MPI_File_write_at_all(fh, (MPI_Offset)rank * BLK, wbuf, BLK, MPI_BYTE, &st);
    step(r, rc);
    add_extra(r, "written=%d", count_of(&st, rc));
    close_file(r, &fh);
}

/* A record of the sequential scenarios: "rec RANK" padded with dots to REC bytes. */
static void make_record(char *rec, int who) {
    char text[32];
    snprintf(text, sizeof text, "rec %04d........", who % 10000);
    memcpy(rec, text, REC);
}

/* The rank a record names, or -1 when it is not a record. */
static int record_rank(const char *rec) {
    char want[REC];
    int who = -1;
    if (sscanf(rec, "rec %4d", &who) != 1 || who < 0 || who >= nprocs)
        return -1;
    make_record(want, who);
    return memcmp(rec, want, REC) == 0 ? who : -1;
}

/*
 * MPI_MODE_SEQUENTIAL: only the shared file pointer routines are legal. Write one record per
 * rank, close, reopen read-only and read one record per rank back. With ordered routines each
 * rank reads its own record; with write_shared/read_shared the order is MPI's, so each rank
 * checks that it read some rank's record and the ranks together read all of them.
 */
static void sequential(const char *path, struct result *r, int ordered) {
    MPI_File fh;
    MPI_Status st;
    char rec[REC], got[REC];
    make_record(rec, rank);
    step(r, open_file(path, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL, &fh));
    if (fh == MPI_FILE_NULL)
        return;
    int rc = ordered ? MPI_File_write_ordered(fh, rec, REC, MPI_BYTE, &st)
                     : MPI_File_write_shared(fh, rec, REC, MPI_BYTE, &st);
    step(r, rc);
    add_extra(r, "written=%d", count_of(&st, rc));
    close_file(r, &fh);
    MPI_Barrier(MPI_COMM_WORLD);
    step(r, open_file(path, MPI_MODE_RDONLY | MPI_MODE_SEQUENTIAL, &fh));
    if (fh == MPI_FILE_NULL)
        return;
    memset(got, 0, sizeof got);
    rc = ordered ? MPI_File_read_ordered(fh, got, REC, MPI_BYTE, &st)
                 : MPI_File_read_shared(fh, got, REC, MPI_BYTE, &st);
    step(r, rc);
    add_extra(r, "read=%d", count_of(&st, rc));
    int who = record_rank(got);
    int ok = ordered ? who == rank : who >= 0;
    int seen = who >= 0 ? 1 << (who % 30) : 0, all_seen = 0;
    MPI_Allreduce(&seen, &all_seen, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
    int expected = nprocs >= 30 ? all_seen : (1 << nprocs) - 1;
    add_extra(r, "records_ok=%d", all_true(ok) && all_seen == expected);
    close_file(r, &fh);
}

/* ---- error scenarios -------------------------------------------------------------- */

/* Opens DIR/NAME.dat for an error scenario; 0 when it could not (reported in extra). */
static int open_for_error(const char *path, struct result *r, MPI_File *fh) {
    int rc = open_file(path, MPI_MODE_CREATE | MPI_MODE_RDWR, fh);
    if (rc != MPI_SUCCESS) {
        extra_class(r, "setup_open", rc);
        tested(r, rc);
        return 0;
    }
    return 1;
}

/* The data-access routines called with MPI_DATATYPE_NULL. */
enum { T_WRITE_AT, T_WRITE_AT_ALL, T_IWRITE_AT, T_READ_AT_ALL, T_WRITE_ORDERED, T_WRITE_AT_C };

static void type_null(const char *path, struct result *r, int routine) {
    MPI_File fh;
    MPI_Status st;
    MPI_Request req = MPI_REQUEST_NULL;
    if (!open_for_error(path, r, &fh))
        return;
    int rc = MPI_SUCCESS;
    switch (routine) {
    case T_WRITE_AT:
        rc = MPI_File_write_at(fh, 0, wbuf, 1, MPI_DATATYPE_NULL, &st);
        break;
    case T_WRITE_AT_ALL:
        rc = MPI_File_write_at_all(fh, 0, wbuf, 1, MPI_DATATYPE_NULL, &st);
        break;
    case T_IWRITE_AT:
        rc = MPI_File_iwrite_at(fh, 0, wbuf, 1, MPI_DATATYPE_NULL, &req);
        if (rc == MPI_SUCCESS && req != MPI_REQUEST_NULL)
            MPI_Wait(&req, &st);
        break;
    case T_READ_AT_ALL:
        rc = MPI_File_read_at_all(fh, 0, rbuf, 1, MPI_DATATYPE_NULL, &st);
        break;
    case T_WRITE_ORDERED:
        rc = MPI_File_write_ordered(fh, wbuf, 1, MPI_DATATYPE_NULL, &st);
        break;
    case T_WRITE_AT_C:
#if MPI_VERSION >= 4
        rc = MPI_File_write_at_c(fh, 0, wbuf, 1, MPI_DATATYPE_NULL, &st);
#else
        add_extra(r, "no_large_count_routines");
#endif
        break;
    }
    tested(r, rc);
    close_file(r, &fh);
}

/* A split collective begun with an invalid datatype; then a valid begin/end pair on the same
 * file (does the failed begin leave a split collective pending?). */
static void write_all_begin_type_null(const char *name, const char *path, struct result *r) {
    (void)name;
    MPI_File fh;
    MPI_Status st;
    if (!open_for_error(path, r, &fh))
        return;
    int before = handler_calls;
    int rc = MPI_File_write_all_begin(fh, wbuf, 1, MPI_DATATYPE_NULL);
    tested(r, rc);
    /* (A user handler that returns makes MPICH return MPI_SUCCESS: it counts as failed.) */
    if (rc == MPI_SUCCESS && handler_calls == before)
        extra_class(r, "end", MPI_File_write_all_end(fh, wbuf, &st));
    fill(0, BLK);
    rc = MPI_File_write_at_all_begin(fh, (MPI_Offset)rank * BLK, wbuf, BLK, MPI_BYTE);
    extra_class(r, "next_begin", rc);
    if (rc == MPI_SUCCESS) {
        rc = MPI_File_write_at_all_end(fh, wbuf, &st);
        extra_class(r, "next_end", rc);
        add_extra(r, "next_written=%d", count_of(&st, rc));
    }
    close_file(r, &fh);
}

static void set_view_type_null(const char *name, const char *path, struct result *r) {
    (void)name;
    MPI_File fh;
    if (!open_for_error(path, r, &fh))
        return;
    tested(r, MPI_File_set_view(fh, 0, MPI_BYTE, MPI_DATATYPE_NULL, "native", MPI_INFO_NULL));
    close_file(r, &fh);
}

static void set_view_negative_disp(const char *name, const char *path, struct result *r) {
    (void)name;
    MPI_File fh;
    if (!open_for_error(path, r, &fh))
        return;
    tested(r, MPI_File_set_view(fh, -1, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    close_file(r, &fh);
}

enum { NEG_WRITE_AT, NEG_READ_AT, NEG_WRITE_AT_ALL };

static void negative_offset(const char *path, struct result *r, int routine) {
    MPI_File fh;
    MPI_Status st;
    if (!open_for_error(path, r, &fh))
        return;
    fill(0, BLK);
    int rc = routine == NEG_WRITE_AT  ? MPI_File_write_at(fh, -1, wbuf, 8, MPI_BYTE, &st)
             : routine == NEG_READ_AT ? MPI_File_read_at(fh, -1, rbuf, 8, MPI_BYTE, &st)
                                      : MPI_File_write_at_all(fh, -1, wbuf, 8, MPI_BYTE, &st);
    tested(r, rc);
    close_file(r, &fh);
}

static void count_negative(const char *path, struct result *r, int collective) {
    MPI_File fh;
    MPI_Status st;
    if (!open_for_error(path, r, &fh))
        return;
    tested(r, collective ? MPI_File_write_at_all(fh, 0, wbuf, -1, MPI_BYTE, &st)
                         : MPI_File_write_at(fh, 0, wbuf, -1, MPI_BYTE, &st));
    close_file(r, &fh);
}

/* Create the file, then reopen it read-only and write to it. */
static void write_read_only(const char *path, struct result *r, int collective) {
    MPI_File fh;
    MPI_Status st;
    if (!open_for_error(path, r, &fh))
        return;
    close_file(r, &fh);
    int rc = open_file(path, MPI_MODE_RDONLY, &fh);
    if (rc != MPI_SUCCESS) {
        extra_class(r, "setup_open", rc);
        tested(r, rc);
        return;
    }
    fill(0, BLK);
    tested(r, collective ? MPI_File_write_at_all(fh, (MPI_Offset)rank * 8, wbuf, 8, MPI_BYTE, &st)
                         : MPI_File_write_at(fh, (MPI_Offset)rank * 8, wbuf, 8, MPI_BYTE, &st));
    close_file(r, &fh);
}

/* Opening a file that does not exist, read-only; then a file opened afterwards. */
static void open_missing(const char *name, const char *path, struct result *r) {
    (void)path;
    char missing[4096];
    path_of(missing, sizeof missing, name, ".missing");
    MPI_File fh;
    int rc = open_file(missing, MPI_MODE_RDONLY, &fh);
    tested(r, rc);
    add_extra(r, "fh_null=%d", fh == MPI_FILE_NULL);
    close_file(r, &fh);
    later_file(r, name);
}

/* No communicator at all: MPI answers MPI_ERR_COMM (iotuner must not ask about it first). */
static void open_comm_null(const char *name, const char *path, struct result *r) {
    (void)name;
    MPI_File fh = MPI_FILE_NULL;
    if (mode == MODE_USER) {
        MPI_Errhandler reference;
        MPI_File_get_errhandler(MPI_FILE_NULL, &reference);
    }
    int rc =
        MPI_File_open(MPI_COMM_NULL, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    tested(r, rc);
    add_extra(r, "fh_null=%d", fh == MPI_FILE_NULL);
}

/* An access mode MPI rejects: MPI_MODE_SEQUENTIAL with MPI_MODE_RDWR. */
static void open_bad_amode(const char *name, const char *path, struct result *r) {
    MPI_File fh;
    int rc = open_file(path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL, &fh);
    tested(r, rc);
    add_extra(r, "fh_null=%d", fh == MPI_FILE_NULL);
    close_file(r, &fh);
    later_file(r, name);
}

/* A successful open, then an erroneous call on the file: the file carries MPI_FILE_NULL's
 * handler. (When the tuning table's open hints make MPI reject the open, the interposer
 * retries without them; this is the file such a retry opens.) */
static void open_then_error(const char *name, const char *path, struct result *r) {
    (void)name;
    MPI_File fh;
    MPI_Status st;
    int rc = open_file(path, MPI_MODE_CREATE | MPI_MODE_RDWR, &fh);
    extra_class(r, "open", rc);
    if (rc != MPI_SUCCESS) {
        tested(r, rc);
        return;
    }
    tested(r, MPI_File_write_at(fh, 0, wbuf, -1, MPI_BYTE, &st));
    close_file(r, &fh);
}

static void delete_missing(const char *name, const char *path, struct result *r) {
    (void)path;
    char missing[4096];
    path_of(missing, sizeof missing, name, ".missing");
    tested(r, MPI_File_delete(missing, MPI_INFO_NULL));
}

/*
 * A closed file: MPI_File_close set the handle to MPI_FILE_NULL; use it again. (Not tested: a
 * copy of the handle taken before the close. MPICH 5.0.2 checks a cookie in the freed file
 * structure; alone that answers MPI_ERR_FILE, after the other scenarios it segfaults.)
 */
static void closed_handle(const char *name, const char *path, struct result *r) {
    (void)name;
    MPI_File fh;
    MPI_Status st;
    if (!open_for_error(path, r, &fh))
        return;
    close_file(r, &fh);
    add_extra(r, "fh_null=%d", fh == MPI_FILE_NULL);
    tested(r, MPI_File_write_at(fh, 0, wbuf, 8, MPI_BYTE, &st));
    extra_class(r, "write_all", MPI_File_write_at_all(fh, 0, wbuf, 8, MPI_BYTE, &st));
    extra_class(r, "close", MPI_File_close(&fh));
}

/* MPI_MODE_SEQUENTIAL files: the individual file pointer and its position are erroneous. */
enum { SEQ_GET_POSITION, SEQ_WRITE, SEQ_WRITE_ALL };

static void sequential_error(const char *path, struct result *r, int routine) {
    MPI_File fh;
    MPI_Status st;
    MPI_Offset position = -1;
    int rc = open_file(path, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL, &fh);
    if (rc != MPI_SUCCESS) {
        extra_class(r, "setup_open", rc);
        tested(r, rc);
        return;
    }
    fill(0, BLK);
    switch (routine) {
    case SEQ_GET_POSITION:
        rc = MPI_File_get_position(fh, &position);
        break;
    case SEQ_WRITE:
        rc = MPI_File_write(fh, wbuf, 8, MPI_BYTE, &st);
        break;
    case SEQ_WRITE_ALL:
        rc = MPI_File_write_all(fh, wbuf, 8, MPI_BYTE, &st);
        break;
    }
    tested(r, rc);
    close_file(r, &fh);
}

/* ---- the table -------------------------------------------------------------------- */

typedef void scenario_fn(const char *name, const char *path, struct result *r);
/* One routine of a family of scenarios that differ only in the call they make. */
typedef void family_fn(const char *path, struct result *r, int variant);

static const struct scenario {
    const char *name;
    int succeeds;     /* runs under MPI_ERRORS_ARE_FATAL too */
    scenario_fn *run; /* or, for a family: */
    family_fn *family;
    int variant;
} scenarios[] = {
    {"collective_write", 1, collective_write, NULL, 0},
    {"set_view_write_all", 1, set_view_write_all, NULL, 0},
    {"read_past_eof", 1, read_past_eof, NULL, 0},
    {"sequential_shared", 1, NULL, sequential, 0},
    {"sequential_ordered", 1, NULL, sequential, 1},
    /* Last of those that succeed: Open MPI fails it (see the top), and under fatal that
     * ends the job. */
    {"set_info_null", 1, set_info_null, NULL, 0},
    {"write_at_type_null", 0, NULL, type_null, T_WRITE_AT},
    {"write_at_all_type_null", 0, NULL, type_null, T_WRITE_AT_ALL},
    {"iwrite_at_type_null", 0, NULL, type_null, T_IWRITE_AT},
    {"read_at_all_type_null", 0, NULL, type_null, T_READ_AT_ALL},
    {"write_ordered_type_null", 0, NULL, type_null, T_WRITE_ORDERED},
    {"write_at_c_type_null", 0, NULL, type_null, T_WRITE_AT_C},
    {"write_all_begin_type_null", 0, write_all_begin_type_null, NULL, 0},
    {"set_view_type_null", 0, set_view_type_null, NULL, 0},
    {"set_view_negative_disp", 0, set_view_negative_disp, NULL, 0},
    {"write_at_negative_offset", 0, NULL, negative_offset, NEG_WRITE_AT},
    {"read_at_negative_offset", 0, NULL, negative_offset, NEG_READ_AT},
    {"write_at_all_negative_offset", 0, NULL, negative_offset, NEG_WRITE_AT_ALL},
    {"write_at_count_negative", 0, NULL, count_negative, 0},
    {"write_at_all_count_negative", 0, NULL, count_negative, 1},
    {"write_at_read_only", 0, NULL, write_read_only, 0},
    {"write_at_all_read_only", 0, NULL, write_read_only, 1},
    {"open_missing", 0, open_missing, NULL, 0},
    {"open_bad_amode", 0, open_bad_amode, NULL, 0},
    {"open_then_error", 0, open_then_error, NULL, 0},
    {"delete_missing", 0, delete_missing, NULL, 0},
    {"closed_handle", 0, closed_handle, NULL, 0},
    {"sequential_get_position", 0, NULL, sequential_error, SEQ_GET_POSITION},
    {"sequential_write", 0, NULL, sequential_error, SEQ_WRITE},
    {"sequential_write_all", 0, NULL, sequential_error, SEQ_WRITE_ALL},
    /* Last of all: Open MPI raises it on MPI_COMM_WORLD, whose handler is fatal in user
     * mode, and that ends the job. */
    {"open_comm_null", 0, open_comm_null, NULL, 0},
};
enum { NSCENARIOS = sizeof scenarios / sizeof scenarios[0] };

/* ---- running and reporting -------------------------------------------------------- */

enum { F_RC, F_CALLS, F_CLASSES, F_EXTRA, NFIELDS };

/* Rank 0 prints field f: the common value, or every rank's value joined by '/'. */
static void print_field(const char *all, int f) {
    const char *first = all + (size_t)f * FIELD;
    int same = 1;
    for (int p = 1; p < nprocs; p++)
        if (strcmp(first, all + ((size_t)p * NFIELDS + f) * FIELD) != 0)
            same = 0;
    if (same) {
        fputs(first, stdout);
        return;
    }
    for (int p = 0; p < nprocs; p++) {
        if (p > 0)
            putchar('/');
        fputs(all + ((size_t)p * NFIELDS + f) * FIELD, stdout);
    }
}

static void run_scenario(const struct scenario *s) {
    char path[4096], later[4096], missing[4096];
    path_of(path, sizeof path, s->name, ".dat");
    path_of(later, sizeof later, s->name, ".later.dat");
    path_of(missing, sizeof missing, s->name, ".missing");
    if (rank == 0) {
        unlink(path);
        unlink(later);
        unlink(missing);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    handler_calls = 0;
    struct result r = {.rc = MPI_SUCCESS};
    if (s->run)
        s->run(s->name, path, &r);
    else
        s->family(path, &r, s->variant);
    MPI_Barrier(MPI_COMM_WORLD);

    char mine[NFIELDS][FIELD];
    char buf[32];
    snprintf(mine[F_RC], FIELD, "%s", class_of(r.rc, buf, sizeof buf));
    snprintf(mine[F_CALLS], FIELD, "%d", handler_calls);
    if (handler_calls == 0)
        snprintf(mine[F_CLASSES], FIELD, "-");
    else
        mine[F_CLASSES][0] = '\0';
    for (int i = 0; i < handler_calls && i < MAX_CLASSES; i++) {
        size_t len = strlen(mine[F_CLASSES]);
        snprintf(mine[F_CLASSES] + len, FIELD - len, "%s%s", i ? "," : "",
                 class_of(handler_classes[i], buf, sizeof buf));
    }
    if (handler_calls > MAX_CLASSES) {
        size_t len = strlen(mine[F_CLASSES]);
        snprintf(mine[F_CLASSES] + len, FIELD - len, ",...");
    }
    snprintf(mine[F_EXTRA], FIELD, "%s", r.extra[0] ? r.extra : "-");

    char *all = rank == 0 ? malloc((size_t)nprocs * NFIELDS * FIELD) : NULL;
    if (rank == 0 && !all) {
        fprintf(stderr, "errcases: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Gather(mine, NFIELDS * FIELD, MPI_CHAR, all, NFIELDS * FIELD, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("scenario %s rc_class=", s->name);
        print_field(all, F_RC);
        fputs(" handler_calls=", stdout);
        print_field(all, F_CALLS);
        fputs(" handler_class=", stdout);
        print_field(all, F_CLASSES);
        fputs(" extra=", stdout);
        print_field(all, F_EXTRA);
        putchar('\n');
        fflush(stdout);
        free(all);
    }
}

static const char *usage_text =
    "usage: errcases --dir DIR --handler return|user|fatal [SCENARIO ...]\n"
    "       errcases --list\n"
    "Runs the named scenarios (default: all the handler mode allows; fatal: only those that\n"
    "succeed) and prints one `scenario NAME rc_class=... handler_calls=... handler_class=...\n"
    "extra=...` line for each.\n";

/* Fills the selection from argv; returns 0, 1 for --help/--list (printed), 2 on a bad line. */
static int parse(int argc, char **argv, int *selected, int *nselected) {
    const char *handler = NULL;
    int list = 0;
    *nselected = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            if (rank == 0)
                fputs(usage_text, stdout);
            return 1;
        } else if (strcmp(arg, "--list") == 0) {
            list = 1;
        } else if (strcmp(arg, "--dir") == 0 && i + 1 < argc) {
            dir = argv[++i];
        } else if (strcmp(arg, "--handler") == 0 && i + 1 < argc) {
            handler = argv[++i];
        } else if (arg[0] == '-') {
            if (rank == 0)
                fprintf(stderr, "errcases: unknown option or missing value: '%s'\n%s", arg,
                        usage_text);
            return 2;
        } else {
            int found = -1;
            for (int k = 0; k < NSCENARIOS; k++)
                if (strcmp(arg, scenarios[k].name) == 0)
                    found = k;
            if (found < 0) {
                if (rank == 0)
                    fprintf(stderr, "errcases: unknown scenario '%s' (see --list)\n", arg);
                return 2;
            }
            selected[(*nselected)++] = found;
        }
    }
    if (list) {
        for (int k = 0; k < NSCENARIOS && rank == 0; k++)
            printf("%s %s\n", scenarios[k].name, scenarios[k].succeeds ? "success" : "error");
        return 1;
    }
    if (!dir || !handler) {
        if (rank == 0)
            fprintf(stderr, "errcases: --dir and --handler are required\n%s", usage_text);
        return 2;
    }
    if (strcmp(handler, "return") == 0)
        mode = MODE_RETURN;
    else if (strcmp(handler, "user") == 0)
        mode = MODE_USER;
    else if (strcmp(handler, "fatal") == 0)
        mode = MODE_FATAL;
    else {
        if (rank == 0)
            fprintf(stderr, "errcases: --handler must be return, user or fatal\n");
        return 2;
    }
    if (*nselected == 0) {
        for (int k = 0; k < NSCENARIOS; k++)
            if (mode != MODE_FATAL || scenarios[k].succeeds)
                selected[(*nselected)++] = k;
    }
    for (int i = 0; i < *nselected; i++) {
        if (mode == MODE_FATAL && !scenarios[selected[i]].succeeds) {
            if (rank == 0)
                fprintf(stderr,
                        "errcases: '%s' is an error scenario; --handler fatal runs only the "
                        "scenarios that succeed\n",
                        scenarios[selected[i]].name);
            return 2;
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    int *selected = malloc(((size_t)argc + NSCENARIOS) * sizeof *selected);
    int nselected = 0;
    int status = selected ? parse(argc, argv, selected, &nselected) : 2;
    if (status != 0) {
        free(selected);
        MPI_Finalize();
        return status == 1 ? 0 : 2;
    }

    MPI_Errhandler user = MPI_ERRHANDLER_NULL;
    switch (mode) {
    case MODE_RETURN:
        MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
        break;
    case MODE_USER:
        MPI_File_create_errhandler(count_errors, &user);
        MPI_File_set_errhandler(MPI_FILE_NULL, user);
        break;
    case MODE_FATAL:
        MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_ARE_FATAL);
        break;
    }

    for (int i = 0; i < nselected; i++)
        run_scenario(&scenarios[selected[i]]);
    free(selected);

    MPI_Finalize();
    return 0;
}
