/* cli_store.h: the store commands of `quire` (over quire/store.h).
 *
 *     quire create -k KIND [--title T] [--id ID] [--owner O] SPEC|-
 *     quire edit ID [--patch F] [--append F] [--ops F]
 *     quire rewrite ID SPEC|-
 *     quire show ID [--version N]          prints the canonical spec itself
 *     quire log ID
 *     quire diff ID A B [--unified]        JSON pointers added/removed/changed
 *                                          and a unified diff (--unified: as text)
 *     quire restore ID N
 *     quire export ID [--version N] -o OUT
 *     quire fsck [--repair]
 *
 * Every command takes --store DIR (default $QUIRE_STORE, else ./.quire) and
 * the owner quotas --max-artifacts N, --max-bytes N, --max-version-bytes N
 * (0 disables; defaults 5000, 5 GiB, 50 MiB; also $QUIRE_MAX_ARTIFACTS,
 * $QUIRE_MAX_BYTES, $QUIRE_MAX_VERSION_BYTES).
 *
 * Writes print one JSON line like DocsGPT's tool payload:
 *   {"status":"ok","artifact_id":"3f9c...","version":2,"filename":"Q3.docx",
 *    "mime_type":"...","size":18234,"kind":"document","unchanged":false,"warnings":[]}
 * errors: {"status":"error","error":"...","errors":[{"path","message","hint"}]}.
 * Exit 0 ok, 1 spec or edit error, 2 usage, 3 I/O, render or store, 4 quota.
 */
#ifndef QR_CLI_STORE_H
#define QR_CLI_STORE_H

/** argv[0] is the command name ("create", "edit", ...). Returns the exit code. */
int qr_cli_store(int argc, char **argv);

#endif
