// shared_rw: C++ (mpicxx) writes and reads one shared file collectively.
//
// Usage: mpiexec -n N shared_rw FILE
//
// Checks that a C++ program's MPI-IO goes through the interposer like a C one: each rank
// writes its block of 64-bit words with MPI_File_write_at_all, reads the file back with
// MPI_File_read_at_all and compares (exit 1 on a difference); rank 0 then prints the
// hints MPI reports for the open file (MPI_File_get_info) as `info KEY=VALUE` lines,
// so a test can see which hints MPI applied, and `checked N words`.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

constexpr int kWords = 32768; // 256 KiB per rank

std::uint64_t word(int rank, int i) {
    return (static_cast<std::uint64_t>(rank) << 32) ^ (0x9e3779b97f4a7c15ULL * (i + 1));
}

void print_info(MPI_File fh) {
    MPI_Info info;
    if (MPI_File_get_info(fh, &info) != MPI_SUCCESS)
        return;
    int nkeys = 0;
    MPI_Info_get_nkeys(info, &nkeys);
    for (int i = 0; i < nkeys; i++) {
        char key[MPI_MAX_INFO_KEY + 1];
        char value[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        MPI_Info_get_nthkey(info, i, key);
        MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
        if (flag)
            std::printf("info %s=%s\n", key, value);
    }
    MPI_Info_free(&info);
}

} // namespace

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2) {
        if (rank == 0)
            std::fprintf(stderr, "usage: shared_rw FILE\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    std::vector<std::uint64_t> out(kWords), in(kWords, 0);
    for (int i = 0; i < kWords; i++)
        out[i] = word(rank, i);
    const MPI_Offset offset = static_cast<MPI_Offset>(rank) * kWords * sizeof(std::uint64_t);

    MPI_File fh;
    int rc =
        MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    if (rc != MPI_SUCCESS) {
        std::fprintf(stderr, "rank %d: MPI_File_open failed (%d)\n", rank, rc);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int errors = 0;
    errors += MPI_File_write_at_all(fh, offset, out.data(), kWords, MPI_UINT64_T,
                                    MPI_STATUS_IGNORE) != MPI_SUCCESS;
    errors += MPI_File_sync(fh) != MPI_SUCCESS;
    errors += MPI_File_read_at_all(fh, offset, in.data(), kWords, MPI_UINT64_T,
                                   MPI_STATUS_IGNORE) != MPI_SUCCESS;
    for (int i = 0; i < kWords; i++)
        errors += in[i] != out[i];
    if (rank == 0)
        print_info(fh);
    MPI_File_close(&fh);

    int total = 0;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        if (total == 0)
            std::printf("checked %d words\n", kWords * size);
        else
            std::printf("%d errors\n", total);
        std::fflush(stdout);
    }
    MPI_Finalize();
    return total == 0 ? 0 : 1;
}
