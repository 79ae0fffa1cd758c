#!/usr/bin/env python3
"""check-man-fields.py [--embedded RECORD] MAN HEADER...: libcdtail(3)'s
STRUCT FIELDS section documents every field of every struct of the public
headers, in declaration order, and nothing the headers do not have; and
the page names every function the headers declare.

With --embedded: every struct embedded in another (a field of type
struct cdt_X, not a pointer) has exactly the fields RECORD lists for it,
and RECORD lists no other struct.  An embedded struct cannot grow without
moving the fields after it (libcdtail(3), Structs that grow): a change
here is a new soname (then record it again) or the struct held by
pointer instead."""
import re
import sys

args = sys.argv[1:]
record = None
if args[:1] == ['--embedded']:
    record, args = args[1], args[2:]
man = open(args[0]).read()
hdr = ''.join(open(h).read() for h in args[1:])
hdr = re.sub(r'/\*.*?\*/', '', hdr, flags=re.S)
structs = {}
embedded = set()
for name, body in re.findall(r'^struct (cdt_\w+) \{(.*?)^\};', hdr, re.M | re.S):
    fields = []
    for decl in body.split(';'):
        decl = ' '.join(decl.split())
        if not decl:
            continue
        decl = re.sub(r'\[[^]]*\]', '', decl)
        if '(' in decl:
            continue
        m = re.match(r'(?:const )?struct (cdt_\w+) (\w+)$', decl)
        if m:
            embedded.add(m.group(1))
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
efail = 0
if record:
    recorded = {}
    for line in open(record):
        line = line.split('#', 1)[0].strip()
        if line:
            name, fields = line.split(':', 1)
            recorded[name.strip()] = fields.split()
    for name in sorted(embedded | set(recorded)):
        if name not in embedded:
            efail += 1
            print('not ok - embedded: struct %s is recorded but embedded nowhere' % name)
        elif recorded.get(name) != structs.get(name):
            efail += 1
            print('not ok - embedded: struct %s: header %s, recorded %s' %
                  (name, structs.get(name), recorded.get(name)))
            print('  an embedded struct keeps its layout while the soname stays:'
                  ' hold it by pointer, or bump the soname and record it again in ' + record)
    print('embedded structs: %d, %d not as recorded for this soname' % (len(embedded), efail))
funcs = sorted(set(re.findall(r'^[a-z][a-z0-9_ *]*[ *](cdt_[a-z0-9_]*)\(', hdr, re.M)))
for f in funcs:
    if not re.search(r'\b%s(\(| \(\))' % f, man):
        fail += 1
        print('not ok - man: function %s() is not in libcdtail(3)' % f)
print('man fields: %d structs and %d functions, %d not documented as declared' % (len(structs), len(funcs), fail))
if fail:
    print('  document each field in man/libcdtail.3, STRUCT FIELDS, in declaration order,'
          ' and each function in its text')
sys.exit(1 if fail or efail or not structs or not funcs else 0)
