// SPDX-License-Identifier: MIT
/*
 * The iscsi:// transport: a drive exported over iSCSI, reached through
 * libiscsi's userspace initiator, behind the same seam as sgio and sim.
 *
 * libiscsi's own *_sync calls can wait forever (its timeouts only fire
 * from iscsi_service(), and by default it reconnects and resends behind
 * our back), so every exchange here is driven through the async API and
 * poll() against a deadline.  A command that does not answer in time, or a
 * connection that drops, ends the session: the target aborts the tasks of
 * a lost connection, and the next command logs in afresh.  That keeps the
 * seam's promise that exec() returns within cmd->timeout_ms.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>
#include "cdtail.h"
#include "transport/iscsi_url.h"
#include "transport/transport.h"

#define ISCSI_INITIATOR "iqn.2026-12.org.cdtail:initiator"
#define ISCSI_MAX_XFER (256u * 1024)
#define ISCSI_IDLE_WAIT_MS 100	/* which_events() == 0: libiscsi asks for it */
#define ISCSI_SENSE_FIXED_LEN 18

/* ---- the address --------------------------------------------------- */

#define URL_PREFIX "iscsi://"
#define URL_FORM "iscsi://HOST[:PORT]/IQN/LUN"
#define HOST_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-."
#define IPV6_CHARS "0123456789abcdefABCDEF:."
#define NAME_CHARS HOST_CHARS ":"
#define DIGITS "0123456789"

struct url_state {
	const char *p;		/* next character to look at */
	char why[192];		/* what is wrong, when parsing fails */
};

