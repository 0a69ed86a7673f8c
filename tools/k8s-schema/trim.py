#!/usr/bin/env python3
"""trim.py -- the Kubernetes OpenAPI v3 schemas k8s_validate reads, trimmed.

  tools/k8s-schema/trim.py VERSION SPEC.json... > tools/k8s-schema/k8s-VERSION.json

Reads kubernetes/kubernetes api/openapi-spec/v3/*_openapi.json files (see
README.md for where they come from), keeps the definitions reachable from the
kinds drasim writes (ROOTS), and of each definition only what validation
needs: types, formats, properties, items, additionalProperties, required,
enum, $ref, allOf/oneOf/anyOf and the x-kubernetes-* markers that change what
is valid. Descriptions, defaults and the merge/list hints go. The output is
JSON with one definition per line (stable diffs) that drasim's YAML reader
loads directly.
"""
import json
import sys

# apiVersion/kind of every object drasim writes or reads (inventory, allocate,
# sweep --emit-job); extend here and re-run to validate more kinds.
ROOTS = [
    ("batch/v1", "Job"),
    ("v1", "ConfigMap"),
    ("v1", "PersistentVolumeClaim"),
    ("v1", "Pod"),
    ("v1", "Node"),
    ("resource.k8s.io/v1", "ResourceSlice"),
    ("resource.k8s.io/v1", "DeviceClass"),
    ("resource.k8s.io/v1", "ResourceClaim"),
    ("resource.k8s.io/v1", "ResourceClaimTemplate"),
]

KEEP = {"type", "format", "properties", "items", "additionalProperties", "required", "enum",
        "$ref", "allOf", "oneOf", "anyOf", "x-kubernetes-int-or-string",
        "x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource"}
PREFIX = "#/components/schemas/"


def trim(s, refs):
    """The schema s with only the KEEP keys, recursively; collects $ref targets."""
    if isinstance(s, list):
        return [trim(x, refs) for x in s]
    if not isinstance(s, dict):
        return s
    out = {}
    for k, v in s.items():
        if k not in KEEP:
            continue
        if k == "properties":
            out[k] = {p: trim(ps, refs) for p, ps in v.items()}
        elif k == "$ref":
            if not v.startswith(PREFIX):
                sys.exit("trim.py: unexpected $ref %s" % v)
            refs.append(v[len(PREFIX):])
            out[k] = v
        else:
            out[k] = trim(v, refs)
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    version, files = sys.argv[1], sys.argv[2:]
    defs, gvk = {}, {}
    for f in files:
        with open(f, encoding="utf-8") as fh:
            spec = json.load(fh)
        for name, s in spec["components"]["schemas"].items():
            if name in defs and defs[name] != s:
                sys.exit("trim.py: %s differs between the input files" % name)
            defs[name] = s
            for g in s.get("x-kubernetes-group-version-kind", []):
                api = g["version"] if not g["group"] else g["group"] + "/" + g["version"]
                gvk[(api, g["kind"])] = name
    kinds, queue, out = {}, [], {}
    for api, kind in ROOTS:
        if (api, kind) not in gvk:
            sys.exit("trim.py: no schema for %s %s in the input files" % (api, kind))
        kinds[api + "/" + kind] = gvk[(api, kind)]
        queue.append(gvk[(api, kind)])
    while queue:
        name = queue.pop()
        if name in out:
            continue
        refs = []
        out[name] = trim(defs[name], refs)
        queue.extend(refs)
    w = sys.stdout.write
    w('{"kubernetes": %s,\n "kinds": {\n' % json.dumps(version))
    w(",\n".join("  %s: %s" % (json.dumps(k), json.dumps(v)) for k, v in sorted(kinds.items())))
    w('\n },\n "schemas": {\n')
    w(",\n".join("  %s: %s" % (json.dumps(k), json.dumps(out[k], sort_keys=True, separators=(",", ":")))
                 for k in sorted(out)))
    w("\n }\n}\n")


if __name__ == "__main__":
    main()
