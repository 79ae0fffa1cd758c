// SPDX-License-Identifier: MIT
/*
 * The read-only guarantee, exhaustively: over the emulated drive with
 * trace=FILE, every one of the 256 opcodes is sent through cdt_exec_in();
 * exactly the allow-list reaches the transport (one trace line each), and
 * every other opcode, at every CDB length, is refused with CDT_EREFUSED
 * and leaves the trace untouched.  The conditional entries (GET EVENT
 * STATUS NOTIFICATION polled only, SERVICE ACTION IN(16) only READ
 * CAPACITY(16)) are checked for each variant.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "cdtail.h"
#include "th.h"

/* The read-only allow-list of core/device.c (cdt_cdb_allowed()), written out independently. */
static const uint8_t allowed[] = {
	0x00, 0x03, 0x12, 0x1a, 0x23, 0x25, 0x28, 0x42, 0x43, 0x46, 0x4a,
	0x51, 0x52, 0x5a, 0x88, 0x9e, 0xa0, 0xa8, 0xad, 0xb9, 0xbd, 0xbe,
};

/*
 * Commands that write the medium or change the drive's settings, named so
 * a failure says which.  The SBC writes whose opcodes MMC reuses for reads
 * (XPWRITE(10) = READ DISC INFORMATION 0x51, UNMAP = READ SUB-CHANNEL
 * 0x42) are tested on a device that is not MMC in test_device.c.
 */
static const struct {
	uint8_t op;
	const char *name;
} writes[] = {
	{ 0xac, "ERASE(12)" },
	{ 0x04, "FORMAT UNIT" },
	{ 0x0a, "WRITE(6)" },
	{ 0x15, "MODE SELECT(6)" },
	{ 0x16, "RESERVE(6)" },
	{ 0x1b, "START STOP UNIT" },
	{ 0x1e, "PREVENT ALLOW MEDIUM REMOVAL" },
	{ 0x2a, "WRITE(10)" },
	{ 0x2b, "SEEK(10)" },
	{ 0x2e, "WRITE AND VERIFY(10)" },
	{ 0x35, "SYNCHRONIZE CACHE(10)" },
	{ 0x3b, "WRITE BUFFER" },
	{ 0x41, "WRITE SAME(10)" },
	{ 0x4c, "LOG SELECT" },
	{ 0x53, "RESERVE TRACK" },
	{ 0x54, "SEND OPC INFORMATION" },
	{ 0x55, "MODE SELECT(10)" },
	{ 0x58, "REPAIR TRACK" },
	{ 0x5b, "CLOSE TRACK/SESSION" },
	{ 0x5d, "SEND CUE SHEET" },
	{ 0x5f, "PERSISTENT RESERVE OUT" },
	{ 0x8a, "WRITE(16)" },
	{ 0x8e, "WRITE AND VERIFY(16)" },
	{ 0x91, "SYNCHRONIZE CACHE(16)" },
	{ 0x93, "WRITE SAME(16)" },
	{ 0xa1, "BLANK" },
	{ 0xa2, "SEND EVENT" },
	{ 0xa3, "SEND KEY" },
	{ 0xa4, "REPORT KEY (MAINTENANCE OUT on SPC)" },
	{ 0xa6, "LOAD/UNLOAD MEDIUM" },
	{ 0xa7, "SET READ AHEAD" },
	{ 0xaa, "WRITE(12)" },
	{ 0xae, "WRITE AND VERIFY(12)" },
	{ 0xb6, "SET STREAMING" },
	{ 0xbb, "SET CD SPEED" },
	{ 0xbf, "SEND DVD STRUCTURE" },
};

#define N_ALLOWED (sizeof(allowed) / sizeof(allowed[0]))
#define N_WRITES (sizeof(writes) / sizeof(writes[0]))

struct ctx {
	char dir[64];
	char img[128];
	char trace[128];
	struct cdt_dev *dev;
};

static bool on_list(uint8_t op)
{
	size_t i;

	for (i = 0; i < N_ALLOWED; i++)
		if (allowed[i] == op)
			return true;
	return false;
}

static off_t trace_size(const struct ctx *c)
{
	struct stat st;

	assert_int_equal(stat(c->trace, &st), 0);
	return st.st_size;
}

/* The CDB length of the opcode's group (vendor groups: 10). */
static unsigned int group_len(uint8_t op)
{
	switch (op >> 5) {
	case 0:
		return 6;
	case 1:
	case 2:
		return 10;
	case 4:
		return 16;
	case 5:
		return 12;
	default:
		return op < 0x80 ? 16 : 10;
	}
}

/* A CDB asking for nothing harmful even where allowed: LBA 0, length 1. */
static void make_cdb(uint8_t *cdb, uint8_t op, unsigned int len)
{
	memset(cdb, 0, 16);
	cdb[0] = op;
	if (op == 0x4a)
		cdb[1] = 0x01;		/* polled */
	if (op == 0x9e)
		cdb[1] = 0x10;		/* READ CAPACITY(16) */
	if (len >= 10) {
		cdb[len - 2] = 0;	/* small allocation, one block */
		cdb[len - 3] = 1;
	}
}

