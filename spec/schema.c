/* schema.c: the JSON Schema (draft 2020-12) of a kind's spec, or of the
 * edit payload, built from the schema table (schema_table.c): one
 * definition per object in $defs, additionalProperties false as the
 * compiler enforces, descriptions kept short for tool definitions and
 * quire's extensions marked "x-quire-extension": true. Only the $defs the
 * kind reaches are included. Output: compact JSON and a newline. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "compile_int.h"
#include "schema.h"

#define DEFS_MAX 64

typedef struct gen {
    json_t *defs;
    const char *want[DEFS_MAX]; /* $defs names referenced, in the order met */
    size_t n_want;
    int oom;
} gen;

static json_t *parse(gen *g, const char *text)
{
    json_t *v = json_loads(text, 0, NULL);
    if (!v) g->oom = 1; /* the table is ours: a parse failure is a bug, caught by the tests */
    return v;
}

/* Note every "$ref": "#/$defs/NAME" inside v. */
static void note_refs(gen *g, json_t *v)
{
    if (json_is_object(v)) {
        const char *k;
        json_t *e;
        json_object_foreach(v, k, e)
        {
            if (strcmp(k, "$ref") == 0 && json_is_string(e) &&
                strncmp(json_string_value(e), "#/$defs/", 8) == 0) {
                const char *name = json_string_value(e) + 8;
                size_t i = 0;
                while (i < g->n_want && strcmp(g->want[i], name) != 0)
                    i++;
                if (i == g->n_want && g->n_want < DEFS_MAX) g->want[g->n_want++] = name;
            } else {
                note_refs(g, e);
            }
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) note_refs(g, e);
    }
}

/* {"enum": values} of a key with allowed values (schema.h). */
static json_t *enum_schema(gen *g, const char *const *values)
{
    json_t *a = json_array(), *s = json_object();
    for (size_t i = 0; a && values[i]; i++)
        json_array_append_new(a, json_string(values[i]));
    if (!a || !s) {
        g->oom = 1;
        json_decref(a), json_decref(s);
        return NULL;
    }
    json_object_set_new(s, "enum", a);
    return s;
}

/* The schema of object id; block: its "type" is {"const": block}. */
static json_t *object_schema(gen *g, qr_sobj_id id, const char *block)
{
    const qr_sobj *o = &qr_schema_objs[id];
    json_t *s = json_object(), *props = json_object(), *req = json_array();
    if (!s || !props || !req) {
        g->oom = 1;
        json_decref(s), json_decref(props), json_decref(req);
        return NULL;
    }
    json_object_set_new(s, "type", json_string("object"));
    if (o->desc) json_object_set_new(s, "description", json_string(o->desc));
    for (size_t i = 0; i < o->n_keys; i++) {
        const qr_skey *k = &o->keys[i];
        json_t *p = k->values   ? enum_schema(g, k->values)
                    : k->schema ? parse(g, k->schema)
                                : json_pack("{ss}", "const", block);
        if (!p) continue;
        if (k->desc) json_object_set_new(p, "description", json_string(k->desc));
        if (k->flags & QR_SK_EXT) json_object_set_new(p, "x-quire-extension", json_true());
        note_refs(g, p);
        json_object_set_new(props, k->name, p);
        if (k->flags & QR_SK_REQUIRED) json_array_append_new(req, json_string(k->name));
    }
    json_object_set_new(s, "properties", props);
    if (json_array_size(req))
        json_object_set_new(s, "required", req);
    else
        json_decref(req);
    json_object_set_new(s, "additionalProperties", json_false());
    if (o->extra) {
        json_t *x = parse(g, o->extra);
        if (x) {
            json_object_update(s, x);
            json_decref(x);
        }
    }
    return s;
}

/* The $defs entry called name. */
static json_t *def_schema(gen *g, const char *name)
{
    if (strcmp(name, "block") == 0) {
        json_t *one = json_array();
        for (size_t i = 0; i < qr_schema_n_blocks; i++) {
            char ref[80];
            snprintf(ref, sizeof ref, "#/$defs/%s", qr_schema_objs[qr_schema_blocks[i].obj].name);
            json_array_append_new(one, json_pack("{ss}", "$ref", ref));
        }
        json_t *s = json_pack("{so}", "oneOf", one);
        note_refs(g, s);
        return s;
    }
    for (size_t i = 0; qr_schema_defs[i][0]; i++) {
        if (strcmp(qr_schema_defs[i][0], name) == 0) {
            json_t *s = parse(g, qr_schema_defs[i][1]);
            if (s) note_refs(g, s);
            return s;
        }
    }
    for (int id = 0; id < QR_SO_COUNT; id++) {
        if (strcmp(qr_schema_objs[id].name, name) != 0) continue;
        const char *block = NULL;
        for (size_t b = 0; b < qr_schema_n_blocks; b++)
            if (qr_schema_blocks[b].obj == (qr_sobj_id)id) block = qr_schema_blocks[b].name;
        return object_schema(g, (qr_sobj_id)id, block);
    }
    g->oom = 1; /* a reference to nothing: a bug in the table */
    return NULL;
}

