// SPDX-License-Identifier: MIT
/*
 * The table of answers (mmc/answer.c): every row is reached by an answer
 * built to match it and no earlier row, and gives its action; then the
 * answers the issue names, one by one, with the action each must get.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "cdtail.h"
#include "mmc/answer.h"
#include "th.h"

#define BS 2048

static uint8_t sense_buf[18];

/* Fixed-format sense KEY/ASC/ASCQ with response code rc. */
static const uint8_t *fixed(uint8_t rc, int key, int asc, int ascq)
{
	memset(sense_buf, 0, sizeof(sense_buf));
	sense_buf[0] = rc;
	sense_buf[2] = (uint8_t)(key < 0 ? 0x0e : key);
	sense_buf[7] = 10;
	sense_buf[12] = (uint8_t)(asc < 0 ? 0x7e : asc);
	sense_buf[13] = (uint8_t)(ascq < 0 ? 0x7e : ascq);
	return sense_buf;
}

/* A two-block read's answer. */
static struct cdt_answer read_answer(void)
{
	return (struct cdt_answer){ .data_len = 2 * BS, .block_size = BS };
}

static enum cdt_action act(const struct cdt_answer *a)
{
	struct cdt_disposition v;

	cdt_answer_classify(a, &v);
	assert_non_null(v.what);
	assert_non_null(v.source);
	return v.action;
}

/* An answer that the row r matches (ANY: a value no earlier row takes). */
static struct cdt_answer answer_for(const struct cdt_answer_row *r)
{
	struct cdt_answer a = read_answer();

	switch (r->kind) {
	case CDT_ROW_SENSE:
		a.status = 0x02;
		a.sense = fixed(0x70, r->a, r->b, r->c);
		a.sense_len = 18;
		break;
	case CDT_ROW_STATUS:
		a.status = (uint8_t)(r->a < 0 ? 0x30 : r->a);	/* ACA ACTIVE */
		break;
	case CDT_ROW_HOST:
		a.transport_rc = CDT_ETRANSPORT;
		a.host = (uint8_t)(r->a < 0 ? 0x7f : r->a);
		break;
	case CDT_ROW_DRIVER:
		a.transport_rc = CDT_ETRANSPORT;
		a.driver = (uint8_t)(r->a < 0 ? 0x04 : r->a);
		break;
	case CDT_ROW_ERRNO:
		a.transport_rc = CDT_ETRANSPORT;
		a.sys_errno = r->a < 0 ? EPROTO : r->a;
		if (r->b != 1)
			a.data_len = BS;
		break;
	case CDT_ROW_OTHER:
		switch (r->a) {
		case 0:
			a.transport_rc = CDT_ETIMEOUT;
			break;
		case 1:
			a.status = 0x02;
			break;
		case 2:
			a.status = 0x02;
			a.sense = fixed(0x71, 3, 0x11, 0);
			a.sense_len = 18;
			break;
		case 3:
			a.resid = BS;
			break;
		default:
			a.transport_rc = CDT_ETRANSPORT;
			break;
		}
		break;
	}
	return a;
}

/* Each row is reached by its own answer and gives its own action. */
static void test_every_row(void **state)
{
	const struct cdt_answer_row *rows;
	size_t n, i;

	(void)state;
	rows = cdt_answer_rows(&n);
	assert_true(n > 50);
	for (i = 0; i < n; i++) {
		struct cdt_answer a = answer_for(&rows[i]);
		struct cdt_disposition v;

		cdt_answer_classify(&a, &v);
		if (v.what != rows[i].what)
			fail_msg("row %zu (%s): reached '%s' instead", i, rows[i].what,
				 v.what);
		assert_int_equal(v.action, rows[i].action);
		assert_int_equal(v.budget, rows[i].budget);
		/* a bounded action says what it becomes; no other has a budget */
		if (v.action == CDT_ACT_RETRY || v.action == CDT_ACT_RESEND ||
		    v.action == CDT_ACT_BECOMING_READY)
			assert_true(v.budget > 0 && v.budget <= 10 &&
				    v.spent != v.action);
		else
			assert_int_equal(v.budget, 0);
		assert_true(strlen(rows[i].source) > 10);
		assert_string_not_equal(cdt_action_name(v.action), "?");
	}
}