static int send(struct ctx *c, const uint8_t *cdb, unsigned int len)
{
	static uint8_t buf[65536];
	uint8_t sense[64];
	unsigned int sense_len = sizeof(sense);
	uint32_t resid = 0;

	return cdt_exec_in(c->dev, cdb, len, buf, sizeof(buf), &resid, sense,
			   &sense_len);
}

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));
	char addr[320], err[256];
	uint8_t block[2048] = { 0 };
	FILE *f;
	int i;

	assert_non_null(c);
	assert_int_equal(th_tmpdir(c->dir, sizeof(c->dir), "readonly"), 0);
	th_path(c->img, sizeof(c->img), c->dir, "img");
	th_path(c->trace, sizeof(c->trace), c->dir, "trace");
	f = fopen(c->img, "w");
	assert_non_null(f);
	for (i = 0; i < 64; i++)
		assert_int_equal(fwrite(block, sizeof(block), 1, f), 1);
	assert_int_equal(fclose(f), 0);
	snprintf(addr, sizeof(addr), "sim:%s,trace=%s", c->img, c->trace);
	assert_int_equal(cdt_open(addr, NULL, &c->dev, err, sizeof(err)), 0);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;
	int rc;

	cdt_close(c->dev);
	rc = th_rmrf(c->dir);
	free(c);
	return rc;
}

static void expect_refused(struct ctx *c, const uint8_t *cdb, unsigned int len,
			   const char *what)
{
	off_t before = trace_size(c);
	int rc = send(c, cdb, len);

	if (rc != CDT_EREFUSED || trace_size(c) != before)
		fail_msg("%s (opcode 0x%02x, %u bytes): rc %d, trace %s", what,
			 cdb[0], len, rc,
			 trace_size(c) != before ? "grew" : "unchanged");
}

/* Exactly the allow-list reaches the transport; each once, first byte. */
static void test_all_opcodes(void **state)
{
	struct ctx *c = *state;
	unsigned int op, passed = 0;
	uint8_t cdb[16];

	for (op = 0; op < 256; op++) {
		unsigned int len = group_len((uint8_t)op);
		off_t before = trace_size(c);
		int rc;

		make_cdb(cdb, (uint8_t)op, len);
		assert_int_equal(cdt_cdb_allowed(cdb, len), on_list((uint8_t)op));
		if (!on_list((uint8_t)op)) {
			expect_refused(c, cdb, len, "not on the allow-list");
			continue;
		}
		rc = send(c, cdb, len);
		if (rc == CDT_EREFUSED || trace_size(c) == before)
			fail_msg("allowed opcode 0x%02x did not reach the drive (rc %d)",
				 op, rc);
		passed++;
	}
	assert_int_equal(passed, N_ALLOWED);
}

/* A refused opcode is refused at every CDB length, 6 to 16. */
static void test_refused_every_length(void **state)
{
	struct ctx *c = *state;
	unsigned int op, len;
	uint8_t cdb[16];

	for (op = 0; op < 256; op++) {
		if (on_list((uint8_t)op))
			continue;
		for (len = 6; len <= 16; len++) {
			make_cdb(cdb, (uint8_t)op, len);
			/* a CDB full of ones too: no field turns a write into a read */
			expect_refused(c, cdb, len, "refused opcode, any length");
			memset(cdb + 1, 0xff, len - 1);
			expect_refused(c, cdb, len, "refused opcode, all bits set");
		}
	}
}

/* The named write and settings commands, for a readable failure. */
static void test_named_writes(void **state)
{
	struct ctx *c = *state;
	uint8_t cdb[16];
	size_t i;

	for (i = 0; i < N_WRITES; i++) {
		unsigned int len = group_len(writes[i].op);

		assert_false(on_list(writes[i].op));
		make_cdb(cdb, writes[i].op, len);
		expect_refused(c, cdb, len, writes[i].name);
	}
}

/* SERVICE ACTION IN(16): only READ CAPACITY(16); GESN: only polled. */
static void test_conditional_entries(void **state)
{
	struct ctx *c = *state;
	unsigned int sa, len;
	uint8_t cdb[16];

	for (sa = 0; sa < 32; sa++) {
		if (sa == 0x10)
			continue;
		make_cdb(cdb, 0x9e, 16);
		cdb[1] = (uint8_t)sa;
		expect_refused(c, cdb, 16, "SERVICE ACTION IN(16), not READ CAPACITY");
	}
	for (len = 6; len < 16; len++) {
		make_cdb(cdb, 0x9e, len);
		expect_refused(c, cdb, len, "SERVICE ACTION IN(16), short CDB");
	}
	make_cdb(cdb, 0x4a, 10);
	cdb[1] = 0x00;
	expect_refused(c, cdb, 10, "GET EVENT STATUS, asynchronous");
	make_cdb(cdb, 0x4a, 6);
	expect_refused(c, cdb, 6, "GET EVENT STATUS, short CDB");
}

/* CDBs shorter than 6 or longer than 16 bytes never reach the drive. */
static void test_bad_lengths(void **state)
{
	struct ctx *c = *state;
	uint8_t cdb[32];
	off_t before = trace_size(c);
	unsigned int len;

	memset(cdb, 0, sizeof(cdb));
	cdb[0] = 0x28;			/* READ(10): allowed at a good length */
	for (len = 0; len < 6; len++)
		assert_int_equal(send(c, cdb, len), CDT_EREFUSED);
	for (len = 17; len <= sizeof(cdb); len++)
		assert_true(send(c, cdb, len) < 0);
	assert_int_equal(trace_size(c), before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_all_opcodes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_every_length, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_named_writes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_conditional_entries, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_bad_lengths, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