/* The edit payload's spec_append typed by kind: {key: [items]} for each
 * top-level list of the kind's spec (blocks, sections; sheets; slides...),
 * each item the schema of that list's items, any other key refused. */
static void typed_append(gen *g, json_t *body, qr_kind kind)
{
    json_t *props = json_object_get(body, "properties");
    json_t *append = props ? json_object_get(props, "spec_append") : NULL;
    gen scratch = {0}; /* the refs noted point into top, freed below */
    json_t *top = object_schema(&scratch, qr_schema_top(kind), NULL);
    json_t *lists = json_object();
    if (!append || !top || !lists || scratch.oom) {
        g->oom = 1;
        json_decref(top), json_decref(lists);
        return;
    }
    const char *k;
    json_t *p;
    json_object_foreach(json_object_get(top, "properties"), k, p)
    {
        json_t *items = json_object_get(p, "items");
        if (!items) continue; /* not a list: nothing to append to */
        json_t *a = json_pack("{sssO}", "type", "array", "items", items);
        if (!a) {
            g->oom = 1;
            break;
        }
        note_refs(g, a);
        json_object_set_new(lists, k, a);
    }
    json_decref(top);
    json_object_del(append, "additionalProperties");
    json_object_set_new(append, "properties", lists);
    json_object_set_new(append, "additionalProperties", json_false());
}

static int dump_cb(const char *buffer, size_t size, void *data)
{
    qr_buf_append(data, buffer, size);
    return 0;
}

qr_status qr_schema_json(qr_schema_what what, qr_kind kind, qr_buf *out, qr_errlist *errs)
{
    if (!out || !errs || (unsigned)kind >= QR_KIND_COUNT) {
        if (errs) qr_errlist_add(errs, QR_E_USAGE, "", "qr_schema: bad arguments", NULL);
        return qr_fail(QR_E_USAGE);
    }
    gen g = {0};
    qr_sobj_id top = what == QR_SCHEMA_EDIT ? QR_SO_EDIT : qr_schema_top(kind);
    json_t *root = json_object();
    char id[64], title[96];
    if (what == QR_SCHEMA_EDIT) {
        snprintf(id, sizeof id, "urn:quire:schema:edit:%s", qr_kind_name(kind));
        snprintf(title, sizeof title, "quire %s edit", qr_kind_name(kind));
    } else {
        snprintf(id, sizeof id, "urn:quire:schema:%s", qr_kind_name(kind));
        snprintf(title, sizeof title, "quire %s spec", qr_kind_name(kind));
    }
    json_object_set_new(root, "$schema",
                        json_string("https://json-schema.org/draft/2020-12/schema"));
    json_object_set_new(root, "$id", json_string(id));
    json_object_set_new(root, "title", json_string(title));
    json_t *body = object_schema(&g, top, NULL);
    if (body && what == QR_SCHEMA_EDIT) typed_append(&g, body, kind);
    if (body) {
        json_object_update(root, body);
        json_decref(body);
    }
    if (what != QR_SCHEMA_EDIT)
        json_object_set_new(root, "description",
                            json_string("text is literal (no markdown); unknown keys are errors"));
    g.defs = json_object();
    for (size_t i = 0; i < g.n_want && !g.oom; i++) {
        json_t *d = def_schema(&g, g.want[i]);
        if (d) json_object_set_new(g.defs, g.want[i], d);
    }
    if (json_object_size(g.defs)) json_object_set(root, "$defs", g.defs);
    json_decref(g.defs);
    qr_buf b = {0};
    if (!g.oom) json_dump_callback(root, dump_cb, &b, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(root);
    qr_buf_putc(&b, '\n');
    if (g.oom || b.oom) {
        qr_buf_free(&b);
        qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
        return qr_fail(QR_E_NOMEM);
    }
    qr_buf_free(out);
    *out = b;
    return QR_OK;
}
