/*
 * fuzz_kai_decode.c -- libFuzzer target for the KAI-Scheduler object decoder
 * and its checks (model/kai_decode.c): any byte string must decode or fail
 * with a message, never crash or leak. Checked inputs then go through KAI's
 * semantics (sim/queue/kai*.c): the fair-share division and one cycle.
 */
#include <stddef.h>
#include <stdint.h>

#include "model/kai.h"
#include "queue/kai_snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    kai_objects o;
    strbuf err = {0};
    kai_objects_init(&o);
    if (kai_decode_mem(&o, "fuzz.yaml", (const char *)data, size, true, &err) == 0 &&
        kai_objects_check(&o, &err) == 0) {
        kai_snapshot sn;
        kai_snapshot_build(&sn, &o);
        if (sn.s.nq <= 64 && sn.njobs <= 64) kai_cycle(&sn.s);
        for (size_t i = 0; i < sn.njobs; i++) {
            strbuf why = {0};
            kai_why(&sn.s, sn.jobs[i], &why);
            sb_free(&why);
        }
        kai_snapshot_free(&sn);
    } else if (err.len == 0) {
        __builtin_trap();   /* every failure must explain itself */
    }
    sb_free(&err);
    kai_objects_free(&o);
    return 0;
}
