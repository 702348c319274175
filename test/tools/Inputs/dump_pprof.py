#!/usr/bin/env python3
"""Prints a gzipped profile.proto as readable text: dump_pprof.py FILE.pb.gz

An independent decoder of the protobuf wire format (not spinel-prof's
encoder run backwards), with the field names of pprof's profile.proto, so
golden files show what was written and a wire-format mistake shows up as a
decoding error. Strings are resolved through the string table.
"""
import gzip
import sys

# message -> field number -> (name, kind): kind is "int", "str", "packed"
# or a message name.
SCHEMA = {
    "Profile": {1: ("sample_type", "ValueType"), 2: ("sample", "Sample"),
                3: ("mapping", "Mapping"), 4: ("location", "Location"),
                5: ("function", "Function"), 6: ("string_table", "str"),
                7: ("drop_frames", "int"), 8: ("keep_frames", "int"),
                9: ("time_nanos", "int"), 10: ("duration_nanos", "int"),
                11: ("period_type", "ValueType"), 12: ("period", "int"),
                13: ("comment", "packed"), 14: ("default_sample_type", "int")},
    "ValueType": {1: ("type", "int"), 2: ("unit", "int")},
    "Sample": {1: ("location_id", "packed"), 2: ("value", "packed"), 3: ("label", "Label")},
    "Label": {1: ("key", "int"), 2: ("str", "int"), 3: ("num", "int"), 4: ("num_unit", "int")},
    "Mapping": {1: ("id", "int")},
    "Location": {1: ("id", "int"), 2: ("mapping_id", "int"), 3: ("address", "int"),
                 4: ("line", "Line"), 5: ("is_folded", "int")},
    "Line": {1: ("function_id", "int"), 2: ("line", "int")},
    "Function": {1: ("id", "int"), 2: ("name", "int"), 3: ("system_name", "int"),
                 4: ("filename", "int"), 5: ("start_line", "int")},
}
# Fields that index the string table.
STRING_REFS = {("ValueType", "type"), ("ValueType", "unit"), ("Label", "key"),
               ("Label", "str"), ("Label", "num_unit"), ("Function", "name"),
               ("Function", "system_name"), ("Function", "filename"),
               ("Profile", "default_sample_type"), ("Profile", "comment")}


def varint(buf, pos):
    result = shift = 0
    while True:
        if pos >= len(buf):
            raise ValueError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise ValueError("varint too long")


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def decode(buf, message):
    fields = []
    pos = 0
    while pos < len(buf):
        key, pos = varint(buf, pos)
        number, wire = key >> 3, key & 7
        if number not in SCHEMA[message]:
            raise ValueError("%s: unknown field %d" % (message, number))
        name, kind = SCHEMA[message][number]
        if wire == 0:
            v, pos = varint(buf, pos)
            fields.append((name, [signed(v)] if kind == "packed" else signed(v)))
        elif wire == 2:
            n, pos = varint(buf, pos)
            data = buf[pos:pos + n]
            if len(data) != n:
                raise ValueError("truncated field %s" % name)
            pos += n
            if kind == "str":
                fields.append((name, data.decode("utf-8")))
            elif kind == "packed":
                vals, p = [], 0
                while p < len(data):
                    v, p = varint(data, p)
                    vals.append(signed(v))
                fields.append((name, vals))
            elif kind in SCHEMA:
                fields.append((name, decode(data, kind)))
            else:
                raise ValueError("%s.%s: length-delimited but %s" % (message, name, kind))
        else:
            raise ValueError("%s.%s: unexpected wire type %d" % (message, name, wire))
    return fields


def show(fields, message, strings, indent, out):
    for name, value in fields:
        kind = SCHEMA[message][[k for k, v in SCHEMA[message].items() if v[0] == name][0]][1]
        if kind in SCHEMA:
            out.append("%s%s {" % (indent, name))
            show(value, kind, strings, indent + "  ", out)
            out.append("%s}" % indent)
            continue
        if name == "string_table":
            continue
        if (message, name) in STRING_REFS:
            vals = value if isinstance(value, list) else [value]
            value = ", ".join('%d "%s"' % (v, strings[v]) for v in vals)
        out.append("%s%s: %s" % (indent, name, value))


def main():
    with open(sys.argv[1], "rb") as f:
        raw = f.read()
    if raw[:2] != b"\x1f\x8b":
        sys.exit("%s: not gzip" % sys.argv[1])
    fields = decode(gzip.decompress(raw), "Profile")
    strings = [v for n, v in fields if n == "string_table"]
    if not strings or strings[0] != "":
        sys.exit("string_table[0] must be the empty string")
    out = ["string_table: %d strings" % len(strings)]
    show(fields, "Profile", strings, "", out)
    print("\n".join(out))


if __name__ == "__main__":
    main()
