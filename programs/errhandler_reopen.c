/*
 * errhandler_reopen: sets a file error handler on MPI_FILE_NULL, then opens and closes a
 * file several times, every file inheriting that handler. Issue 24: under
 * IOTUNER_MODE=trace the third open of such a program aborted in MPI_File_set_errhandler
 * ("Error handler is not a file error handler").
 *
 *   errhandler_reopen --dir DIR --handler return|user [--opens N] [--write] [--check]
 *
 * Handlers:
 *   return  MPI_ERRORS_RETURN on MPI_FILE_NULL.
 *   user    a handler made with MPI_File_create_errhandler (it counts its calls and
 *           returns), set on MPI_FILE_NULL; the program keeps its own reference.
 *
 * Each of the N opens (default 3) creates DIR/reopen.dat on MPI_COMM_WORLD and closes it;
 * with --write, every rank also writes and reads 4 KiB collectively and independently in
 * it (the calls a tracer and a tuner follow).
 *
 * --check also verifies, after each open and close, that the file and MPI_FILE_NULL carry
 * the handler set, and at the end that an erroneous call (a read on a write-only file)
 * reaches it: the user handler runs once, MPI_ERRORS_RETURN returns the error.
 * RATIONALE: the check is an option because MPICH's ROMIO (4.0 to 5.0 at least) fails it
 * without any tool: a file takes no reference to the handler it inherits at open, and its
 * close releases one (mpi-io/close.c sets MPI_ERRORS_RETURN on it), so after as many
 * open/close pairs as the handler had references it is freed while still set on
 * MPI_FILE_NULL, and the erroneous call then ends in an assertion. Without --check the
 * program never touches the handler again after setting it, and runs to the end on MPICH
 * 5.0.2 (the PyPI wheel) and Open MPI; Debian's MPICH 4.0.2, built with its assertions,
 * ends it at the close that drives the count below zero (the third, for a user handler).
 *
 * Rank 0 prints `open I ok` after each open and close, then (--check) `handler ok
 * calls=N`, then `done`. Exit codes: 0 when every check held, 1 (MPI_Abort) when one failed
 * (its line on stderr says which), 2 bad options.
 */
#include "args.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLK 4096

static int handler_calls;

static void count_errors(MPI_File *fh, int *code, ...) {
    (void)fh;
    (void)code;
    handler_calls++;
}

static int rank;

/* Reports a failed check on stderr and ends the program with status 1 on every rank. */
static void fail(const char *what, int open_number, int rc) {
    fprintf(stderr, "errhandler_reopen: rank %d, open %d: %s (rc %d)\n", rank, open_number, what,
            rc);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Whether fh (a file, or MPI_FILE_NULL) carries want; the reference the query adds is freed. */
static int carries(MPI_File fh, MPI_Errhandler want) {
    MPI_Errhandler got = MPI_ERRHANDLER_NULL;
    if (MPI_File_get_errhandler(fh, &got) != MPI_SUCCESS)
        return 0;
    int same = got == want;
    MPI_Errhandler_free(&got);
    return same;
}

static void use_file(MPI_File fh, int open_number) {
    char buf[BLK];
    memset(buf, 'a' + open_number % 26, sizeof buf);
    MPI_Offset base = (MPI_Offset)rank * 2 * BLK;
    int rc = MPI_File_write_at_all(fh, base, buf, BLK, MPI_BYTE, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = MPI_File_write_at(fh, base + BLK, buf, BLK, MPI_BYTE, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) /* the individual pointer, into this rank's own bytes */
        rc = MPI_File_seek(fh, base, MPI_SEEK_SET);
    if (rc == MPI_SUCCESS)
        rc = MPI_File_write(fh, buf, 16, MPI_BYTE, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = MPI_File_sync(fh);
    if (rc == MPI_SUCCESS)
        rc = MPI_File_read_at_all(fh, base, buf, BLK, MPI_BYTE, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = MPI_File_read_at(fh, base + BLK, buf, BLK, MPI_BYTE, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        fail("a data call failed", open_number, rc);
}

int main(int argc, char **argv) {
    const char *dir = NULL, *handler = NULL;
    long long opens = 3;
    int write = 0, check = 0, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 1; i < argc && !bad; i++) {
        if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--handler") == 0 && i + 1 < argc)
            handler = argv[++i];
        else if (strcmp(argv[i], "--opens") == 0 && i + 1 < argc) {
            if (parse_count(argv[++i], &opens) != 0 || opens > 1000) {
                if (rank == 0)
                    fprintf(stderr,
                            "errhandler_reopen: --opens must be a count from 1 to 1000, got "
                            "'%s'\n",
                            argv[i]);
                MPI_Finalize();
                return 2;
            }
        } else if (strcmp(argv[i], "--write") == 0)
            write = 1;
        else if (strcmp(argv[i], "--check") == 0)
            check = 1;
        else
            bad = 1;
    }
    int user = handler && strcmp(handler, "user") == 0;
    if (bad || !dir || !handler || (!user && strcmp(handler, "return") != 0)) {
        if (rank == 0)
            fprintf(stderr, "usage: errhandler_reopen --dir DIR --handler return|user "
                            "[--opens N] [--write] [--check]\n");
        MPI_Finalize();
        return 2;
    }

    MPI_Errhandler eh = MPI_ERRORS_RETURN;
    if (user && MPI_File_create_errhandler(count_errors, &eh) != MPI_SUCCESS)
        fail("MPI_File_create_errhandler failed", 0, 0);
    int rc = MPI_File_set_errhandler(MPI_FILE_NULL, eh);
    if (rc != MPI_SUCCESS)
        fail("MPI_File_set_errhandler(MPI_FILE_NULL) failed", 0, rc);

    char path[4096];
    snprintf(path, sizeof path, "%s/reopen.dat", dir);
    for (int n = 1; n <= opens; n++) {
        MPI_File fh = MPI_FILE_NULL;
        rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                           &fh);
        if (rc != MPI_SUCCESS || fh == MPI_FILE_NULL)
            fail("MPI_File_open failed", n, rc);
        if (check && !carries(fh, eh))
            fail("the file does not carry MPI_FILE_NULL's handler", n, 0);
        if (write)
            use_file(fh, n);
        if (check && !carries(fh, eh))
            fail("the file lost its handler", n, 0);
        rc = MPI_File_close(&fh);
        if (rc != MPI_SUCCESS)
            fail("MPI_File_close failed", n, rc);
        if (check && !carries(MPI_FILE_NULL, eh))
            fail("MPI_FILE_NULL lost its handler", n, 0);
        if (rank == 0)
            printf("open %d ok\n", n);
    }

    if (check) {
        /* The handler still works: a read on a write-only file is an error it must see. */
        MPI_File fh = MPI_FILE_NULL;
        rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
        if (rc != MPI_SUCCESS || fh == MPI_FILE_NULL)
            fail("the last MPI_File_open failed", (int)opens + 1, rc);
        char byte;
        int before = handler_calls;
        rc = MPI_File_read_at(fh, 0, &byte, 1, MPI_BYTE, MPI_STATUS_IGNORE);
        int calls = handler_calls - before;
        if (user ? calls != 1 : (rc == MPI_SUCCESS || calls != 0))
            fail("the erroneous read did not reach the handler", (int)opens + 1, rc);
        MPI_File_close(&fh);
        if (rank == 0)
            printf("handler ok calls=%d\n", calls);
    }
    if (user)
        MPI_Errhandler_free(&eh);
    if (rank == 0)
        printf("done\n");
    MPI_Finalize();
    return 0;
}
