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
#include <unistd.h>

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

/* The directory part of `path` ("." or "/" where it has none) into dir; 0 or -1. */
static int dir_of(const char *path, char *dir, size_t len) {
    const char *slash = strrchr(path, '/');
    if (!slash)
        return snprintf(dir, len, ".") < (int)len ? 0 : -1;
    if (slash == path)
        return snprintf(dir, len, "/") < (int)len ? 0 : -1;
    return snprintf(dir, len, "%.*s", (int)(slash - path), path) < (int)len ? 0 : -1;
}

/*
 * The real path an open of `path` reaches, as the kernel resolves it: the file's, or, for
 * a file the open creates, its directory's real path and its name; 0 or -1. A dangling
 * symlink is followed to where the open creates its target (issue 42: a dangling link on
 * ext4 to a file on tmpfs got the ext4 table's hints), up to the kernel's 40 links;
 * Python's os.path.realpath (System.detect) resolves it alike.
 */
static int real_path_of(const char *path, char *out) {
    char at[PATH_MAX], link[PATH_MAX], dir[PATH_MAX];
    if (snprintf(at, sizeof at, "%s", path) >= (int)sizeof at)
        return -1;
    for (int links = 0; links <= 40; links++) {
        if (realpath(at, out))
            return 0;
        if (errno != ENOENT || dir_of(at, dir, sizeof dir) != 0)
            return -1;
        ssize_t n = readlink(at, link, sizeof link - 1);
        if (n < 0) { /* not there and not a link: the file the open creates */
            char real_dir[PATH_MAX];
            if (!realpath(dir, real_dir))
                return -1;
            const char *name = strrchr(at, '/') ? strrchr(at, '/') + 1 : at;
            const char *sep = strcmp(real_dir, "/") == 0 ? "" : "/";
            return snprintf(out, PATH_MAX, "%s%s%s", real_dir, sep, name) < PATH_MAX ? 0 : -1;
        }
        link[n] = '\0';
        int fits = link[0] == '/' ? snprintf(at, sizeof at, "%s", link) < (int)sizeof at
                                  : snprintf(at, sizeof at, "%s/%s", dir, link) < (int)sizeof at;
        if (!fits)
            return -1;
    }
    return -1; /* ELOOP, as the open would find */
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
