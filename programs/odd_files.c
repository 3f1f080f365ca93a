/*
 * odd_files: file uses whose trace records once made a log iotuner could not read back
 * (issue 42). Every rank takes part; run it with 2 ranks or more.
 *
 *   odd_files --dir DIR
 *
 * 1. Each rank opens DIR/self.dat on MPI_COMM_SELF (one name, a file per rank's own
 *    communicator), writes 4 KiB of its rank number at offset rank * 4 KiB and closes it;
 *    rank 1 does so twice, so the ranks' counts of hints records differ from then on.
 * 2. All ranks open DIR/world.dat on MPI_COMM_WORLD, set a view (rank r's 4 KiB blocks
 *    interleaved with the others') and write 4 blocks collectively; closed.
 * 3. All ranks open DIR/open.dat on MPI_COMM_WORLD, write 4 KiB each collectively and
 *    leave it open: MPI_Finalize finds it open.
 *
 * Rank 0 prints `done`. Exit codes: 0, 1 when an MPI call fails (MPI_Abort), 2 bad options.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { BLOCK = 4096, BLOCKS = 4 };

static void check(int rc, const char *what) {
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "odd_files: %s failed (rc %d)\n", what, rc);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void write_self(const char *path, int rank, char *buf) {
    MPI_File fh;
    check(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh),
          "open on MPI_COMM_SELF");
    check(MPI_File_write_at(fh, (MPI_Offset)rank * BLOCK, buf, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE),
          "write_at");
    check(MPI_File_close(&fh), "close");
}

int main(int argc, char **argv) {
    int rank = 0, size = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 3 || strcmp(argv[1], "--dir") != 0) {
        if (rank == 0)
            fprintf(stderr, "usage: odd_files --dir DIR\n");
        MPI_Finalize();
        return 2;
    }
    static char buf[BLOCKS * BLOCK];
    memset(buf, '0' + rank % 10, sizeof buf);
    char path[4096];

    snprintf(path, sizeof path, "%s/self.dat", argv[2]);
    for (int k = 0; k < (rank == 1 ? 2 : 1); k++)
        write_self(path, rank, buf);
    MPI_Barrier(MPI_COMM_WORLD); /* rank 1's second open done before others reopen it */

    snprintf(path, sizeof path, "%s/world.dat", argv[2]);
    MPI_File fh;
    check(
        MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh),
        "open on MPI_COMM_WORLD");
    MPI_Datatype block, filetype;
    MPI_Type_contiguous(BLOCK, MPI_BYTE, &block);
    MPI_Type_create_resized(block, 0, (MPI_Aint)size * BLOCK, &filetype);
    MPI_Type_commit(&filetype);
    check(MPI_File_set_view(fh, (MPI_Offset)rank * BLOCK, MPI_BYTE, filetype, "native",
                            MPI_INFO_NULL),
          "set_view");
    check(MPI_File_write_all(fh, buf, BLOCKS * BLOCK, MPI_BYTE, MPI_STATUS_IGNORE), "write_all");
    check(MPI_File_close(&fh), "close");
    MPI_Type_free(&filetype);
    MPI_Type_free(&block);

    snprintf(path, sizeof path, "%s/open.dat", argv[2]);
    MPI_File left_open;
    check(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                        &left_open),
          "open of the file left open");
    check(MPI_File_write_at_all(left_open, (MPI_Offset)rank * BLOCK, buf, BLOCK, MPI_BYTE,
                                MPI_STATUS_IGNORE),
          "write_at_all");
    if (rank == 0)
        printf("done\n");
    MPI_Finalize();
    return 0;
}
