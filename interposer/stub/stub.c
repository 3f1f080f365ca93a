/*
 * stub.c: libiotuner.so, the library LD_PRELOAD names. It exports every routine the
 * interposer wraps (interposer/src/entries.h) under its MPI_ and PMPI_ names, each a
 * trampoline through one function pointer, and is linked to no MPI library: a process
 * that never calls these routines (mpiexec, its proxies, a shell, any program without MPI)
 * loads nothing more and pays only this library's mapping.
 *
 * At the first call of any wrapped routine (MPI_Init, almost always), once per process
 * (pthread_once), the stub finds the real routines and points the trampolines either at
 * them (IOTUNER_MODE unset, empty or "off": nothing else is loaded) or at the wrappers of
 * the core, libiotuner-core.so beside this file, which it opens with dlopen.
 *
 * RATIONALE, symbol lookup: the preloaded stub comes first in the global scope, so the
 * program's calls reach it whether the program links MPI or opens it later with
 * RTLD_LOCAL (Python with mpi4py). The core is opened RTLD_LOCAL, so it adds nothing to
 * the global scope; its own calls of MPI routines go through the global scope as before
 * (the stub's trampolines for the wrapped ones, where its depth counter passes them on).
 * The real routines are found from here with dlsym(RTLD_NEXT): a tool preloaded after the
 * stub (Darshan) stays between iotuner and MPI, as it did when this library was the core
 * (third_party/darshan/README.md). Where RTLD_NEXT finds none (MPI opened RTLD_LOCAL),
 * they come from the C MPI library the process has loaded.
 *
 * RATIONALE, no link to MPI: the alternatives break programs. The core linked without
 * -lmpi leaves undefined PMPI_ symbols, which fail to bind in mpiexec under LD_BIND_NOW;
 * weak PMPI_ references resolve to NULL where MPI is opened RTLD_LOCAL.
 *
 * Never harm: where the core cannot be loaded or refuses this stub, the process runs
 * untuned and untraced with one warning, every trampoline calling MPI's routine.
 */
#include <mpi.h>

#include "entries.h"
#include "mpi_library.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STUB_EXPORT __attribute__((visibility("default")))

/* ------------------------------------------------------------- slots */

static void stub_load(void);
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

/* What each trampoline calls: its first_ function until stub_load published the routine
 * to use. RATIONALE: a slot read with acquire order sees the core fully set up by the
 * thread that published it; on x86-64 that is a plain load. */
#define STUB_SLOT(name) __atomic_load_n(&slots.name, __ATOMIC_ACQUIRE)

#define STUB_DECLARE_FIRST(name, params, args) static int first_##name params;
IOT_ENTRIES(STUB_DECLARE_FIRST)
#undef STUB_DECLARE_FIRST

static struct iot_entries slots = {
#define STUB_FIRST_SLOT(name, params, args) .name = first_##name,
    IOT_ENTRIES(STUB_FIRST_SLOT)
#undef STUB_FIRST_SLOT
};

#define STUB_DEFINE_FIRST(name, params, args)                                                      \
    static int first_##name params {                                                               \
        pthread_once(&loaded, stub_load);                                                          \
        return STUB_SLOT(name) args;                                                               \
    }
IOT_ENTRIES(STUB_DEFINE_FIRST)
#undef STUB_DEFINE_FIRST

/* The trampolines: one indirect jump each once loaded (a sibling call). */
#define STUB_TRAMPOLINES(name, params, args)                                                       \
    STUB_EXPORT int MPI_##name params {                                                            \
        return STUB_SLOT(name) args;                                                               \
    }                                                                                              \
    STUB_EXPORT int PMPI_##name params {                                                           \
        return STUB_SLOT(name) args;                                                               \
    }
IOT_ENTRIES(STUB_TRAMPOLINES)
#undef STUB_TRAMPOLINES

/* ---------------------------------------------------------- warnings */

static void stub_warn(const char *fmt, const char *a, const char *b) {
    if (iot_launcher_rank() > 0)
        return;
    fputs("iotuner: warning: ", stderr);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
}

