/*
 * fs.c: the file system a file being opened is on, named as the knowledge base names it
 * (iotuner.measurement.System.detect: the type of the mount in /proc/self/mounts whose
 * mount point is the longest prefix of the file's real path), so a table's header fs_type
 * and a file compare word for word.
 */
#include "iot.h"

#include <errno.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * ROMIO's file-system prefixes ("ufs:/scratch/a"): MPI opens the path after the colon.
 * RATIONALE: a known list, as ROMIO's own (ad_fstype.c), because a colon can also be
 * part of a plain file name ("run:1.dat"), which MPI opens as it is.
 */
static const char *const romio_prefixes[] = {
    "ufs",       "nfs", "lustre", "gpfs",       "pvfs2",  "xfs",  "panfs",   "daos",
    "quobytefs", "ime", "testfs", "bglockless", "bgl",    "bg",   "gridftp", "pfs",
    "piofs",     "hfs", "sfs",    "ntfs",       "zoidfs", "pvfs", "gfarm",
};

static const char *without_prefix(const char *filename) {
    const char *colon = strchr(filename, ':');
    if (!colon)
        return filename;
    size_t n = (size_t)(colon - filename);
    for (size_t i = 0; i < sizeof romio_prefixes / sizeof romio_prefixes[0]; i++)
        if (strlen(romio_prefixes[i]) == n && strncmp(filename, romio_prefixes[i], n) == 0)
            return colon + 1;
    return filename;
}

/* The real path of the file, or of its directory when the file does not exist yet (an
 * open that creates it); 0 or -1. */
static int real_path_of(const char *path, char *out) {
    if (realpath(path, out))
        return 0;
    if (errno != ENOENT)
        return -1;
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else if ((size_t)(slash - path) < sizeof dir)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    else
        return -1;
    return realpath(dir, out) ? 0 : -1;
}

/* Whether mount point dir holds the real path target. */
static int holds(const char *dir, const char *target) {
    size_t n = strlen(dir);
    if (n == 1 && dir[0] == '/')
        return 1;
    while (n > 1 && dir[n - 1] == '/')
        n--;
    return strncmp(dir, target, n) == 0 && (target[n] == '\0' || target[n] == '/');
}

int iot__fs_type_of(const char *filename, char *type, size_t len) {
    char target[PATH_MAX];
    if (!filename || real_path_of(without_prefix(filename), target) != 0)
        return -1;
    FILE *mounts = setmntent("/proc/self/mounts", "r");
    if (!mounts)
        return -1;
    struct mntent m;
    char buf[4 * PATH_MAX];
    size_t best = 0;
    int found = 0;
    /* The longest mount point wins; of equal ones the later (mounted over the earlier). */
    while (getmntent_r(mounts, &m, buf, sizeof buf)) {
        size_t n = strlen(m.mnt_dir);
        if (holds(m.mnt_dir, target) && n >= best) {
            best = n;
            found = snprintf(type, len, "%s", m.mnt_type) < (int)len;
        }
    }
    endmntent(mounts);
    return found ? 0 : -1;
}
