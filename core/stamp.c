/* stamp.c: comparing two build stamps (stamp.h). */
#include "stamp.h"

#include <stdio.h>
#include <string.h>

int qr_stamp_same(const qr_stamp *mine, const qr_stamp *theirs, char *why, size_t size)
{
    if (!theirs || theirs->magic != QR_STAMP_MAGIC) {
        snprintf(why, size, "it carries no build stamp");
        return 0;
    }
    if (memchr(theirs->version, '\0', sizeof theirs->version) == NULL ||
        strcmp(mine->version, theirs->version) != 0) {
        snprintf(why, size, "it is version %.15s, this quire %s",
                 memchr(theirs->version, '\0', sizeof theirs->version) ? theirs->version : "?",
                 mine->version);
        return 0;
    }
    for (size_t i = 0; i < QR_STAMP_MAX_SIZES; i++)
        if (mine->sizes[i] != theirs->sizes[i]) {
            snprintf(why, size, "its data layout differs (struct %zu: %llu bytes, here %llu)", i,
                     (unsigned long long)theirs->sizes[i], (unsigned long long)mine->sizes[i]);
            return 0;
        }
    return 1;
}
