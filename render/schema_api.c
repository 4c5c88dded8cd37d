/* schema_api.c: qr_schema(), the public face of the JSON Schema export
 * (spec/schema.c). */
#include <stdlib.h>
#include <string.h>

#include <quire/quire.h>
#include "schema.h"

qr_status qr_schema(qr_kind kind, int edit, qr_result *res)
{
    if (!res) return QR_E_USAGE;
    memset(res, 0, sizeof *res);
    qr_buf b = {0};
    qr_status st = qr_schema_json(edit ? QR_SCHEMA_EDIT : QR_SCHEMA_KIND, kind, &b, &res->errors);
    if (st == QR_OK) {
        res->data = (unsigned char *)b.data;
        res->size = b.len;
    }
    res->status = st;
    return st;
}