static enum cdt_action sense_act(uint8_t rc, int key, int asc, int ascq)
{
	struct cdt_answer a = read_answer();

	a.status = 0x02;
	a.sense = fixed(rc, key, asc, ascq);
	a.sense_len = 18;
	return act(&a);
}

/* The answers of issue 22, item by item. */
static void test_issue_answers(void **state)
{
	struct cdt_answer a = read_answer();
	struct cdt_disposition v;

	(void)state;
	/* 2: damaged areas: hardware errors, missing sense, aborted, not ready */
	assert_int_equal(sense_act(0x70, 4, 0x09, 0x01), CDT_ACT_BAD_BLOCK);
	assert_int_equal(sense_act(0x70, 4, 0x02, 0x00), CDT_ACT_BAD_BLOCK);
	assert_int_equal(sense_act(0x70, 4, 0x15, 0x01), CDT_ACT_BAD_BLOCK);
	assert_int_equal(sense_act(0x70, 4, 0x44, 0x00), CDT_ACT_BAD_BLOCK);
	a.status = 0x02;
	cdt_answer_classify(&a, &v);
	assert_int_equal(v.action, CDT_ACT_RETRY);
	assert_int_equal(v.spent, CDT_ACT_BAD_BLOCK);
	a.sense = fixed(0x70, 0x0b, 0x4b, 0);
	a.sense_len = 18;
	cdt_answer_classify(&a, &v);
	assert_int_equal(v.action, CDT_ACT_RETRY);
	assert_int_equal(v.spent, CDT_ACT_BAD_BLOCK);
	assert_int_equal(sense_act(0x70, 2, 0x06, 0x00), CDT_ACT_BAD_BLOCK);
	/* 3: host bytes the kernel retries are retried, then the block is bad */
	for (unsigned int h = 0x02; h <= 0x0e; h++) {
		a = read_answer();
		a.transport_rc = CDT_ETRANSPORT;
		a.host = (uint8_t)h;
		cdt_answer_classify(&a, &v);
		if (h == 0x03 || h == 0x05)
			assert_int_equal(v.action, CDT_ACT_TIMEOUT);
		else if (h == 0x04)
			assert_int_equal(v.action, CDT_ACT_DEVICE_GONE);
		else
			assert_true(v.action == CDT_ACT_RETRY &&
				    v.spent == CDT_ACT_BAD_BLOCK);
	}
	/* 4: becoming ready: 10 polls (2 s apart in core/device.c) */
	a = read_answer();
	a.status = 0x02;
	a.sense = fixed(0x70, 2, 0x04, 0x01);
	a.sense_len = 18;
	cdt_answer_classify(&a, &v);
	assert_int_equal(v.action, CDT_ACT_BECOMING_READY);
	assert_int_equal(v.budget, 10);
	/* 5: GOOD with a residual: only what arrived counts */
	a = read_answer();
	a.resid = BS;
	assert_int_equal(act(&a), CDT_ACT_SHORT);
	/* part of a block short is that whole block short */
	a.resid = 1;
	assert_int_equal(act(&a), CDT_ACT_SHORT);
	a.resid = 0;
	assert_int_equal(act(&a), CDT_ACT_OK);
	/* 6: deferred sense is not the current read's: sent again */
	assert_int_equal(sense_act(0x71, 3, 0x11, 0), CDT_ACT_RESEND);
	assert_int_equal(sense_act(0xf1, 4, 0x09, 1), CDT_ACT_RESEND);
	assert_int_equal(sense_act(0x70, 3, 0x11, 0), CDT_ACT_BAD_BLOCK);
	/* 6: the driver byte: DRIVER_SENSE means look at the sense */
	a = read_answer();
	a.driver = 0x08;
	a.sense = fixed(0x70, 3, 0x11, 0);
	a.sense_len = 18;
	assert_int_equal(act(&a), CDT_ACT_BAD_BLOCK);
	a = read_answer();
	a.transport_rc = CDT_ETRANSPORT;
	a.driver = 0x06;
	assert_int_equal(act(&a), CDT_ACT_TIMEOUT);
	/* 6: EINVAL on a long read: too long; on one block: refused */
	a = read_answer();
	a.transport_rc = CDT_ETRANSPORT;
	a.sys_errno = EINVAL;
	assert_int_equal(act(&a), CDT_ACT_TOO_LONG);
	a.data_len = BS;
	assert_int_equal(act(&a), CDT_ACT_REFUSED);
	a.block_size = 0;	/* not a read */
	a.data_len = 4096;
	assert_int_equal(act(&a), CDT_ACT_REFUSED);
	/* 7: a signal: never sent again */
	a.sys_errno = EINTR;
	assert_int_equal(act(&a), CDT_ACT_INTERRUPTED);
	a.sys_errno = ENODEV;
	assert_int_equal(act(&a), CDT_ACT_DEVICE_GONE);
	/* a timeout wins over whatever else the answer holds */
	a = read_answer();
	a.transport_rc = CDT_ETIMEOUT;
	a.host = 0x07;
	assert_int_equal(act(&a), CDT_ACT_TIMEOUT);
	/* sense before the host byte, as sg_err_category_new */
	a = read_answer();
	a.status = 0x02;
	a.host = 0x07;
	a.sense = fixed(0x70, 5, 0x21, 0);
	a.sense_len = 18;
	assert_int_equal(act(&a), CDT_ACT_END);
}

