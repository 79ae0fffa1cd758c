// SPDX-License-Identifier: MIT
/*
 * The iscsi:// transport: its address parser, and its behaviour against a
 * small scripted iSCSI target (a forked child speaking just enough of
 * RFC 7143 to log in and answer one command): refused connections, silent
 * targets, commands that never complete, dropped connections, raw sense
 * and residuals passed up unchanged.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "cdtail.h"
#include "mmc/sense.h"
#include "transport/iscsi_url.h"
#include "transport/transport.h"

#define IQN "iqn.2026-12.org.cdtail:unit"

/* ---- the parser ------------------------------------------------------ */

static void parse_ok(const char *url, const char *host, unsigned int port,
		     const char *portal, const char *iqn, unsigned int lun)
{
	struct cdt_iscsi_url u;
	char err[256] = "";

	assert_int_equal(cdt_iscsi_parse_url(url, &u, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_string_equal(u.host, host);
	assert_int_equal(u.port, port);
	assert_string_equal(u.portal, portal);
	assert_string_equal(u.iqn, iqn);
	assert_int_equal(u.lun, lun);
}

static void parse_bad(const char *url, const char *why)
{
	struct cdt_iscsi_url u;
	char err[512] = "";

	assert_int_equal(cdt_iscsi_parse_url(url, &u, err, sizeof(err)),
			 CDT_EUSAGE);
	if (!strstr(err, why))
		fail_msg("'%s': message '%s' lacks '%s'", url, err, why);
	assert_non_null(strstr(err, "iscsi://HOST[:PORT]/IQN/LUN"));
}

static void test_parse_good(void **state)
{
	(void)state;
	parse_ok("iscsi://127.0.0.1/" IQN "/1", "127.0.0.1", 3260,
		 "127.0.0.1:3260", IQN, 1);
	parse_ok("iscsi://127.0.0.1:3261/" IQN "/0", "127.0.0.1", 3261,
		 "127.0.0.1:3261", IQN, 0);
	parse_ok("iscsi://[::1]:860/" IQN "/16383", "::1", 860, "[::1]:860",
		 IQN, 16383);
	parse_ok("iscsi://[fe80::1]/" IQN "/2", "fe80::1", 3260,
		 "[fe80::1]:3260", IQN, 2);
	parse_ok("iscsi://rack-7.example.org:65535/eui.02004567A425678D/3",
		 "rack-7.example.org", 65535, "rack-7.example.org:65535",
		 "eui.02004567A425678D", 3);
	parse_ok("iscsi://h/naa.52004567BA64678D/007", "h", 3260, "h:3260",
		 "naa.52004567BA64678D", 7);
}

/* an address, and what the message about it must say */
static const struct { const char *url, *msg; } bad_urls[] = {
	{ "iscsi:/127.0.0.1/" IQN "/1", "must start with iscsi://" },
	{ "ISCSI://127.0.0.1/" IQN "/1", "must start with iscsi://" },
	{ "iscsi:///" IQN "/1", "no host" },
	{ "iscsi://:3260/" IQN "/1", "no host" },
	{ "iscsi://", "no host" },
	{ "iscsi://user:pw@h/" IQN "/1", "CHAP" },
	{ "iscsi://h_x/" IQN "/1", "'_' is not allowed in a host" },
	{ "iscsi://[::1/" IQN "/1", "closing ']'" },
	{ "iscsi://[]/" IQN "/1", "not an IPv6 address" },
	{ "iscsi://[::g]/" IQN "/1", "not an IPv6 address" },
	{ "iscsi://[::1]x/" IQN "/1", "'x' is not allowed" },
	{ "iscsi://h:/" IQN "/1", "no port number" },
	{ "iscsi://h:0/" IQN "/1", "port out of range" },
	{ "iscsi://h:65536/" IQN "/1", "port out of range" },
	{ "iscsi://h:123456/" IQN "/1", "port out of range" },
	{ "iscsi://h:32a/" IQN "/1", "'a' after the port" },
	{ "iscsi://h", "no /IQN/LUN" },
	{ "iscsi://h:3260", "no /IQN/LUN" },
	{ "iscsi://h/", "no target name" },
	{ "iscsi://h//1", "no target name" },
	{ "iscsi://h/" IQN, "no /LUN" },
	{ "iscsi://h/" IQN "/", "no LUN number" },
	{ "iscsi://h/" IQN "/x", "no LUN number" },
	{ "iscsi://h/" IQN "/-1", "no LUN number" },
	{ "iscsi://h/" IQN "/16384", "LUN out of range" },
	{ "iscsi://h/" IQN "/123456", "LUN out of range" },
	{ "iscsi://h/" IQN "/1/", "unexpected '/' after the LUN" },
	{ "iscsi://h/" IQN "/1?x", "unexpected '?x' after the LUN" },
	{ "iscsi://h/target1/1", "does not start with iqn." },
	{ "iscsi://h/iqn.x y/1", "' ' is not allowed in a target name" },
};

static void test_parse_bad(void **state)
{
	char longname[300];

	(void)state;
	for (size_t i = 0; i < sizeof(bad_urls) / sizeof(bad_urls[0]); i++)
		parse_bad(bad_urls[i].url, bad_urls[i].msg);
	memset(longname, 'a', sizeof(longname));
	memcpy(longname, "iscsi://h/iqn.", 14);
	strcpy(longname + 14 + 220, "/1");
	parse_bad(longname, "longer than 223");
}

static void test_parse_null_and_small_err(void **state)
{
	struct cdt_iscsi_url u;
	char err[8];

	(void)state;
	assert_int_equal(cdt_iscsi_parse_url(NULL, &u, err, sizeof(err)),
			 CDT_EUSAGE);
	/* a short buffer truncates, never overflows */
	assert_int_equal(cdt_iscsi_parse_url("iscsi://h/x/1", &u, err,
					     sizeof(err)), CDT_EUSAGE);
	assert_int_equal(strlen(err), sizeof(err) - 1);
}

/* ---- a scripted target ------------------------------------------------ */

enum fake_mode {
	FAKE_MUTE,		/* accept TCP, never answer the login */
	FAKE_REJECT,		/* login answered "target not found" */
	FAKE_HANG,		/* log in, then never answer a command */
	FAKE_DROP,		/* log in, then close on the first command */
	FAKE_SENSE,		/* answer CHECK CONDITION with raw sense */
	FAKE_DESC_SENSE,	/* the same in descriptor format */
	FAKE_DATA,		/* answer 10 bytes of data, underflow */
	FAKE_NO_LUN,		/* INQUIRY says peripheral qualifier 3 */
	FAKE_HANG_ONCE,		/* FAKE_HANG, then a second session FAKE_DATA */
};

struct pdu {
	uint8_t bhs[48];
	uint8_t data[8192];
	uint32_t dlen;
};

/*
 * The child leaves through exit(), not _exit(): library destructors run, so
 * valgrind does not report their start-up allocations as lost.  Buffers
 * were flushed before fork(), so nothing is printed twice.
 */
static void __attribute__((noreturn)) child_exit(int status)
{
	exit(status);
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static int read_full(int fd, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int pdu_read(int fd, struct pdu *p)
{
	uint32_t ahs, pad;

	if (read_full(fd, p->bhs, 48))
		return -1;
	ahs = p->bhs[4] * 4u;
	p->dlen = get32(p->bhs + 4) & 0xffffff;
	pad = (p->dlen + 3) & ~3u;
	if (ahs + pad > sizeof(p->data))
		return -1;
	return read_full(fd, p->data, ahs + pad);
}

static void pdu_send(int fd, uint8_t *bhs, const void *data, uint32_t dlen)
{
	static const uint8_t zero[4];

	put32(bhs + 4, dlen);
	bhs[4] = 0;
	if (write(fd, bhs, 48) != 48 ||
	    (dlen && write(fd, data, dlen) != (ssize_t)dlen) ||
	    ((dlen & 3) && write(fd, zero, 4 - (dlen & 3)) < 0))
		child_exit(3);
}

struct fake_seq {
	uint32_t statsn, expcmdsn;
};

static void seq_put(struct fake_seq *s, uint8_t *bhs)
{
	put32(bhs + 24, s->statsn++);
	put32(bhs + 28, s->expcmdsn);
	put32(bhs + 32, s->expcmdsn + 16);
}

static const char login_keys[] =
	"TargetPortalGroupTag=1\0HeaderDigest=None\0DataDigest=None\0"
	"MaxRecvDataSegmentLength=8192\0InitialR2T=Yes\0ImmediateData=Yes\0"
	"MaxBurstLength=262144\0FirstBurstLength=65536\0"
	"DefaultTime2Wait=0\0DefaultTime2Retain=0\0MaxOutstandingR2T=1\0"
	"DataPDUInOrder=Yes\0DataSequenceInOrder=Yes\0ErrorRecoveryLevel=0\0";

/* Answer login requests until one moves to full feature phase. */
static int fake_login(int fd, struct fake_seq *s, bool reject)
{
	struct pdu p;
	uint8_t r[48];

	for (;;) {
		if (pdu_read(fd, &p) || (p.bhs[0] & 0x3f) != 0x03)
			return -1;
		memset(r, 0, sizeof(r));
		r[0] = 0x23;
		r[1] = p.bhs[1] & 0xcf;	/* T, CSG, NSG as asked */
		memcpy(r + 8, p.bhs + 8, 8);	/* ISID, TSIH */
		memcpy(r + 16, p.bhs + 16, 4);	/* ITT */
		s->statsn = get32(p.bhs + 28);
		s->expcmdsn = get32(p.bhs + 24);
		seq_put(s, r);
		if (reject) {
			r[1] = 0;
			r[36] = 0x02;	/* initiator error */
			r[37] = 0x03;	/* not found */
			pdu_send(fd, r, NULL, 0);
			return -1;
		}
		if ((p.bhs[1] & 0x80) && (p.bhs[1] & 0x03) == 3)
			r[15] = 1;	/* TSIH */
		pdu_send(fd, r, login_keys, sizeof(login_keys) - 1);
		if ((p.bhs[1] & 0x80) && (p.bhs[1] & 0x03) == 3)
			return 0;
	}
}

static void scsi_reply(int fd, struct fake_seq *s, const struct pdu *cmd,
		       uint8_t status, const uint8_t *sense, uint32_t slen,
		       uint32_t resid)
{
	uint8_t r[48], seg[2 + 252];

	memset(r, 0, sizeof(r));
	r[0] = 0x21;
	r[1] = 0x80 | (resid ? 0x02 : 0);
	r[3] = status;
	memcpy(r + 16, cmd->bhs + 16, 4);
	s->expcmdsn = get32(cmd->bhs + 24) + 1;
	seq_put(s, r);
	put32(r + 44, resid);
	seg[0] = (uint8_t)(slen >> 8);
	seg[1] = (uint8_t)slen;
	memcpy(seg + 2, sense, slen);
	pdu_send(fd, r, seg, slen ? slen + 2 : 0);
}

/* Data-In carrying the status, with an underflow residual. */
static void data_reply(int fd, struct fake_seq *s, const struct pdu *cmd,
		       const uint8_t *data, uint32_t len)
{
	uint32_t want = get32(cmd->bhs + 20);
	uint8_t r[48];

	memset(r, 0, sizeof(r));
	r[0] = 0x25;
	r[1] = 0x81 | (want > len ? 0x02 : 0);	/* F, S, U */
	memcpy(r + 16, cmd->bhs + 16, 4);
	put32(r + 20, 0xffffffff);
	s->expcmdsn = get32(cmd->bhs + 24) + 1;
	seq_put(s, r);
	put32(r + 44, want > len ? want - len : 0);
	pdu_send(fd, r, data, len);
}

static const uint8_t fake_sense[] = {
	0xf0, 0, 0x03, 0x00, 0x00, 0x04, 0xd2, 0x0a, 0, 0, 0, 0, 0x11, 0x05,
	0, 0, 0, 0, 0xaa, 0xbb,		/* 20 bytes: extra bytes survive too */
};

/* 72h: 03/11/05, an information descriptor with a 64-bit LBA */
static const uint8_t fake_desc_sense[] = {
	0x72, 0x03, 0x11, 0x05, 0, 0, 0, 12,
	0x00, 0x0a, 0x80, 0, 0x00, 0x00, 0x00, 0x01, 0x23, 0x45, 0x67, 0x89,
};

static void fake_answer(int fd, struct fake_seq *s, const struct pdu *p,
			enum fake_mode mode)
{
	static const uint8_t inq[36] = { 0x05, 0x80, 0x05, 0x02, 31 };
	static const uint8_t no_lun[36] = { 0x7f };
	static const uint8_t ten[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

	if (p->bhs[32] == 0x12)	/* INQUIRY, from the LUN check at login */
		data_reply(fd, s, p, mode == FAKE_NO_LUN ? no_lun : inq, 36);
	else if (mode == FAKE_DROP)
		child_exit(0);
	else if (mode == FAKE_SENSE)
		scsi_reply(fd, s, p, 0x02, fake_sense, sizeof(fake_sense),
			   get32(p->bhs + 20));
	else if (mode == FAKE_DESC_SENSE)
		scsi_reply(fd, s, p, 0x02, fake_desc_sense, sizeof(fake_desc_sense),
			   get32(p->bhs + 20));
	else if (mode == FAKE_DATA)
		data_reply(fd, s, p, ten, sizeof(ten));
	else if (mode != FAKE_HANG)
		scsi_reply(fd, s, p, 0x00, NULL, 0, 0);
}

/* One connection: log in, answer commands until logout or hang-up. */
static void fake_conn(int fd, enum fake_mode mode)
{
	struct fake_seq s;
	struct pdu p;

	if (fake_login(fd, &s, mode == FAKE_REJECT))
		return;
	while (!pdu_read(fd, &p)) {
		uint8_t op = p.bhs[0] & 0x3f;

		if (op == 0x06)		/* logout: just hang up */
			return;
		if (op == 0x01)
			fake_answer(fd, &s, &p, mode);
	}
}

static void fake_serve(int lfd, enum fake_mode mode)
{
	int fd;

	if (mode == FAKE_MUTE) {
		/* the kernel completes the handshake; nobody reads */
		pause();
		child_exit(0);
	}
	fd = accept(lfd, NULL, NULL);
	if (fd < 0)
		child_exit(0);
	fake_conn(fd, mode == FAKE_HANG_ONCE ? FAKE_HANG : mode);
	if (mode == FAKE_HANG_ONCE) {
		/* the initiator gave up on the first session: serve a new one */
		close(fd);
		fd = accept(lfd, NULL, NULL);
		if (fd >= 0)
			fake_conn(fd, FAKE_DATA);
	}
	child_exit(0);
}

struct fake {
	pid_t pid;
	unsigned int port;
	char url[128];
};

static void fake_start(struct fake *f, enum fake_mode mode)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int lfd = socket(AF_INET, SOCK_STREAM, 0);

	assert_true(lfd >= 0);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(lfd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(lfd, 4), 0);
	assert_int_equal(getsockname(lfd, (struct sockaddr *)&a, &len), 0);
	f->port = ntohs(a.sin_port);
	snprintf(f->url, sizeof(f->url), "iscsi://127.0.0.1:%u/%s/1", f->port, IQN);
	fflush(NULL);
	f->pid = fork();
	assert_true(f->pid >= 0);
	if (!f->pid)
		fake_serve(lfd, mode);
	close(lfd);
}

static void fake_stop(struct fake *f)
{
	kill(f->pid, SIGKILL);
	waitpid(f->pid, NULL, 0);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void expect_open_fails(const struct fake *f, unsigned int login_ms,
			      int want, const char *why)
{
	struct cdt_transport *t = (void *)1;
	char err[512] = "";
	double t0 = now_ms();

	assert_int_equal(cdt_iscsi_connect(f->url, login_ms, &t, err,
					   sizeof(err)), want);
	assert_null(t);
	if (!strstr(err, why))
		fail_msg("message '%s' lacks '%s'", err, why);
	/* bounded by the login timeout, with slack for a slow machine */
	assert_true(now_ms() - t0 < login_ms + 2000);
}

static void test_refused(void **state)
{
	struct fake f;
	char want[64];

	(void)state;
	/* a port that was just free: connect is refused at once */
	fake_start(&f, FAKE_MUTE);
	fake_stop(&f);
	snprintf(want, sizeof(want), "cannot connect to 127.0.0.1:%u: Connection refused",
		 f.port);
	expect_open_fails(&f, 2000, CDT_EOPEN, want);
}

static void test_silent_target(void **state)
{
	struct fake f;

	(void)state;
	fake_start(&f, FAKE_MUTE);
	expect_open_fails(&f, 300, CDT_EOPEN, "login to " IQN " at 127.0.0.1:");
	expect_open_fails(&f, 300, CDT_EOPEN, "failed: timed out");
	fake_stop(&f);
}

static void test_login_rejected(void **state)
{
	struct fake f;

	(void)state;
	fake_start(&f, FAKE_REJECT);
	expect_open_fails(&f, 2000, CDT_EOPEN, "login to " IQN);
	fake_stop(&f);
}

static void test_no_lun(void **state)
{
	struct fake f;

	(void)state;
	fake_start(&f, FAKE_NO_LUN);
	expect_open_fails(&f, 2000, CDT_EOPEN, "has no LUN 1");
	fake_stop(&f);
}

/* A READ(10) of one 2048-byte block. */
static void read_cmd(struct cdt_cmd *cmd, uint8_t *buf, unsigned int timeout_ms)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->cdb[0] = 0x28;
	cmd->cdb[8] = 1;
	cmd->cdb_len = 10;
	cmd->data = buf;
	cmd->data_len = 2048;
	cmd->timeout_ms = timeout_ms;
}

/* Open against the fake and run one READ(10). */
static int run_read(struct fake *f, enum fake_mode mode, struct cdt_cmd *cmd,
		    uint8_t *buf, unsigned int timeout_ms)
{
	struct cdt_transport *t = NULL;
	char err[512] = "";
	int rc;

	fake_start(f, mode);
	rc = cdt_iscsi_connect(f->url, 2000, &t, err, sizeof(err));
	if (rc)
		fail_msg("open: %d %s", rc, err);
	assert_string_equal(t->ops->name, "iscsi");
	assert_true(t->ops->max_transfer(t) >= 65536);
	read_cmd(cmd, buf, timeout_ms);
	rc = t->ops->exec(t, cmd);
	t->ops->close(t);
	fake_stop(f);
	return rc;
}

static void test_hang_times_out(void **state)
{
	static uint8_t buf[2048];
	struct cdt_cmd cmd;
	struct fake f;

	(void)state;
	assert_int_equal(run_read(&f, FAKE_HANG, &cmd, buf, 400), CDT_ETIMEOUT);
	assert_true(cmd.ms >= 390 && cmd.ms < 2000);
}

/* After a timeout the next command logs in afresh and is answered. */
static void test_relogin_after_timeout(void **state)
{
	static uint8_t buf[2048];
	struct cdt_transport *t = NULL;
	struct cdt_cmd cmd;
	char err[512] = "";
	struct fake f;

	(void)state;
	fake_start(&f, FAKE_HANG_ONCE);
	assert_int_equal(cdt_iscsi_connect(f.url, 2000, &t, err, sizeof(err)), 0);
	read_cmd(&cmd, buf, 300);
	assert_int_equal(t->ops->exec(t, &cmd), CDT_ETIMEOUT);
	assert_non_null(strstr(t->ops->errmsg(t), "did not answer within 300 ms"));
	read_cmd(&cmd, buf, 2000);
	assert_int_equal(t->ops->exec(t, &cmd), 0);
	assert_int_equal(cmd.status, CDT_STATUS_GOOD);
	assert_int_equal(cmd.resid, 2048 - 10);
	assert_int_equal(buf[9], 10);
	/* the old failure's text does not outlive it */
	assert_null(t->ops->errmsg(t));
	t->ops->close(t);
	fake_stop(&f);
}

static void test_drop_is_transport_error(void **state)
{
	static uint8_t buf[2048];
	struct cdt_cmd cmd;
	struct fake f;

	(void)state;
	/* a write to the closed socket must not kill us with SIGPIPE */
	assert_int_equal(run_read(&f, FAKE_DROP, &cmd, buf, 5000),
			 CDT_ETRANSPORT);
	assert_true(cmd.ms < 4000);
}

/* A CHECK CONDITION answer reaches the device layer with the sense as sent. */
static void expect_sense(enum fake_mode mode, const uint8_t *want, size_t len,
			 struct cdt_cmd *cmd)
{
	static uint8_t buf[2048];
	struct fake f;

	assert_int_equal(run_read(&f, mode, cmd, buf, 5000), 0);
	assert_int_equal(cmd->status, CDT_STATUS_CHECK);
	assert_int_equal(cmd->sense_len, len);
	assert_memory_equal(cmd->sense, want, len);
}

static void test_raw_sense(void **state)
{
	struct cdt_cmd cmd;

	(void)state;
	expect_sense(FAKE_SENSE, fake_sense, sizeof(fake_sense), &cmd);
	assert_int_equal(cmd.resid, 2048);
	assert_true(cmd.ms > 0);
}

/* Descriptor sense: its 64-bit INFORMATION survives. */
static void test_descriptor_sense(void **state)
{
	struct cdt_sense sense;
	struct cdt_cmd cmd;

	(void)state;
	expect_sense(FAKE_DESC_SENSE, fake_desc_sense, sizeof(fake_desc_sense), &cmd);
	cdt_sense_decode(cmd.sense, cmd.sense_len, &sense);
	assert_true(sense.descriptor);
	assert_int_equal(sense.key, 0x03);
	assert_int_equal(sense.asc, 0x11);
	assert_true(sense.info_valid);
	assert_int_equal(sense.info, 0x123456789ull);
}

static void test_data_and_resid(void **state)
{
	static uint8_t buf[2048];
	struct cdt_cmd cmd;
	struct fake f;

	(void)state;
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(run_read(&f, FAKE_DATA, &cmd, buf, 5000), 0);
	assert_int_equal(cmd.status, CDT_STATUS_GOOD);
	assert_int_equal(cmd.sense_len, 0);
	assert_int_equal(cmd.resid, 2048 - 10);
	assert_int_equal(buf[0], 1);
	assert_int_equal(buf[9], 10);
	assert_int_equal(buf[10], 0xee);
}

/* Through cdt_open: the device layer routes iscsi:// here. */
static void test_cdt_open_routes(void **state)
{
	struct cdt_dev *dev = NULL;
	char err[512] = "";

	(void)state;
	assert_int_equal(cdt_open("iscsi://h/" IQN "/1/x", NULL, &dev, err,
				  sizeof(err)), CDT_EUSAGE);
	assert_null(dev);
	assert_non_null(strstr(err, "bad iSCSI address"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_parse_null_and_small_err),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_silent_target),
		cmocka_unit_test(test_login_rejected),
		cmocka_unit_test(test_no_lun),
		cmocka_unit_test(test_hang_times_out),
		cmocka_unit_test(test_relogin_after_timeout),
		cmocka_unit_test(test_drop_is_transport_error),
		cmocka_unit_test(test_raw_sense),
		cmocka_unit_test(test_descriptor_sense),
		cmocka_unit_test(test_data_and_resid),
		cmocka_unit_test(test_cdt_open_routes),
	};

	return cmocka_run_group_tests_name("iscsi", tests, NULL, NULL);
}
