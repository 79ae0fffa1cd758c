#!/usr/bin/env python3
"""check-man-fields.py MAN HEADER...: libcdtail(3)'s STRUCT FIELDS section
documents every field of every struct of the public headers, in
declaration order, and nothing the headers do not have."""
import re
import sys

man = open(sys.argv[1]).read()
hdr = ''.join(open(h).read() for h in sys.argv[2:])
hdr = re.sub(r'/\*.*?\*/', '', hdr, flags=re.S)
structs = {}
for name, body in re.findall(r'^struct (cdt_\w+) \{(.*?)^\};', hdr, re.M | re.S):
    fields = []
    for decl in body.split(';'):
        decl = ' '.join(decl.split())
        if not decl:
            continue
        decl = re.sub(r'\[[^]]*\]', '', decl)
        if '(' in decl:
            continue
        # "uint8_t sense_key, asc, ascq": the type, then the names
        parts = decl.split(',')
        first = re.findall(r'\w+', parts[0])[-1]
        fields.append(first)
        fields += [re.findall(r'\w+', p)[-1] for p in parts[1:]]
    structs[name] = fields

sec = man.split('.SH STRUCT FIELDS', 1)
fail = 0
if len(sec) < 2:
    print('not ok - man: no STRUCT FIELDS section')
    sys.exit(1)
sec = re.split(r'^\.SH ', sec[1], flags=re.M)[0]
documented = {}
for name, body in re.findall(r'^\.SS struct (cdt_\w+)\n(.*?)(?=^\.SS |\Z)', sec, re.M | re.S):
    documented[name] = re.findall(r'^\.TP\n\.B (\w+)$', body, re.M)
for name, fields in structs.items():
    if documented.get(name) != fields:
        fail += 1
        print('not ok - man: struct %s: header %s, man %s' %
              (name, fields, documented.get(name)))
for name in documented:
    if name not in structs:
        fail += 1
        print('not ok - man: struct %s is not in the header' % name)
print('man fields: %d structs, %d not documented as declared' % (len(structs), fail))
if fail:
    print('  document each field in man/libcdtail.3, STRUCT FIELDS, in declaration order')
sys.exit(1 if fail or not structs else 0)