/* A routine the process's MPI does not have: an error for the caller, never an abort. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define STUB_MISSING(name, params, args)                                                           \
    static int missing_##name params {                                                             \
        static int warned;                                                                         \
        if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))                                    \
            stub_warn("%s%s was called, but no MPI library in this process has it; it returns "    \
                      "MPI_ERR_OTHER",                                                             \
                      "PMPI_", #name);                                                             \
        return MPI_ERR_OTHER;                                                                      \
    }
IOT_ENTRIES(STUB_MISSING)
#undef STUB_MISSING
#pragma GCC diagnostic pop

/* ------------------------------------------------------------ finding */

/* The core's path, fixed at load time: LD_PRELOAD may name the stub relative to a working
 * directory the program leaves before its first MPI call. */
static char core_path[PATH_MAX + sizeof IOT_CORE_NAME];

__attribute__((constructor)) static void stub_where(void) {
    Dl_info info;
    char absolute[PATH_MAX];
    if (!dladdr((void *)&stub_where, &info) || !info.dli_fname)
        return;
    const char *self = info.dli_fname;
    if (self[0] != '/' && realpath(self, absolute))
        self = absolute;
    const char *slash = strrchr(self, '/');
    int dir = slash ? (int)(slash - self + 1) : 0;
    snprintf(core_path, sizeof core_path, "%.*s%s", dir, self, IOT_CORE_NAME);
}

static int stub_note_mpi(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    const char **first = data;
    if (*first || !info->dlpi_name || !iot_is_mpi_library(info->dlpi_name))
        return 0;
    *first = info->dlpi_name;
    return 1;
}

/* The first C MPI library loaded (the program's: the core, which brings its own, is not
 * loaded yet when this runs), or NULL. */
static void *stub_mpi_library(void) {
    const char *name = NULL;
    dl_iterate_phdr(stub_note_mpi, &name);
    return name ? dlopen(name, RTLD_LAZY | RTLD_NOLOAD) : NULL;
}

/* The real routine name: the next definition after the stub, else the loaded MPI's. */
static void *stub_find(const char *name, void **mpi, int *looked) {
    void *found = dlsym(RTLD_NEXT, name);
    if (found)
        return found;
    if (!*looked) {
        *mpi = stub_mpi_library();
        *looked = 1;
    }
    return *mpi ? dlsym(*mpi, name) : NULL;
}

/* ------------------------------------------------------------ loading */

/* 1 when IOTUNER_MODE asks for tracing or tuning (or is a value only the core can judge:
 * the core then warns). */
static int stub_mode_set(void) {
    const char *mode = getenv("IOTUNER_MODE");
    return mode && *mode && strcmp(mode, "off") != 0;
}

/* Opens the core and attaches it; 0 with *use its wrappers, or -1 after one warning. */
static int stub_load_core(const struct iot_entries *real, struct iot_entries *use) {
    const char *path = core_path[0] ? core_path : IOT_CORE_NAME;
    /* RTLD_NOW: a core that cannot bind every symbol fails here, with a message, rather
     * than at some later call. */
    void *core = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!core) {
        const char *why = dlerror();
        stub_warn("cannot load the interposer (%s); running untuned and untraced", why ? why : path,
                  "");
        return -1;
    }
    iot_core_attach_fn attach = (iot_core_attach_fn)dlsym(core, IOT_CORE_ATTACH);
    struct iot_entries wrappers;
    memset(&wrappers, 0, sizeof wrappers);
    if (!attach || attach(IOT_CORE_VERSION, sizeof wrappers, real, &wrappers) != 0) {
        stub_warn("the interposer %s does not belong to this libiotuner.so (rebuild both: "
                  "./setup.sh%s); running untuned and untraced",
                  path, "");
        return -1;
    }
    *use = wrappers;
    return 0;
}

static void stub_load(void) {
    struct iot_entries real, use;
    void *mpi = NULL;
    int looked = 0;
#define STUB_FIND(name, params, args)                                                              \
    real.name = (__typeof__(real.name))stub_find("PMPI_" #name, &mpi, &looked);
    IOT_ENTRIES(STUB_FIND)
#undef STUB_FIND
    use = real;
    if (stub_mode_set() && stub_load_core(&real, &use) != 0)
        use = real;
#define STUB_PUBLISH(name, params, args)                                                           \
    __atomic_store_n(&slots.name, use.name ? use.name : missing_##name, __ATOMIC_RELEASE);
    IOT_ENTRIES(STUB_PUBLISH)
#undef STUB_PUBLISH
}
