/* fuzz_zip_entry.c -- the ZIP reader of KAI snapshot archives
 * (util/zip_entry.h, cluster.state: snapshot.zip): any bytes as an archive
 * must give the entry snapshot.json or be refused with a message, never read
 * outside the buffer, crash or leak. An entry that comes out is decoded as a
 * snapshot (model/k8s_decode.h, KAI's objects by model/cluster_state_kai.c). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster_state.h"
#include "model/kai.h"
#include "util/zip_entry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    strbuf out = {0}, err = {0};
    (void)zip_looks_like_zip(data, size);
    if (zip_read_entry("fuzz.zip", data, size, KAI_SNAPSHOT_ENTRY, 1u << 22, &out, &err)) {
        if (err.len == 0) abort();   /* a refusal must say why */
        if (out.len != 0) abort();   /* and hand out nothing */
    } else {
        cluster_state st;
        memset(&st, 0, sizeof st);
        k8s_objects_init(&st.objs);
        sb_clear(&err);
        if (k8s_decode_mem(&st.objs, "fuzz.zip:snapshot.json", out.s ? out.s : "", out.len, &err) == 0 &&
            cluster_state_read_kai(&st, &err) == 0)
            cluster_state_apply_groups(&st);
        else if (err.len == 0)
            abort();
        k8s_objects_free(&st.objs);
        if (st.kai) kai_objects_free(st.kai);
        free(st.kai);
    }
    sb_free(&out);
    sb_free(&err);
    return 0;
}