/* Sense that is cut short or absent is "no sense", never a stale key. */
static void test_short_sense(void **state)
{
	struct cdt_answer a = read_answer();

	(void)state;
	a.status = 0x02;
	a.sense = fixed(0x70, 3, 0x11, 0);
	a.sense_len = 2;
	assert_int_equal(act(&a), CDT_ACT_RETRY);
	a.sense = NULL;
	a.sense_len = 18;
	assert_int_equal(act(&a), CDT_ACT_RETRY);
	a.sense = fixed(0x7f, 3, 0x11, 0);
	assert_int_equal(act(&a), CDT_ACT_RETRY);
}

/*
 * Issue 36: 05/6F/00-05, the copy protection answers (MMC-5 F.2), are
 * protected: never a bad block, never the end; 05/6F/06 and on (AACS
 * binding nonces) are not among them and stay ILLEGAL REQUEST (other).
 */
static void test_copy_protection(void **state)
{
	struct cdt_answer a = read_answer();
	struct cdt_disposition v;
	int q;

	(void)state;
	for (q = 0; q <= 5; q++)
		assert_int_equal(sense_act(0x70, 5, 0x6f, q), CDT_ACT_PROTECTED);
	assert_int_equal(sense_act(0x70, 5, 0x6f, 6), CDT_ACT_BAD_BLOCK);
	a.status = 0x02;
	a.sense = fixed(0x70, 5, 0x6f, 3);
	a.sense_len = 18;
	cdt_answer_classify(&a, &v);
	assert_non_null(strstr(v.what, "SCRAMBLED SECTOR WITHOUT AUTHENTICATION"));
	assert_non_null(strstr(cdt_action_name(v.action), "protected"));
	assert_string_equal(cdt_skip_why_name(CDT_SKIP_PROTECTED), "protected");
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(cdt_host_byte_name(0x07), "DID_ERROR");
	assert_string_equal(cdt_host_byte_name(0x0e), "DID_TRANSPORT_DISRUPTED");
	assert_string_equal(cdt_host_byte_name(0x13), "DID_MEDIUM_ERROR");
	assert_null(cdt_host_byte_name(0x40));
	assert_string_equal(cdt_driver_byte_name(0x08), "DRIVER_SENSE");
	assert_string_equal(cdt_driver_byte_name(0x26), "DRIVER_TIMEOUT");
	assert_null(cdt_driver_byte_name(0x0f));
	assert_string_equal(cdt_action_name((enum cdt_action)99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_row),
		cmocka_unit_test(test_issue_answers),
		cmocka_unit_test(test_short_sense),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_copy_protection),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
