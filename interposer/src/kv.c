/*
 * kv.c: small ordered lists of hint keys and values. Lists stay short (a table entry's
 * hints, a file's hints in force), so lookups are linear.
 */
#include "reader.h"

#include <stdlib.h>
#include <string.h>

int iot__kv_set(struct iot_kv *kv, const char *key, const char *val) {
    for (int i = 0; i < kv->n; i++) {
        if (strcmp(kv->keys[i], key) == 0) {
            char *copy = iot__strdup(val);
            if (!copy)
                return -1;
            free(kv->vals[i]);
            kv->vals[i] = copy;
            return 0;
        }
    }
    if (kv->n == kv->cap) {
        int cap = kv->cap ? kv->cap * 2 : 8;
        char **keys = iot__realloc(kv->keys, (size_t)cap * sizeof *keys);
        if (!keys)
            return -1;
        kv->keys = keys;
        char **vals = iot__realloc(kv->vals, (size_t)cap * sizeof *vals);
        if (!vals)
            return -1;
        kv->vals = vals;
        kv->cap = cap;
    }
    char *k = iot__strdup(key), *v = iot__strdup(val);
    if (!k || !v) {
        free(k);
        free(v);
        return -1;
    }
    kv->keys[kv->n] = k;
    kv->vals[kv->n] = v;
    kv->n++;
    return 0;
}

int iot__kv_set_all(struct iot_kv *kv, const struct iot_kv *from) {
    for (int i = 0; from && i < from->n; i++)
        if (iot__kv_set(kv, from->keys[i], from->vals[i]) != 0)
            return -1;
    return 0;
}

const char *iot__kv_get(const struct iot_kv *kv, const char *key) {
    for (int i = 0; i < kv->n; i++) {
        if (strcmp(kv->keys[i], key) == 0)
            return kv->vals[i];
    }
    return NULL;
}

void iot__kv_clear(struct iot_kv *kv) {
    for (int i = 0; i < kv->n; i++) {
        free(kv->keys[i]);
        free(kv->vals[i]);
    }
    free(kv->keys);
    free(kv->vals);
    kv->keys = kv->vals = NULL;
    kv->n = kv->cap = 0;
}
