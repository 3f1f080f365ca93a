/*
 * shapes: one MPI-IO access of each shape the trace's access shape must tell apart
 * (formats/README.md, "Access shape"), each on a file of its own in DIR, so a test can
 * compare a trace's figures with what the program did. Every rank takes part.
 *
 *   DIR/vector    collective writes through a view of 4-byte pieces interleaved between
 *                 the ranks (MPI_Type_vector of ints, stride nprocs), contiguous memory
 *   DIR/memory    collective writes from noncontiguous memory (pairs of ints with two
 *                 ints' hole), a contiguous view
 *   DIR/subarray  a collective write of a 2-D subarray view (each rank a band of columns)
 *   DIR/darray    a collective write of a darray view (all rows, columns cyclic(2) over
 *                 the ranks)
 *   DIR/struct    collective writes from an array of {int, double} structs
 *   DIR/large     a collective write through a view of 2^18 one-byte pieces (more than
 *                 the decoder walks: its count is extrapolated)
 *   DIR/records   an independent header of two 16-byte writes per rank, then RECORDS
 *                 writes of 116-byte records through a view with 4-byte holes
 *
 * Usage: shapes DIR [RECORDS]   (RECORDS defaults to 2000)
 * Exit codes: 0 success, 1 MPI error, 2 bad arguments.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    VECTOR_INTS = 1024,
    CALLS = 4,
    PAIRS = 256,
    GRID = 32,
    STRUCTS = 100,
    RECORD = 116,
    LARGE = 1 << 18
};

static int check(int rc, const char *what) {
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "shapes: %s failed (%d)\n", what, rc);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return rc;
}

static MPI_File open_file(const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    MPI_File fh;
    check(
        MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh),
        path);
    return fh;
}

static void vector_view(const char *dir, int rank, int size, const int *data) {
    MPI_File fh = open_file(dir, "vector");
    MPI_Datatype pieces, filetype;
    MPI_Type_vector(VECTOR_INTS, 1, size, MPI_INT, &pieces);
    MPI_Type_create_resized(pieces, 0, (MPI_Aint)VECTOR_INTS * size * (MPI_Aint)sizeof(int),
                            &filetype);
    MPI_Type_commit(&filetype);
    check(MPI_File_set_view(fh, (MPI_Offset)rank * (MPI_Offset)sizeof(int), MPI_INT, filetype,
                            "native", MPI_INFO_NULL),
          "set_view vector");
    for (int c = 0; c < CALLS; c++)
        check(MPI_File_write_all(fh, data, VECTOR_INTS, MPI_INT, MPI_STATUS_IGNORE), "vector");
    MPI_Type_free(&filetype);
    MPI_Type_free(&pieces);
    MPI_File_close(&fh);
}

static void memory_pairs(const char *dir, int rank, const int *data) {
    MPI_File fh = open_file(dir, "memory");
    MPI_Datatype pairs;
    MPI_Type_vector(PAIRS, 2, 4, MPI_INT, &pairs);
    MPI_Type_commit(&pairs);
    MPI_Offset per_call = (MPI_Offset)PAIRS * 2 * (MPI_Offset)sizeof(int);
    for (int c = 0; c < CALLS; c++)
        check(MPI_File_write_at_all(fh, ((MPI_Offset)c * 2 + rank) * per_call, data, 1, pairs,
                                    MPI_STATUS_IGNORE),
              "memory");
    MPI_Type_free(&pairs);
    MPI_File_close(&fh);
}

static void grid_view(const char *dir, const char *name, MPI_Datatype filetype, const int *data,
                      int count) {
    MPI_File fh = open_file(dir, name);
    check(MPI_File_set_view(fh, 0, MPI_INT, filetype, "native", MPI_INFO_NULL), name);
    check(MPI_File_write_all(fh, data, count, MPI_INT, MPI_STATUS_IGNORE), name);
    MPI_File_close(&fh);
}

static void subarray(const char *dir, int rank, int size, const int *data) {
    int sizes[2] = {GRID, GRID}, subsizes[2] = {GRID, GRID / size}, starts[2] = {0, 0};
    starts[1] = rank * (GRID / size);
    MPI_Datatype filetype;
    MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &filetype);
    MPI_Type_commit(&filetype);
    grid_view(dir, "subarray", filetype, data, GRID * (GRID / size));
    MPI_Type_free(&filetype);
}

static void darray(const char *dir, int rank, int size, const int *data) {
    int gsizes[2] = {GRID, GRID}, psizes[2] = {1, size};
    int distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
        dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2};
    MPI_Datatype filetype;
    MPI_Type_create_darray(size, rank, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_INT,
                           &filetype);
    MPI_Type_commit(&filetype);
    int typesize = 0;
    MPI_Type_size(filetype, &typesize);
    grid_view(dir, "darray", filetype, data, typesize / (int)sizeof(int));
    MPI_Type_free(&filetype);
}

static void structs(const char *dir, int rank) {
    struct item {
        int id;
        double value;
    } items[STRUCTS];
    for (int i = 0; i < STRUCTS; i++)
        items[i] = (struct item){i, i * 0.5};
    int lengths[2] = {1, 1};
    MPI_Aint displs[2] = {offsetof(struct item, id), offsetof(struct item, value)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, raw, item;
    MPI_Type_create_struct(2, lengths, displs, types, &raw);
    MPI_Type_create_resized(raw, 0, sizeof(struct item), &item);
    MPI_Type_commit(&item);
    MPI_File fh = open_file(dir, "struct");
    MPI_Offset per_call = (MPI_Offset)STRUCTS * 12;
    for (int c = 0; c < CALLS; c++)
        check(MPI_File_write_at_all(fh, ((MPI_Offset)c * 2 + rank) * per_call, items, STRUCTS, item,
                                    MPI_STATUS_IGNORE),
              "struct");
    MPI_Type_free(&item);
    MPI_Type_free(&raw);
    MPI_File_close(&fh);
}

static void large(const char *dir, int rank, int size) {
    MPI_File fh = open_file(dir, "large");
    MPI_Datatype pieces, filetype;
    MPI_Type_vector(LARGE, 1, size, MPI_BYTE, &pieces);
    MPI_Type_create_resized(pieces, 0, (MPI_Aint)LARGE * size, &filetype);
    MPI_Type_commit(&filetype);
    check(MPI_File_set_view(fh, rank, MPI_BYTE, filetype, "native", MPI_INFO_NULL), "large");
    char *data = malloc(LARGE);
    if (!data)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(data, 'a' + rank, LARGE);
    check(MPI_File_write_all(fh, data, LARGE, MPI_BYTE, MPI_STATUS_IGNORE), "large");
    free(data);
    MPI_Type_free(&filetype);
    MPI_Type_free(&pieces);
    MPI_File_close(&fh);
}

static void records(const char *dir, int rank, int count) {
    MPI_File fh = open_file(dir, "records");
    char header[16];
    memset(header, 'h', sizeof header);
    MPI_Offset region = 32 + (MPI_Offset)count * (RECORD + 4);
    for (int i = 0; i < 2; i++)
        check(
            MPI_File_write_at(fh, rank * region + i * 16, header, 16, MPI_BYTE, MPI_STATUS_IGNORE),
            "header");
    MPI_Datatype filetype;
    MPI_Type_contiguous(RECORD, MPI_BYTE, &filetype);
    MPI_Datatype holed;
    MPI_Type_create_resized(filetype, 0, RECORD + 4, &holed);
    MPI_Type_commit(&holed);
    check(MPI_File_set_view(fh, rank * region + 32, MPI_BYTE, holed, "native", MPI_INFO_NULL),
          "set_view records");
    char record[RECORD];
    for (int i = 0; i < count; i++) {
        memset(record, 'a' + i % 26, sizeof record);
        check(MPI_File_write(fh, record, RECORD, MPI_BYTE, MPI_STATUS_IGNORE), "record");
    }
    MPI_Type_free(&holed);
    MPI_Type_free(&filetype);
    MPI_File_close(&fh);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int count = argc > 2 ? atoi(argv[2]) : 2000;
    if (argc < 2 || argc > 3 || count < 1 || GRID % size != 0) {
        if (rank == 0)
            fprintf(stderr, "usage: shapes DIR [RECORDS >= 1]; ranks must divide %d\n", GRID);
        MPI_Finalize();
        return 2;
    }
    int *data = calloc(4 * (size_t)VECTOR_INTS, sizeof *data);
    for (int i = 0; data && i < 4 * VECTOR_INTS; i++)
        data[i] = rank * 4 * VECTOR_INTS + i;
    if (!data)
        MPI_Abort(MPI_COMM_WORLD, 1);
    vector_view(argv[1], rank, size, data);
    memory_pairs(argv[1], rank, data);
    subarray(argv[1], rank, size, data);
    darray(argv[1], rank, size, data);
    structs(argv[1], rank);
    large(argv[1], rank, size);
    records(argv[1], rank, count);
    free(data);
    MPI_Finalize();
    return 0;
}
