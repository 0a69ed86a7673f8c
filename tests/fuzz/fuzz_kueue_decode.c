/*
 * fuzz_kueue_decode.c -- libFuzzer target for the Kueue object decoder and
 * its cross-object checks (model/kueue_*.c): any byte string must decode or
 * fail with a message, never crash or leak. Checked inputs then go through
 * the admission semantics (sim/queue/): every pending Workload is tried and
 * the shares computed, and Kueue TAS run on the Nodes given.
 */
#include <stddef.h>
#include <stdint.h>

#include "model/kueue.h"
#include "queue/kq_objects.h"
#include "queue/kq_tas_admit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    kq_objects o;
    strbuf err = {0};
    kq_objects_init(&o);
    if (kq_decode_mem(&o, "fuzz.yaml", (const char *)data, size, true, &err) == 0 &&
        kq_objects_check(&o, true, &err) == 0) {
        kq_loaded l;
        kq_load_admitted(&l, &o);
        for (size_t i = 0; i < l.s.nnodes; i++) (void)kq_dominant_share(&l.s, l.s.nodes[i], NULL, 0);
        for (size_t i = 0; i < o.workloads.len && i < 8; i++) {
            if (o.workloads.data[i]->admitted_cq) continue;
            kq_pending p;
            strbuf why = {0};
            if (kq_pending_from(&l, &o, o.workloads.data[i], &p, &why) == 0) {
                kq_result r;
                kq_try_admit(&l.s, &p, &r);
                kq_tas_assignment ta[8];
                if (p.npod_sets <= 8) {   /* topology-aware scheduling (kq_tas*.c) */
                    kq_tas_admit(&l.s, &p, &r, ta);
                    for (size_t k = 0; k < p.npod_sets; k++) kq_tas_assignment_free(&ta[k]);
                }
                kq_result_free(&r);
            }
            kq_pending_free(&p);
            sb_free(&why);
        }
        kq_loaded_free(&l);
    } else if (err.len == 0) {
        __builtin_trap();   /* every failure must explain itself */
    }
    sb_free(&err);
    kq_objects_free(&o);
    return 0;
}