static int url_fail(struct url_state *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int url_fail(struct url_state *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
	return -1;
}

/* A decimal number of at most maxdig digits; *v = -1 when there is none. */
static long url_number(struct url_state *s, size_t maxdig)
{
	size_t n = strspn(s->p, DIGITS);
	long v = 0;

	if (!n || n > maxdig) {
		s->p += n;
		return n ? -2 : -1;
	}
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (s->p[i] - '0');
	s->p += n;
	return v;
}

static int url_host(struct url_state *s, struct cdt_iscsi_url *u)
{
	const char *h = s->p;
	size_t n;

	if (*h == '[') {
		const char *end = strchr(h, ']');

		if (!end)
			return url_fail(s, "IPv6 address without its closing ']'");
		n = (size_t)(end - h - 1);
		if (!n || strspn(h + 1, IPV6_CHARS) != n)
			return url_fail(s, "'%.*s' is not an IPv6 address",
					(int)n, h + 1);
		h++;
		s->p = end + 1;
	} else {
		n = strspn(h, HOST_CHARS);
		s->p = h + n;
		if (!n && (*h == '/' || *h == ':' || !*h))
			return url_fail(s, "no host name or address");
	}
	if (*s->p && *s->p != ':' && *s->p != '/')
		return url_fail(s, "'%c' is not allowed in a host name", *s->p);
	if (n >= sizeof(u->host))
		return url_fail(s, "host name longer than %zu characters",
				sizeof(u->host) - 1);
	memcpy(u->host, h, n);
	u->host[n] = '\0';
	return 0;
}

static int url_port(struct url_state *s, struct cdt_iscsi_url *u)
{
	long v;

	u->port = CDT_ISCSI_DEFAULT_PORT;
	if (*s->p != ':')
		return 0;
	s->p++;
	v = url_number(s, 5);
	if (v == -1)
		return url_fail(s, "no port number after ':'");
	if (v < 1 || v > 65535)
		return url_fail(s, "port out of range (1-65535)");
	if (*s->p && *s->p != '/')
		return url_fail(s, "'%c' after the port number", *s->p);
	u->port = (unsigned int)v;
	return 0;
}

static bool name_has_type(const char *name)
{
	return !strncasecmp(name, "iqn.", 4) || !strncasecmp(name, "eui.", 4) ||
	       !strncasecmp(name, "naa.", 4);
}

static int url_name(struct url_state *s, struct cdt_iscsi_url *u)
{
	size_t n, ok;

	if (*s->p != '/')
		return url_fail(s, "no /IQN/LUN after the host");
	s->p++;
	n = strcspn(s->p, "/");
	if (!n)
		return url_fail(s, "no target name (IQN)");
	ok = strspn(s->p, NAME_CHARS);
	if (ok < n)
		return url_fail(s, "'%c' is not allowed in a target name",
				s->p[ok]);
	if (n > CDT_ISCSI_NAME_MAX)
		return url_fail(s, "target name longer than %d characters",
				CDT_ISCSI_NAME_MAX);
	memcpy(u->iqn, s->p, n);
	u->iqn[n] = '\0';
	s->p += n;
	if (!name_has_type(u->iqn))
		return url_fail(s, "target name '%s' does not start with iqn., eui. or naa.",
				u->iqn);
	return 0;
}

static int url_lun(struct url_state *s, struct cdt_iscsi_url *u)
{
	long v;

	if (*s->p != '/')
		return url_fail(s, "no /LUN after the target name");
	s->p++;
	v = url_number(s, 5);
	if (v == -1)
		return url_fail(s, "no LUN number after the target name");
	if (v < 0 || v > CDT_ISCSI_MAX_LUN)
		return url_fail(s, "LUN out of range (0-%d)", CDT_ISCSI_MAX_LUN);
	if (*s->p)
		return url_fail(s, "unexpected '%s' after the LUN", s->p);
	u->lun = (unsigned int)v;
	return 0;
}

int cdt_iscsi_parse_url(const char *url, struct cdt_iscsi_url *u,
			char *err, size_t errlen)
{
	struct url_state s = { .p = url };
	int bad;

	memset(u, 0, sizeof(*u));
	if (!url || strncmp(url, URL_PREFIX, strlen(URL_PREFIX))) {
		snprintf(err, errlen, "bad iSCSI address '%s': it must start with %s (want %s)",
			 url ? url : "", URL_PREFIX, URL_FORM);
		return CDT_EUSAGE;
	}
	s.p += strlen(URL_PREFIX);
	if (memchr(s.p, '@', strcspn(s.p, "/")))
		bad = url_fail(&s, "user names and passwords (CHAP) are not supported");
	else
		bad = url_host(&s, u) || url_port(&s, u) || url_name(&s, u) ||
		      url_lun(&s, u);
	if (bad) {
		snprintf(err, errlen, "bad iSCSI address '%s': %s (want %s)",
			 url, s.why, URL_FORM);
		return CDT_EUSAGE;
	}
	snprintf(u->portal, sizeof(u->portal),
		 strchr(u->host, ':') ? "[%s]:%u" : "%s:%u", u->host, u->port);
	return 0;
}

/* ---- the session ----------------------------------------------------- */

struct iscsi_transport {
	struct cdt_transport base;
	struct iscsi_context *ctx;	/* NULL: no session, log in first */
	struct cdt_iscsi_url url;
	unsigned int login_timeout_ms;
	/* one exchange in flight at a time: its completion lands here */
	bool done;
	int status;
	int sock_errno;			/* SO_ERROR seen when the socket failed */
	char err[256];			/* why the last session ended */
};

static struct iscsi_transport *to_iscsi(struct cdt_transport *t)
{
	return (struct iscsi_transport *)t;
}

static void exchange_cb(struct iscsi_context *ctx, int status, void *data,
			void *priv)
{
	struct iscsi_transport *it = priv;

	(void)ctx;
	(void)data;
	it->done = true;
	it->status = status;
}

/*
 * A write to a socket the target has closed raises SIGPIPE, which would
 * kill a program that never asked for iSCSI.  Block it around libiscsi's
 * socket work in this thread only, and swallow one that became pending.
 */
static void sigpipe_block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static void sigpipe_restore(const sigset_t *old)
{
	struct timespec zero = { 0, 0 };
	sigset_t set, pending;

	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	sigpending(&pending);
	if (sigismember(&pending, SIGPIPE) && !sigismember(old, SIGPIPE))
		sigtimedwait(&set, NULL, &zero);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/*
 * libiscsi's text for a refused connect is about its reconnect logic;
 * the socket's own error says what happened.
 */
static void note_sock_error(struct iscsi_transport *it, int fd)
{
	socklen_t len = sizeof(int);
	int e = 0;

	if (!getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len) && e)
		it->sock_errno = e;
}

/*
 * Run libiscsi's event loop until the exchange in flight completes or the
 * deadline passes.  Returns 0 (look at it->status), CDT_ETIMEOUT, or
 * CDT_ETRANSPORT when the connection failed under it.
 */
static int pump(struct iscsi_transport *it, double deadline)
{
	struct pollfd pfd;
	double left;
	int n, rc = 0;
	sigset_t old;

	sigpipe_block(&old);
	while (!it->done) {
		left = deadline - cdt_mono_ms();
		if (left <= 0) {
			rc = CDT_ETIMEOUT;
			break;
		}
		pfd.fd = iscsi_get_fd(it->ctx);
		pfd.events = (short)iscsi_which_events(it->ctx);
		pfd.revents = 0;
		if (!pfd.events) {
			poll(NULL, 0, left < ISCSI_IDLE_WAIT_MS ? (int)left + 1 :
			     ISCSI_IDLE_WAIT_MS);
			continue;
		}
		n = poll(&pfd, 1, (int)left + 1);
		if (n < 0 && errno != EINTR) {
			rc = CDT_ETRANSPORT;
			break;
		}
		if (n < 0)
			continue;
		if (pfd.revents & (POLLERR | POLLHUP))
			note_sock_error(it, pfd.fd);
		if (iscsi_service(it->ctx, n ? pfd.revents : 0) < 0 && !it->done) {
			rc = CDT_ETRANSPORT;
			break;
		}
	}
	sigpipe_restore(&old);
	return rc;
}

static void session_drop(struct iscsi_transport *it)
{
	sigset_t old;

	if (!it->ctx)
		return;
	sigpipe_block(&old);
	iscsi_destroy_context(it->ctx);
	sigpipe_restore(&old);
	it->ctx = NULL;
}

static void seterr(struct iscsi_transport *it, char *err, size_t errlen,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Keep the message for the transport and hand it to the caller. */
static void seterr(struct iscsi_transport *it, char *err, size_t errlen,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(it->err, sizeof(it->err), fmt, ap);
	va_end(ap);
	if (err && errlen)
		snprintf(err, errlen, "%s", it->err);
}

/* The best one-line reason libiscsi or the socket left behind. */
static const char *ctx_error(struct iscsi_transport *it, char *buf, size_t len)
{
	const char *e = it->ctx ? iscsi_get_error(it->ctx) : NULL;

	if (it->sock_errno)
		return strerror(it->sock_errno);
	if (!e || !*e)
		return "connection closed";
	snprintf(buf, len, "%s", e);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static struct iscsi_context *context_new(const struct cdt_iscsi_url *u)
{
	struct iscsi_context *ctx = iscsi_create_context(ISCSI_INITIATOR);

	if (!ctx)
		return NULL;
	if (iscsi_set_targetname(ctx, u->iqn) ||
	    iscsi_set_session_type(ctx, ISCSI_SESSION_NORMAL) ||
	    iscsi_set_header_digest(ctx, ISCSI_HEADER_DIGEST_NONE_CRC32C)) {
		iscsi_destroy_context(ctx);
		return NULL;
	}
	/* a lost connection is reported, not silently re-established */
	iscsi_set_noautoreconnect(ctx, 1);
	return ctx;
}

/* One step of the login: start it, then wait for its callback. */
static int login_step(struct iscsi_transport *it, int started, double deadline)
{
	int rc;

	if (started < 0)
		return CDT_ETRANSPORT;
	rc = pump(it, deadline);
	if (rc)
		return rc;
	return it->status == SCSI_STATUS_GOOD ? 0 : CDT_ETRANSPORT;
}

/*
 * TCP connect, then login, each with its own message: "cannot connect"
 * and "login failed" call for different fixes.  The power-on UNIT
 * ATTENTION is left for the first command; the device layer retries it.
 */
static int session_login(struct iscsi_transport *it, double deadline,
			 char *err, size_t errlen)
{
	const char *portal = it->url.portal;
	char why[160];
	int rc;

	it->sock_errno = 0;
	it->ctx = context_new(&it->url);
	if (!it->ctx) {
		seterr(it, err, errlen, "iscsi: cannot create an initiator context");
		return CDT_ENOMEM;
	}
	it->done = false;
	rc = login_step(it, iscsi_connect_async(it->ctx, portal, exchange_cb, it),
			deadline);
	if (rc) {
		seterr(it, err, errlen, "iscsi: cannot connect to %s: %s", portal,
		       rc == CDT_ETIMEOUT ? "timed out" :
		       ctx_error(it, why, sizeof(why)));
		goto fail;
	}
	it->done = false;
	rc = login_step(it, iscsi_login_async(it->ctx, exchange_cb, it), deadline);
	if (rc) {
		seterr(it, err, errlen, "iscsi: login to %s at %s failed: %s",
		       it->url.iqn, portal, rc == CDT_ETIMEOUT ? "timed out" :
		       ctx_error(it, why, sizeof(why)));
		goto fail;
	}
	return 0;
fail:
	session_drop(it);
	return rc == CDT_ETIMEOUT ? CDT_ETIMEOUT : CDT_EOPEN;
}

/* ---- commands -------------------------------------------------------- */

static uint16_t be16(const unsigned char *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/*
 * libiscsi leaves the SCSI Response's data segment (a 2-byte SenseLength,
 * then the sense bytes as the target sent them) in task->datain and only
 * a parsed key/ASC/ASCQ in task->sense.  Pass the raw bytes up, so the
 * INFORMATION field and descriptor format survive; rebuild fixed format
 * from the parsed fields only when the raw bytes are not there.
 */
static void copy_sense(struct scsi_task *task, struct cdt_cmd *cmd)
{
	const unsigned char *d = task->datain.data;
	unsigned int n;

	if (d && task->datain.size > 2) {
		n = be16(d);
		if (n > (unsigned int)task->datain.size - 2)
			n = (unsigned int)task->datain.size - 2;
		if (n > sizeof(cmd->sense))
			n = sizeof(cmd->sense);
		/* 0x70/0x71 fixed, 0x72/0x73 descriptor (its 64-bit INFORMATION) */
		if (n && (d[2] & 0x7c) == 0x70) {
			memcpy(cmd->sense, d + 2, n);
			cmd->sense_len = n;
			return;
		}
	}
	memset(cmd->sense, 0, ISCSI_SENSE_FIXED_LEN);
	cmd->sense[0] = 0x70;
	cmd->sense[2] = (uint8_t)(task->sense.key & 0x0f);
	cmd->sense[7] = ISCSI_SENSE_FIXED_LEN - 8;
	cmd->sense[12] = (uint8_t)(task->sense.ascq >> 8);
	cmd->sense[13] = (uint8_t)task->sense.ascq;
	cmd->sense_len = ISCSI_SENSE_FIXED_LEN;
}

static void fill_answer(struct scsi_task *task, struct cdt_cmd *cmd, int status)
{
	cmd->status = (uint8_t)status;
	cmd->resid = 0;
	if (task->residual_status == SCSI_RESIDUAL_UNDERFLOW)
		cmd->resid = task->residual > cmd->data_len ? cmd->data_len :
			     (uint32_t)task->residual;
	if (status == SCSI_STATUS_CHECK_CONDITION)
		copy_sense(task, cmd);
}

static struct scsi_task *task_new(struct cdt_cmd *cmd)
{
	uint32_t len = cmd->data ? cmd->data_len : 0;
	struct scsi_task *task;

	task = scsi_create_task((int)cmd->cdb_len, cmd->cdb,
				len ? SCSI_XFER_READ : SCSI_XFER_NONE, (int)len);
	if (!task)
		return NULL;
	if (len && scsi_task_add_data_in_buffer(task, (int)len, cmd->data)) {
		scsi_free_scsi_task(task);
		return NULL;
	}
	return task;
}

/*
 * Statuses libiscsi makes up for exchanges that never got a SCSI status
 * (cancelled, connection error, its own timeout, a redirect): none is a
 * status byte from the drive.
 */
static bool status_is_local(int status)
{
	return status < 0 || status > 0xff;
}

static int run_task(struct iscsi_transport *it, struct scsi_task *task,
		    struct cdt_cmd *cmd, double deadline)
{
	char why[160];
	sigset_t old;
	int rc;

	it->done = false;
	sigpipe_block(&old);
	rc = iscsi_scsi_command_async(it->ctx, (int)it->url.lun, task,
				      exchange_cb, NULL, it);
	sigpipe_restore(&old);
	if (rc < 0) {
		seterr(it, NULL, 0, "iscsi: cannot send to %s: %s",
		       it->url.portal, ctx_error(it, why, sizeof(why)));
		return CDT_ETRANSPORT;
	}
	rc = pump(it, deadline);
	if (rc == CDT_ETIMEOUT) {
		seterr(it, NULL, 0, "iscsi: %s did not answer within %u ms",
		       it->url.portal, cmd->timeout_ms);
		return rc;
	}
	if (rc || status_is_local(it->status)) {
		seterr(it, NULL, 0, "iscsi: connection to %s lost: %s",
		       it->url.portal, ctx_error(it, why, sizeof(why)));
		return CDT_ETRANSPORT;
	}
	fill_answer(task, cmd, it->status);
	return 0;
}

/* Peripheral qualifier 3: the target has no logical unit at this LUN. */
static bool lun_missing(const struct cdt_cmd *cmd, const uint8_t *inq)
{
	unsigned int asc_at = (cmd->sense[0] & 0x7e) == 0x72 ? 2 : 12;

	if (cmd->status == SCSI_STATUS_CHECK_CONDITION)
		return cmd->sense_len > asc_at && cmd->sense[asc_at] == 0x25;
	return cmd->status == SCSI_STATUS_GOOD && cmd->resid < cmd->data_len &&
	       (inq[0] & 0xe0) == 0x60;
}

/*
 * A LUN the target does not have still logs in: ask INQUIRY (which leaves
 * a pending UNIT ATTENTION alone) so the user hears "no LUN 5" at open
 * rather than a refused READ CAPACITY later.
 */
static int lun_check(struct iscsi_transport *it, double deadline,
		     unsigned int timeout_ms, char *err, size_t errlen)
{
	struct cdt_cmd cmd = { .cdb = { 0x12, 0, 0, 0, 36, 0 }, .cdb_len = 6 };
	uint8_t inq[36] = { 0 };
	struct scsi_task *task;
	int rc;

	cmd.data = inq;
	cmd.data_len = sizeof(inq);
	cmd.timeout_ms = timeout_ms;
	task = task_new(&cmd);
	if (!task)
		return CDT_ENOMEM;
	rc = run_task(it, task, &cmd, deadline);
	scsi_free_scsi_task(task);
	if (rc) {
		if (err && errlen)
			snprintf(err, errlen, "%s", it->err);
		return rc;
	}
	if (lun_missing(&cmd, inq)) {
		seterr(it, err, errlen, "iscsi: target %s at %s has no LUN %u",
		       it->url.iqn, it->url.portal, it->url.lun);
		return CDT_EOPEN;
	}
	return 0;
}

static int session_open(struct iscsi_transport *it, unsigned int timeout_ms,
			char *err, size_t errlen)
{
	double deadline = cdt_mono_ms() + timeout_ms;
	int rc;

	rc = session_login(it, deadline, err, errlen);
	if (!rc)
		rc = lun_check(it, deadline, timeout_ms, err, errlen);
	if (rc)
		session_drop(it);
	return rc;
}

static int iscsi_exec(struct cdt_transport *t, struct cdt_cmd *cmd)
{
	struct iscsi_transport *it = to_iscsi(t);
	unsigned int timeout = cmd->timeout_ms ? cmd->timeout_ms : 30000;
	double t0 = cdt_mono_ms();
	struct scsi_task *task;
	int rc;

	cmd->sense_len = 0;
	cmd->resid = 0;
	/* an earlier failure's text must not explain this command */
	it->err[0] = '\0';
	if (!it->ctx) {
		/* a new login: no longer than the command or a first login */
		rc = session_open(it, timeout < it->login_timeout_ms ? timeout :
				  it->login_timeout_ms, NULL, 0);
		if (rc) {
			cmd->ms = cdt_mono_ms() - t0;
			return rc == CDT_ETIMEOUT ? rc : CDT_ETRANSPORT;
		}
	}
	task = task_new(cmd);
	if (!task)
		return CDT_ENOMEM;
	rc = run_task(it, task, cmd, t0 + timeout);
	cmd->ms = cdt_mono_ms() - t0;
	/* the session is in an unknown state: end it, the target cleans up */
	if (rc)
		session_drop(it);
	scsi_free_scsi_task(task);
	return rc;
}

static void iscsi_close(struct cdt_transport *t)
{
	struct iscsi_transport *it = to_iscsi(t);
	sigset_t old;

	if (it->ctx) {
		/* a polite logout, bounded: the target may be gone */
		it->done = false;
		sigpipe_block(&old);
		if (iscsi_logout_async(it->ctx, exchange_cb, it) == 0) {
			sigpipe_restore(&old);
			pump(it, cdt_mono_ms() + 1000);
		} else {
			sigpipe_restore(&old);
		}
		session_drop(it);
	}
	free(it);
}

static uint32_t iscsi_max_transfer(struct cdt_transport *t)
{
	(void)t;
	return ISCSI_MAX_XFER;
}

static const char *iscsi_errmsg(struct cdt_transport *t)
{
	struct iscsi_transport *it = to_iscsi(t);

	return it->err[0] ? it->err : NULL;
}

static const struct cdt_transport_ops iscsi_ops = {
	.name = "iscsi",
	.exec = iscsi_exec,
	.close = iscsi_close,
	.max_transfer = iscsi_max_transfer,
	.errmsg = iscsi_errmsg,
};

int cdt_iscsi_connect(const char *url, unsigned int login_timeout_ms,
		      struct cdt_transport **tp, char *err, size_t errlen)
{
	struct iscsi_transport *it;
	int rc;

	*tp = NULL;
	it = calloc(1, sizeof(*it));
	if (!it) {
		snprintf(err, errlen, "out of memory");
		return CDT_ENOMEM;
	}
	rc = cdt_iscsi_parse_url(url, &it->url, err, errlen);
	if (rc)
		goto fail;
	it->base.ops = &iscsi_ops;
	it->login_timeout_ms = login_timeout_ms;
	rc = session_open(it, login_timeout_ms, err, errlen);
	if (rc == CDT_ETIMEOUT)
		rc = CDT_EOPEN;
	if (rc)
		goto fail;
	*tp = &it->base;
	return 0;
fail:
	free(it);
	return rc;
}

int cdt_iscsi_open(const char *url, unsigned int timeout_ms,
		   struct cdt_transport **tp, char *err, size_t errlen)
{
	return cdt_iscsi_connect(url, timeout_ms ? timeout_ms : CDT_ISCSI_LOGIN_TIMEOUT_MS,
				 tp, err, errlen);
}
