/*
 * rw_hdf5: parallel HDF5 writes and reads a 2-D dataset collectively.
 *
 * Usage: mpiexec -n N rw_hdf5 FILE           write, read back and compare
 *        mpiexec -n N rw_hdf5 --dump FILE    read the dataset and print its digest
 *
 * Checks that a program's MPI-IO made through a library (HDF5's MPI-IO driver,
 * H5Pset_fapl_mpio, with H5Pset_dxpl_mpio(H5FD_MPIO_COLLECTIVE) so the data moves with
 * the collective MPI_File_*_all calls) goes through the interposer. Each rank owns a band
 * of rows of the dataset "data" (ROWS_PER_RANK x COLS doubles per rank). Rank 0 prints
 * the hints MPI reports for the file HDF5 opened (H5Fget_vfd_handle, MPI_File_get_info)
 * as `info KEY=VALUE` lines, then `checked N values`, or with --dump
 * `dataset ROWSxCOLS fnv1a=HEX` (the digest of the dataset's values in row order, so two
 * files whose headers differ, e.g. in timestamps, compare by their data).
 */
#include <hdf5.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS_PER_RANK 64
#define COLS 256

static double value(hsize_t row, hsize_t col) {
    return (double)row * 1000.0 + (double)col * 0.5;
}

static void print_info(hid_t file) {
    MPI_File *fh = NULL;
    MPI_Info info;
    int nkeys = 0;
    if (H5Fget_vfd_handle(file, H5P_DEFAULT, (void **)&fh) < 0 || fh == NULL ||
        MPI_File_get_info(*fh, &info) != MPI_SUCCESS)
        return;
    MPI_Info_get_nkeys(info, &nkeys);
    for (int i = 0; i < nkeys; i++) {
        char key[MPI_MAX_INFO_KEY + 1];
        char val[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        MPI_Info_get_nthkey(info, i, key);
        MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag);
        if (flag)
            printf("info %s=%s\n", key, val);
    }
    MPI_Info_free(&info);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int dump = argc == 3 && strcmp(argv[1], "--dump") == 0;
    if (argc != 2 + dump) {
        if (rank == 0)
            fprintf(stderr, "usage: rw_hdf5 [--dump] FILE\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *path = argv[1 + dump];
    hsize_t dims[2] = {(hsize_t)size * ROWS_PER_RANK, COLS};
    hsize_t start[2] = {(hsize_t)rank * ROWS_PER_RANK, 0};
    hsize_t count[2] = {ROWS_PER_RANK, COLS};
    double *out = malloc(sizeof(double) * ROWS_PER_RANK * COLS);
    double *in = calloc(ROWS_PER_RANK * COLS, sizeof(double));
    if (out == NULL || in == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (hsize_t r = 0; r < ROWS_PER_RANK; r++)
        for (hsize_t c = 0; c < COLS; c++)
            out[r * COLS + c] = value(start[0] + r, c);

    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
    hid_t file, dset;
    if (dump) {
        file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
        dset = H5Dopen2(file, "data", H5P_DEFAULT);
    } else {
        file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
        hid_t fspace = H5Screate_simple(2, dims, NULL);
        dset = H5Dcreate2(file, "data", H5T_NATIVE_DOUBLE, fspace, H5P_DEFAULT, H5P_DEFAULT,
                          H5P_DEFAULT);
        H5Sclose(fspace);
    }
    if (file < 0 || dset < 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    hid_t fspace = H5Dget_space(dset);
    H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL);
    hid_t mspace = H5Screate_simple(2, count, NULL);
    int errors = 0;
    if (!dump)
        errors += H5Dwrite(dset, H5T_NATIVE_DOUBLE, mspace, fspace, dxpl, out) < 0;
    errors += H5Dread(dset, H5T_NATIVE_DOUBLE, mspace, fspace, dxpl, in) < 0;
    if (!dump)
        for (int i = 0; i < ROWS_PER_RANK * COLS; i++)
            errors += in[i] != out[i];
    if (rank == 0 && !dump)
        print_info(file);

    /* The digest of the whole dataset: rank 0 gathers the bands in rank order. */
    double *all = rank == 0 ? malloc(sizeof(double) * ROWS_PER_RANK * COLS * size) : NULL;
    MPI_Gather(in, ROWS_PER_RANK * COLS, MPI_DOUBLE, all, ROWS_PER_RANK * COLS, MPI_DOUBLE, 0,
               MPI_COMM_WORLD);
    H5Sclose(mspace);
    H5Sclose(fspace);
    H5Dclose(dset);
    H5Pclose(dxpl);
    H5Pclose(fapl);
    errors += H5Fclose(file) < 0;

    int total = 0;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        if (dump) {
            uint64_t hash = 14695981039346656037ULL;
            const unsigned char *bytes = (const unsigned char *)all;
            for (size_t i = 0; i < sizeof(double) * ROWS_PER_RANK * COLS * (size_t)size; i++)
                hash = (hash ^ bytes[i]) * 1099511628211ULL;
            printf("dataset %llux%d fnv1a=%016llx\n", (unsigned long long)dims[0], COLS,
                   (unsigned long long)hash);
        }
        if (total == 0)
            printf("checked %d values\n", ROWS_PER_RANK * COLS * size);
        else
            printf("%d errors\n", total);
        fflush(stdout);
    }
    free(all);
    free(in);
    free(out);
    MPI_Finalize();
    return total == 0 ? 0 : 1;
}
