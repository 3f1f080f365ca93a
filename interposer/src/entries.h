/*
 * entries.h: every MPI routine the interposer wraps, listed once for its two libraries:
 *
 *   libiotuner.so       the preload stub (interposer/stub/stub.c): what LD_PRELOAD names.
 *                       It exports each routine under its MPI_ and PMPI_ name as a
 *                       trampoline, has no link to MPI, and loads the core only in a
 *                       process that calls one of these routines with a mode set.
 *   libiotuner-core.so  the interposer proper (this folder), linked to MPI, opened by the
 *                       stub with dlopen (RTLD_LOCAL).
 *
 * RATIONALE: a library opened with dlopen does not come first in the global symbol scope,
 * so the program's calls reach the core only through the stub's trampolines; and a library
 * linked to MPI makes every process that preloads it load MPI and its fabrics, mpiexec too
 * (0.05 to 0.15 s per job in mode off, issue 24). Both libraries are compiled against the
 * same mpi.h, so the compiler checks each list entry against MPI's own prototype there.
 *
 * Needs <mpi.h> first.
 */
#ifndef IOT_ENTRIES_H
#define IOT_ENTRIES_H

#include <stddef.h>

/*
 * The data-access routines: D(E, name, op, params, args, offset) for each, with op its
 * IOT_OP_ id (iot.h; a stub ignores it), offset the explicit offset argument or -1 for
 * file-pointer routines, and E passed through (IOT_ENTRIES below turns D into E).
 */
#define IOT_AT_ENTRY(D, E, name, op, buf_t, count_t, last_t, last)                                 \
    D(E, name, op,                                                                                 \
      (MPI_File fh, MPI_Offset offset, buf_t buf, count_t count, MPI_Datatype datatype,            \
       last_t last),                                                                               \
      (fh, offset, buf, count, datatype, last), offset)
#define IOT_AT_BEGIN_ENTRY(D, E, name, op, buf_t, count_t)                                         \
    D(E, name, op,                                                                                 \
      (MPI_File fh, MPI_Offset offset, buf_t buf, count_t count, MPI_Datatype datatype),           \
      (fh, offset, buf, count, datatype), offset)
#define IOT_FP_ENTRY(D, E, name, op, buf_t, count_t, last_t, last)                                 \
    D(E, name, op, (MPI_File fh, buf_t buf, count_t count, MPI_Datatype datatype, last_t last),    \
      (fh, buf, count, datatype, last), -1)
#define IOT_FP_BEGIN_ENTRY(D, E, name, op, buf_t, count_t)                                         \
    D(E, name, op, (MPI_File fh, buf_t buf, count_t count, MPI_Datatype datatype),                 \
      (fh, buf, count, datatype), -1)

/* Buffer, status and request types, for short lines below. */
#define IOT_RB void *
#define IOT_WB const void *
#define IOT_ST MPI_Status *
#define IOT_RQ MPI_Request *

