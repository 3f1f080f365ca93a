/*
 * open_missing: sets a file error handler that returns on MPI_FILE_NULL, then opens files
 * that do not exist several times, each time into an MPI_File the program never set.
 * Issue 32: with a returning user handler MPICH returns MPI_SUCCESS from such a failed
 * open, and where the open fails before ROMIO opens anything (the file's directory does
 * not exist either: ROMIO cannot tell its file system) it leaves the handle as it was; the
 * interposer then asked MPI about the handle (a garbage pointer) and the program died of
 * SIGSEGV in 7 of 10 runs.
 *
 *   open_missing --dir DIR --handler return|user [--opens N]
 *
 * Handlers:
 *   return  MPI_ERRORS_RETURN on MPI_FILE_NULL.
 *   user    a handler made with MPI_File_create_errhandler that counts its calls and
 *           returns, set on MPI_FILE_NULL.
 *
 * Each of the N rounds (default 4) opens, read-only on MPI_COMM_WORLD, DIR/missing.dat (a
 * missing file: MPICH sets the handle to MPI_FILE_NULL) and DIR/nodir/missing.dat (in a
 * missing directory: MPICH leaves the handle as it was). The handle is filled with 0x5a bytes
 * before each open: an uninitialised variable holds whatever the stack held, and a fixed garbage
 * value makes a tool that touches it crash every time instead of now and then. After the last,
 * DIR/present.dat is created, written and closed, to show MPI still works.
 *
 * Rank 0 prints, per open, `open I PATH class=C handle=H handler_calls=K` (PATH relative to
 * DIR), where C is the
 * error class returned (0 for MPI_SUCCESS), H says what MPI left in the handle (`as_set`:
 * the bytes put there before the open, `null`: MPI_FILE_NULL, `other`: anything else,
 * which the program then closes) and K counts the user handler's calls so far; then
 * `present ok` and `done`. The user handler is never freed: Debian's MPICH 4.0.2 (built
 * with assertions) then ends the program in MPI_Finalize without any tool (each open and
 * close of a file drops one of its references, programs/errhandler_reopen.c). Exit codes: 0 when
 * the file at the end opened, 1 (MPI_Abort) when it did not, 2 bad options.
 */
#include "args.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int handler_calls;

static void count_errors(MPI_File *fh, int *code, ...) {
    (void)fh;
    (void)code;
    handler_calls++;
}

/* What MPI left in a handle that held `garbage` before the open. */
static const char *handle_state(const MPI_File *fh, const MPI_File *garbage) {
    if (memcmp(fh, garbage, sizeof *fh) == 0)
        return "as_set";
    return *fh == MPI_FILE_NULL ? "null" : "other";
}

int main(int argc, char **argv) {
    const char *dir = NULL, *handler = NULL;
    long long opens = 4;
    int bad = 0, rank = 0;
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
                            "open_missing: --opens must be a count from 1 to 1000, got "
                            "'%s'\n",
                            argv[i]);
                MPI_Finalize();
                return 2;
            }
        } else
            bad = 1;
    }
    int user = handler && strcmp(handler, "user") == 0;
    if (bad || !dir || !handler || (!user && strcmp(handler, "return") != 0)) {
        if (rank == 0)
            fprintf(stderr, "usage: open_missing --dir DIR --handler return|user [--opens N]\n");
        MPI_Finalize();
        return 2;
    }

    MPI_Errhandler eh = MPI_ERRORS_RETURN;
    if (user)
        MPI_File_create_errhandler(count_errors, &eh);
    MPI_File_set_errhandler(MPI_FILE_NULL, eh);

    const char *missing[] = {"missing.dat", "nodir/missing.dat"};
    char path[4096], present[4096];
    snprintf(present, sizeof present, "%s/present.dat", dir);
    for (int n = 1; n <= opens; n++)
        for (int m = 0; m < 2; m++) {
            snprintf(path, sizeof path, "%s/%s", dir, missing[m]);
            MPI_File fh, garbage;
            memset(&garbage, 0x5a, sizeof garbage);
            memcpy(&fh, &garbage, sizeof fh);
            int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
            int cls = rc;
            if (rc != MPI_SUCCESS)
                MPI_Error_class(rc, &cls);
            const char *state = handle_state(&fh, &garbage);
            if (strcmp(state, "other") == 0)
                MPI_File_close(&fh);
            if (rank == 0)
                printf("open %d %s class=%d handle=%s handler_calls=%d\n", n, missing[m], cls,
                       state, handler_calls);
        }

    MPI_File fh = MPI_FILE_NULL;
    int rc = MPI_File_open(MPI_COMM_WORLD, present, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                           MPI_INFO_NULL, &fh);
    if (rc != MPI_SUCCESS || fh == MPI_FILE_NULL) {
        fprintf(stderr, "open_missing: rank %d: the open of %s failed (rc %d)\n", rank, present,
                rc);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    char byte = 'x';
    MPI_File_write_at_all(fh, rank, &byte, 1, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    if (rank == 0)
        printf("present ok\ndone\n");
    MPI_Finalize();
    return 0;
}