#define IOT_DATA_ENTRIES_OF(D, E, SUFFIX, count_t)                                                 \
    IOT_AT_ENTRY(D, E, File_read_at##SUFFIX, IOT_OP_READ_AT, IOT_RB, count_t, IOT_ST, status)      \
    IOT_AT_ENTRY(D, E, File_write_at##SUFFIX, IOT_OP_WRITE_AT, IOT_WB, count_t, IOT_ST, status)    \
    IOT_AT_ENTRY(D, E, File_read_at_all##SUFFIX, IOT_OP_READ_AT_ALL, IOT_RB, count_t, IOT_ST,      \
                 status)                                                                           \
    IOT_AT_ENTRY(D, E, File_write_at_all##SUFFIX, IOT_OP_WRITE_AT_ALL, IOT_WB, count_t, IOT_ST,    \
                 status)                                                                           \
    IOT_AT_ENTRY(D, E, File_iread_at##SUFFIX, IOT_OP_IREAD_AT, IOT_RB, count_t, IOT_RQ, request)   \
    IOT_AT_ENTRY(D, E, File_iwrite_at##SUFFIX, IOT_OP_IWRITE_AT, IOT_WB, count_t, IOT_RQ, request) \
    IOT_AT_ENTRY(D, E, File_iread_at_all##SUFFIX, IOT_OP_IREAD_AT_ALL, IOT_RB, count_t, IOT_RQ,    \
                 request)                                                                          \
    IOT_AT_ENTRY(D, E, File_iwrite_at_all##SUFFIX, IOT_OP_IWRITE_AT_ALL, IOT_WB, count_t, IOT_RQ,  \
                 request)                                                                          \
    IOT_AT_BEGIN_ENTRY(D, E, File_read_at_all_begin##SUFFIX, IOT_OP_READ_AT_ALL_SPLIT, IOT_RB,     \
                       count_t)                                                                    \
    IOT_AT_BEGIN_ENTRY(D, E, File_write_at_all_begin##SUFFIX, IOT_OP_WRITE_AT_ALL_SPLIT, IOT_WB,   \
                       count_t)                                                                    \
    IOT_FP_ENTRY(D, E, File_read##SUFFIX, IOT_OP_READ, IOT_RB, count_t, IOT_ST, status)            \
    IOT_FP_ENTRY(D, E, File_write##SUFFIX, IOT_OP_WRITE, IOT_WB, count_t, IOT_ST, status)          \
    IOT_FP_ENTRY(D, E, File_read_all##SUFFIX, IOT_OP_READ_ALL, IOT_RB, count_t, IOT_ST, status)    \
    IOT_FP_ENTRY(D, E, File_write_all##SUFFIX, IOT_OP_WRITE_ALL, IOT_WB, count_t, IOT_ST, status)  \
    IOT_FP_ENTRY(D, E, File_iread##SUFFIX, IOT_OP_IREAD, IOT_RB, count_t, IOT_RQ, request)         \
    IOT_FP_ENTRY(D, E, File_iwrite##SUFFIX, IOT_OP_IWRITE, IOT_WB, count_t, IOT_RQ, request)       \
    IOT_FP_ENTRY(D, E, File_iread_all##SUFFIX, IOT_OP_IREAD_ALL, IOT_RB, count_t, IOT_RQ, request) \
    IOT_FP_ENTRY(D, E, File_iwrite_all##SUFFIX, IOT_OP_IWRITE_ALL, IOT_WB, count_t, IOT_RQ,        \
                 request)                                                                          \
    IOT_FP_BEGIN_ENTRY(D, E, File_read_all_begin##SUFFIX, IOT_OP_READ_ALL_SPLIT, IOT_RB, count_t)  \
    IOT_FP_BEGIN_ENTRY(D, E, File_write_all_begin##SUFFIX, IOT_OP_WRITE_ALL_SPLIT, IOT_WB,         \
                       count_t)                                                                    \
    IOT_FP_ENTRY(D, E, File_read_shared##SUFFIX, IOT_OP_READ_SHARED, IOT_RB, count_t, IOT_ST,      \
                 status)                                                                           \
    IOT_FP_ENTRY(D, E, File_write_shared##SUFFIX, IOT_OP_WRITE_SHARED, IOT_WB, count_t, IOT_ST,    \
                 status)                                                                           \
    IOT_FP_ENTRY(D, E, File_iread_shared##SUFFIX, IOT_OP_IREAD_SHARED, IOT_RB, count_t, IOT_RQ,    \
                 request)                                                                          \
    IOT_FP_ENTRY(D, E, File_iwrite_shared##SUFFIX, IOT_OP_IWRITE_SHARED, IOT_WB, count_t, IOT_RQ,  \
                 request)                                                                          \
    IOT_FP_ENTRY(D, E, File_read_ordered##SUFFIX, IOT_OP_READ_ORDERED, IOT_RB, count_t, IOT_ST,    \
                 status)                                                                           \
    IOT_FP_ENTRY(D, E, File_write_ordered##SUFFIX, IOT_OP_WRITE_ORDERED, IOT_WB, count_t, IOT_ST,  \
                 status)                                                                           \
    IOT_FP_BEGIN_ENTRY(D, E, File_read_ordered_begin##SUFFIX, IOT_OP_READ_ORDERED_SPLIT, IOT_RB,   \
                       count_t)                                                                    \
    IOT_FP_BEGIN_ENTRY(D, E, File_write_ordered_begin##SUFFIX, IOT_OP_WRITE_ORDERED_SPLIT, IOT_WB, \
                       count_t)

/* The routines with an int count, then (MPI 4) their large-count twins. */
#if MPI_VERSION >= 4
#define IOT_DATA_ENTRIES(D, E)                                                                     \
    IOT_DATA_ENTRIES_OF(D, E, , int) IOT_DATA_ENTRIES_OF(D, E, _c, MPI_Count)
#else
#define IOT_DATA_ENTRIES(D, E) IOT_DATA_ENTRIES_OF(D, E, , int)
#endif

/* The ends of split collectives: E(name, params, args). */
#define IOT_END_ENTRIES(E)                                                                         \
    E(File_read_at_all_end, (MPI_File fh, IOT_RB buf, IOT_ST status), (fh, buf, status))           \
    E(File_write_at_all_end, (MPI_File fh, IOT_WB buf, IOT_ST status), (fh, buf, status))          \
    E(File_read_all_end, (MPI_File fh, IOT_RB buf, IOT_ST status), (fh, buf, status))              \
    E(File_write_all_end, (MPI_File fh, IOT_WB buf, IOT_ST status), (fh, buf, status))             \
    E(File_read_ordered_end, (MPI_File fh, IOT_RB buf, IOT_ST status), (fh, buf, status))          \
    E(File_write_ordered_end, (MPI_File fh, IOT_WB buf, IOT_ST status), (fh, buf, status))

/* The other routines: E(name, params, args). */
#define IOT_OTHER_ENTRIES(E)                                                                       \
    E(Init, (int *argc, char ***argv), (argc, argv))                                               \
    E(Init_thread, (int *argc, char ***argv, int required, int *provided),                         \
      (argc, argv, required, provided))                                                            \
    E(Finalize, (void), ())                                                                        \
    E(File_open, (MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh),    \
      (comm, filename, amode, info, fh))                                                           \
    E(File_close, (MPI_File * fh), (fh))                                                           \
    E(File_delete, (const char *filename, MPI_Info info), (filename, info))                        \
    E(File_set_view,                                                                               \
      (MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,                    \
       const char *datarep, MPI_Info info),                                                        \
      (fh, disp, etype, filetype, datarep, info))                                                  \
    E(File_set_info, (MPI_File fh, MPI_Info info), (fh, info))                                     \
    E(File_set_size, (MPI_File fh, MPI_Offset size), (fh, size))                                   \
    E(File_preallocate, (MPI_File fh, MPI_Offset size), (fh, size))                                \
    E(File_sync, (MPI_File fh), (fh))                                                              \
    E(Type_free, (MPI_Datatype * datatype), (datatype))

/* A data routine as E(name, params, args). */
#define IOT_DATA_AS_ENTRY(E, name, op, params, args, offset) E(name, params, args)

/* Every wrapped routine: E(name, params, args); each returns int. */
#define IOT_ENTRIES(E)                                                                             \
    IOT_OTHER_ENTRIES(E)                                                                           \
    IOT_DATA_ENTRIES(IOT_DATA_AS_ENTRY, E)                                                         \
    IOT_END_ENTRIES(E)

/* One function pointer per wrapped routine: the real routines (the core's iot__real), or
 * what each of the stub's trampolines calls. */
struct iot_entries {
#define IOT_ENTRY_FIELD(name, params, args) int(*name) params;
    IOT_ENTRIES(IOT_ENTRY_FIELD)
#undef IOT_ENTRY_FIELD
};

/*
 * The one routine of the core the stub looks up (dlsym), besides the MPI names:
 *   int iotuner_core_attach(int version, size_t size, const struct iot_entries *real,
 *                           struct iot_entries *wrappers);
 * The core takes the real routines from *real (those that are not NULL; the stub found
 * them with dlsym(RTLD_NEXT), so a tool preloaded after the stub, like Darshan, stays
 * between iotuner and MPI) and fills *wrappers with its own. It returns 0, or -1 when
 * version or size differ from its own (a stub and a core from different builds), and
 * then fills nothing. Call it once, before any wrapper runs. Calls no MPI routine.
 */
#define IOT_CORE_ATTACH "iotuner_core_attach"
#define IOT_CORE_VERSION 1
typedef int (*iot_core_attach_fn)(int version, size_t size, const struct iot_entries *real,
                                  struct iot_entries *wrappers);
/* The core's file name, beside the stub's. */
#define IOT_CORE_NAME "libiotuner-core.so"

#endif
